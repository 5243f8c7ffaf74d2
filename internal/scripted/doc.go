// Package scripted is an offline stand-in for a summarizer model: [Model] answers the prompt of the engine's LLM summarizer
// (package llmsummary) with a valid JSON summary built from the rule-based
// digest of the messages the prompt's transcript shows, and [NewSummarizer]
// is that LLM summarizer with each request handed to its model calls
// through the context ([WithRequest]), where Model reads it.
//
// The evaluation (cmd/compact-eval, strategy ours-llm offline) and the
// example agent (examples/agent -llm-summarizer offline) both use it, so
// that the LLM summarizer's whole path (prompt, input cap, reply cap, JSON
// validation, chain folding) runs without a provider, deterministically.
package scripted

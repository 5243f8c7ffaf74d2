// Command compact-eval measures context compaction on real agent
// trajectories: how many input tokens each strategy bills and which facts
// of the conversation it keeps visible to the model.
//
// It replays every JSONL trajectory of the folders given (the format of
// ../shared/eval/README.md; by default the coding-agent trajectories and
// the runs of other frameworks beside them) as an agent would: one model call per assistant
// message, whose input is the conversation before it. Each call goes
// through every strategy side by side, at every window:
//
//	none          no compaction (the baseline)
//	oldest-first  drop the oldest messages until under the budget, as
//	              langchaingo's memory.ConversationTokenBuffer does
//	mask-last-N   observation masking: all tool outputs but the last N
//	              replaced by a placeholder (SWE-agent's LastNObservations)
//	ours-mask     compact with WithMaskOnly(true)
//	ours-rule     compact with the rule-based summarizer
//	ours-llm      compact with the LLM summarizer (an offline scripted
//	              model, or OpenAI when OPENAI_API_KEY is set)
//
// It prints a table per window (tokens billed, peak context, compactions,
// summarizer calls and tokens, fact retention, budget and tool-pair
// violations, prefix-stable calls, cost with prompt caching; for ours, the
// recall coverage of the compacted originals, by ref and by search, and
// the tokens refs cost) and a one-line recall summary, the default
// strategy's retention per folder and per source framework (a file's name
// up to "__") with its targets, and writes a markdown report, three plots
// and a CSV of per-run figures:
//
//	go run ./cmd/compact-eval [-dir ../shared/eval/trajectories,../shared/eval/frameworks] [-windows 16000,32000,128000] [-strategies ...] [-out docs/eval]
//
// A progress bar is drawn on stderr; -quiet turns it off. Run it from the
// repository root; the default folders are the evaluation corpus next to it.
package main

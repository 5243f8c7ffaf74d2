package compact

import "github.com/agentcompact/compact/summary"

// The summarizer contract lives in package summary; these aliases keep the
// engine's names. Values of the two names are interchangeable, and the JSON
// form of a record is summary.Record's.
type (
	// SummaryRecord is one link of a session's summary chain; see
	// [summary.Record].
	SummaryRecord = summary.Record
	// SummaryContext is the structured context of a summary; see
	// [summary.Context].
	SummaryContext = summary.Context
	// ActionItem is one task of a [SummaryContext]; see [summary.ActionItem].
	ActionItem = summary.ActionItem
	// SummarizeRequest is what the engine asks a [Summarizer] to condense;
	// see [summary.Request].
	SummarizeRequest = summary.Request
	// Summarizer condenses dropped messages into a [SummaryRecord]; see
	// [summary.Summarizer].
	Summarizer = summary.Summarizer
	// SummarizerFunc adapts an ordinary function to the [Summarizer]
	// interface; see [summary.Func].
	SummarizerFunc = summary.Func
)

// Modes recorded in [SummaryRecord].Mode and [Event].Mode.
const (
	ModeMask     = "mask"               // stage 1 only: old tool outputs replaced by their key facts
	ModeRule     = summary.ModeRule     // stage 2 with the rule-based digest
	ModeLLM      = summary.ModeLLM      // stage 2 with an LLM summary
	ModeFallback = summary.ModeFallback // stage 2: the summarizer failed, rule-based digest used
	ModeTruncate = "truncate"           // stage 3 was needed: tail shrunk or a message cut
)

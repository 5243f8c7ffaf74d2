package summary

import "github.com/agentcompact/compact/summary/record"

// Record is one link of a session's summary chain: an alias of
// [record.Record], the leaf type stores persist (see package record for
// its fields and JSON form). A [Summarizer] sets Summary, KeyPoints,
// Context and Mode; the engine sets the other fields.
type Record = record.Record

// Context is the structured context of a summary (an alias of
// [record.Context]): participants, decisions, action items, unresolved
// questions and domain entities.
type Context = record.Context

// ActionItem is one task of a [Context] (an alias of [record.ActionItem]).
type ActionItem = record.ActionItem

// Modes of a [Record] (Record.Mode): how its text was made. They are
// [record.ModeRule], [record.ModeLLM] and [record.ModeFallback].
const (
	ModeRule     = record.ModeRule     // the rule-based digest of the extractors
	ModeLLM      = record.ModeLLM      // a summary written by a model
	ModeFallback = record.ModeFallback // the summarizer failed; the rule-based digest stands in
)

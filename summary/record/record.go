package record

import "time"

// Modes of a [Record] (Record.Mode): how its text was made. The engine's
// events use the same values, and two more of their own (compact.ModeMask
// and compact.ModeTruncate).
const (
	ModeRule     = "rule"     // the rule-based digest of the extractors
	ModeLLM      = "llm"      // a summary written by a model
	ModeFallback = "fallback" // the summarizer failed; the rule-based digest stands in
)

// Context is the structured context of a summary: participants, decisions,
// action items, unresolved questions and domain entities. It is the
// "context" object of the summarizer's JSON schema (see package prompts).
// Arrays may be empty, never invented.
type Context struct {
	Participants   []string     `json:"participants"`
	Decisions      []string     `json:"decisions"`
	ActionItems    []ActionItem `json:"actionItems"`
	Unresolved     []string     `json:"unresolved"`
	DomainEntities []string     `json:"domainEntities"`
}

// ActionItem is one task of a [Context]: owner, task, due date.
type ActionItem struct {
	Owner string `json:"owner"`
	Task  string `json:"task"`
	Due   string `json:"due"`
}

// Record is one link of a session's summary chain. Each record folds in
// its parent (ParentID; Depth = parent depth + 1, capped at the engine's
// maximum chain depth) and lists the stable ids of the original messages it
// covers, so that they stay recoverable.
//
// A summarizer sets Summary, KeyPoints, Context and Mode; the engine sets
// the other fields. The JSON form (field names below) is what stores
// persist; it does not change between versions.
type Record struct {
	// ID identifies the record within its session.
	ID string `json:"id"`
	// ParentID is the ID of the record this one folds in, or "".
	ParentID string `json:"parentId,omitempty"`
	// Depth is the record's place in the chain: 1 for a first summary.
	Depth int `json:"depth"`
	// Timestamp is when the engine made the record (UTC).
	Timestamp time.Time `json:"timestamp"`
	// Summary is the text shown to the model, within the request's
	// MaxTokens.
	Summary string `json:"summary"`
	// KeyPoints are the summary's key facts, most important first.
	KeyPoints []string `json:"keyPoints"`
	// Context is the structured context (participants, decisions, ...).
	Context Context `json:"context"`
	// OriginalMessageIDs are the stable ids of the messages summarized.
	OriginalMessageIDs []string `json:"originalMessageIds"`
	// TokenEstimate is the token count of the summary message, as the
	// engine counts it.
	TokenEstimate int `json:"tokenEstimate"`
	// Mode is [ModeLLM], [ModeRule] or [ModeFallback].
	Mode string `json:"mode"`
}

// Clone returns a deep copy of r: its slices (key points, original message
// ids, every array of the context) are new, so that changing the copy
// leaves r as it was. Empty slices come back nil.
func (r Record) Clone() Record {
	r.KeyPoints = append([]string(nil), r.KeyPoints...)
	r.OriginalMessageIDs = append([]string(nil), r.OriginalMessageIDs...)
	c := r.Context
	c.Participants = append([]string(nil), c.Participants...)
	c.Decisions = append([]string(nil), c.Decisions...)
	c.ActionItems = append([]ActionItem(nil), c.ActionItems...)
	c.Unresolved = append([]string(nil), c.Unresolved...)
	c.DomainEntities = append([]string(nil), c.DomainEntities...)
	r.Context = c
	return r
}

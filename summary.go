package compact

import (
	"time"

	"github.com/agentcompact/compact/prompts"
)

// SummaryContext is the structured context of a summary: participants,
// decisions, action items, unresolved questions and domain entities. It is
// the "context" object of the summarizer's JSON schema.
type SummaryContext = prompts.Context

// ActionItem is one task of a [SummaryContext].
type ActionItem = prompts.ActionItem

// Summary modes recorded in [SummaryRecord].Mode and [Event].Mode.
const (
	ModeMask     = "mask"     // stage 1 only: old tool outputs replaced by their key facts
	ModeRule     = "rule"     // stage 2 with the rule-based digest
	ModeLLM      = "llm"      // stage 2 with an LLM summary
	ModeFallback = "fallback" // stage 2: the LLM summarizer failed, rule-based digest used
	ModeTruncate = "truncate" // stage 3 was needed: tail shrunk or a message cut
)

// SummaryRecord is one link of a session's summary chain. Each record folds
// in its parent (ParentID, Depth = parent depth + 1, capped at the maximum
// chain depth) and lists the stable ids of the original messages it covers.
type SummaryRecord struct {
	ID                 string         `json:"id"`
	ParentID           string         `json:"parentId,omitempty"`
	Depth              int            `json:"depth"`
	Timestamp          time.Time      `json:"timestamp"`
	Summary            string         `json:"summary"`
	KeyPoints          []string       `json:"keyPoints"`
	Context            SummaryContext `json:"context"`
	OriginalMessageIDs []string       `json:"originalMessageIds"`
	TokenEstimate      int            `json:"tokenEstimate"`
	Mode               string         `json:"mode"`
}

package compact

import (
	"context"
	"time"

	"github.com/agentcompact/compact/summary"
)

// Reasons a compaction ran, recorded in [Event].Reason.
const (
	ReasonTrigger   = "trigger"   // the token ratio reached the trigger ratio and the policy let it compact (also past the emergency ratio)
	ReasonEmergency = "emergency" // only the emergency ratio (1.0) called for it: cooldown or minMessages would have held it back
	ReasonManual    = "manual"    // requested by the caller (CompactNow, memory.Compact)
	ReasonOverflow  = "overflow"  // the provider rejected the prompt as too long (middleware retry)
)

// Event describes one compaction. It is passed to the observer set with
// [WithObserver] and the handler set with [WithEventHandler], and returned
// in [Result].Event.
type Event struct {
	SessionID       string   `json:"sessionId,omitempty"`
	Reason          string   `json:"reason"`
	Mode            string   `json:"mode"`
	Depth           int      `json:"depth"`
	SummaryID       string   `json:"summaryId,omitempty"`
	TokensBefore    int      `json:"tokensBefore"`
	TokensAfter     int      `json:"tokensAfter"`
	Budget          int      `json:"budget"`
	RatioBefore     float64  `json:"ratioBefore"`
	RatioAfter      float64  `json:"ratioAfter"`
	MessagesBefore  int      `json:"messagesBefore"`
	MessagesAfter   int      `json:"messagesAfter"`
	Masked          int      `json:"masked"`
	Dropped         int      `json:"dropped"`
	Truncated       int      `json:"truncated"`
	Repairs         []string `json:"repairs,omitempty"`
	SummarizerCalls int      `json:"summarizerCalls"`
	// Start is when the Compact call began; Duration how long it took.
	Start    time.Time     `json:"start"`
	Duration time.Duration `json:"duration"`
	// Calls are the summarizer's reports of its model calls, in order
	// (model, attempt, tokens in and out, start, duration, error), for
	// tracing; see [summary.Call]. SummarizerCalls is their number, or 1 for
	// a summarizer that reports none. A failed call's error is serialized as
	// its ErrText, redacted. nil when nothing was summarized or the summarizer reports
	// no calls (the rule-based one, most custom ones).
	Calls []summary.Call `json:"calls,omitempty"`
	// Err is the summarizer error that caused a fallback (Mode == ModeFallback),
	// or nil. It is not serialized; ErrText carries its message, redacted
	// (a provider's error may quote the request).
	Err     error  `json:"-"`
	ErrText string `json:"error,omitempty"`
}

// Stats are cumulative figures of one [Session].
type Stats struct {
	// MessagesTotal is the length of the conversation last compacted.
	MessagesTotal int `json:"messagesTotal"`
	// MessagesSummarized counts the messages compactions summarized, in
	// all.
	MessagesSummarized int `json:"messagesSummarized"`
	// MessagesMasked counts the tool messages whose outputs compactions
	// masked, in all: a masked output summarized later stays counted (a
	// deep compaction masks, then summarizes the masked outputs).
	MessagesMasked int `json:"messagesMasked"`
	// Summaries is the number of summary records the session holds (at
	// most its chain retention); Compactions and Fallbacks count the
	// compactions and the summaries the rule-based digest wrote after a
	// summarizer failed; SummarizerCalls the summarizer's model calls.
	Summaries       int `json:"summaries"`
	Compactions     int `json:"compactions"`
	Fallbacks       int `json:"fallbacks"`
	SummarizerCalls int `json:"summarizerCalls"`
	// TokensOriginal, TokensActive, TokensSaved and CompressionRatio are
	// the figures of the last call (see [Stats.WithTokens]).
	TokensOriginal   int     `json:"tokensOriginal"`
	TokensActive     int     `json:"tokensActive"`
	TokensSaved      int     `json:"tokensSaved"`
	CompressionRatio float64 `json:"compressionRatio"`
}

// An EventHandler receives the engine's events with the context of the
// call that caused them. Implementations must be safe for concurrent use
// and must not block for long: they run inside the Compact call.
type EventHandler interface {
	HandleEvent(ctx context.Context, e Event)
}

// EventHandlerFunc adapts an ordinary function to [EventHandler].
type EventHandlerFunc func(ctx context.Context, e Event)

// HandleEvent calls f(ctx, e).
func (f EventHandlerFunc) HandleEvent(ctx context.Context, e Event) { f(ctx, e) }

package middleware

import (
	"time"

	"github.com/agentcompact/compact"
)

// CallInfo describes one GenerateContent (or GenerateContentStream) call of
// a [Model]; it is passed to the observer set with [WithObserver].
type CallInfo struct {
	// SessionID is the conversation id: the one given to [WithSession], or
	// an automatic id starting with [AutoSessionPrefix].
	SessionID string
	// Explicit reports whether SessionID came from [WithSession].
	Explicit bool
	// NewSession reports whether this call created the session (first call
	// of the conversation, or after eviction, expiry or a restart).
	NewSession bool
	// Branched reports that, with [WithStore], the call's messages did not
	// continue the stored conversation (a stale or retried request): it
	// was compacted on its own and the shared state was left as it was.
	Branched bool
	// TextAgent reports whether the prompt was recognized as a text agent's
	// scratchpad, and Steps how many steps it held.
	TextAgent bool
	Steps     int
	// Messages and InputTokens describe what the agent built; SentMessages
	// and SentTokens what was sent to the wrapped model (after the retry's
	// compaction if there was one). Tokens are the engine's count.
	Messages, InputTokens    int
	SentMessages, SentTokens int
	// Budget is the session's effective budget for this call (window minus
	// reserved output, divided by the calibration factor).
	Budget int
	// Compactions are the compactions run by this call, in order: none, one,
	// or two when the overflow retry compacted again.
	Compactions []compact.Event
	// Retried reports whether the call was retried after a context overflow.
	Retried bool
	// ProviderPromptTokens is the prompt size the provider reported (see
	// [PromptTokens]), 0 when it reported none.
	ProviderPromptTokens int
	// Calibration is the session's calibration factor after the call (1 when
	// uncalibrated).
	Calibration float64
	// Duration is the wall time of the call, the wrapped model included.
	Duration time.Duration
	// Err is the error the call returned, or nil.
	Err error
}

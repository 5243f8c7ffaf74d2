package middleware

import (
	"log/slog"
	"time"

	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
)

// Defaults of the options of [Wrap].
const (
	// DefaultMaxSessions is the default capacity of the session table: the
	// least recently used session is evicted when a new one would exceed it.
	DefaultMaxSessions = 10_000
	// DefaultSessionTTL is the default idle time after which a session is
	// forgotten. A forgotten session restarts empty: its next call is
	// compacted from scratch (deterministically, so the output only differs
	// where the old session had summarized).
	DefaultSessionTTL = time.Hour
	// MinCalibrationTokens is the smallest prompt, in tokens as the engine
	// counts them, whose provider-reported size is used for calibration:
	// on smaller prompts fixed per-request overheads dominate the ratio.
	MinCalibrationTokens = 256
)

type options struct {
	maxSessions      int
	ttl              time.Duration
	maxOriginalBytes int
	recall           []recall.Option
	observer         func(CallInfo)
	logger           *slog.Logger
	calibrate        bool
	textAgents       bool
	retry            bool
	isOverflow       func(error) bool
	now              func() time.Time
	store            store.Store
	lease            store.LeaseTiming
	backoff          conversation.Backoff
}

func defaultOptions() options {
	return options{
		maxSessions:      DefaultMaxSessions,
		maxOriginalBytes: DefaultMaxOriginalBytes,
		ttl:              DefaultSessionTTL,
		calibrate:        true,
		textAgents:       true,
		retry:            true,
		isOverflow:       IsOverflowError,
		now:              time.Now,
	}
}

// Option configures a [Model] built by [Wrap].
type Option func(*options)

// WithMaxSessions bounds the session table to n sessions; the least recently
// used one is evicted first. n <= 0 keeps the default, [DefaultMaxSessions].
func WithMaxSessions(n int) Option {
	return func(o *options) {
		if n > 0 {
			o.maxSessions = n
		}
	}
}

// WithSessionTTL forgets sessions idle for longer than d. d == 0 disables
// expiry (the table is then bounded by [WithMaxSessions] alone); d < 0 keeps
// the default, [DefaultSessionTTL].
func WithSessionTTL(d time.Duration) Option {
	return func(o *options) {
		if d >= 0 {
			o.ttl = d
		}
	}
}

// WithMaxOriginalBytes sets how many bytes of compacted originals the
// Model keeps per session, in memory, for its recall tool
// ([Model.RecallTool]); when a session's originals exceed it, the oldest
// are forgotten and recalling them answers that they are no longer held.
// The originals leave with their session (see [WithMaxSessions] and
// [WithSessionTTL]). n <= 0 keeps none. Default 8 MiB.
func WithMaxOriginalBytes(n int) Option {
	return func(o *options) { o.maxOriginalBytes = max(n, 0) }
}

// WithRecallOptions configures the tool [Model.RecallTool] returns (its
// page cap, search limit, logger; see package recall). Default: the recall
// defaults, counting with the compactor's counter.
func WithRecallOptions(opts ...recall.Option) Option {
	return func(o *options) { o.recall = append(o.recall, opts...) }
}

// WithObserver registers fn, called synchronously at the end of every
// GenerateContent call (also failed ones) with what the call did. fn may be
// called concurrently from several goroutines when the Model is; it must not
// block for long and must not retain the CallInfo's slices beyond the call
// unless it copies them. Default: none.
func WithObserver(fn func(CallInfo)) Option { return func(o *options) { o.observer = fn } }

// WithLogger logs every call at debug level, every compaction at info level
// and overflow retries and session resets at warn level. Default: none (no
// logging).
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithCalibration turns calibration on or off. When on, the prompt tokens
// the provider reports in the response's GenerationInfo (see
// [PromptTokens]) are compared with the engine's count of what was sent,
// tool definitions accounted for, and the session's budget shrinks when the
// provider counts more ([compact.Session.Calibrate]). Default true.
func WithCalibration(on bool) Option { return func(o *options) { o.calibrate = on } }

// WithTextAgents turns the recognition of text-agent scratchpads on or off
// (see the package documentation: MRKL and conversational agents). When
// off, such prompts are one user message that can only be cut as a last
// resort. Default true.
func WithTextAgents(on bool) Option { return func(o *options) { o.textAgents = on } }

// WithOverflowRetry turns the overflow retry on or off: when the wrapped
// model rejects a prompt as too long, compact at the emergency level
// ([compact.ReasonOverflow]) and retry once. Default true.
func WithOverflowRetry(on bool) Option { return func(o *options) { o.retry = on } }

// WithOverflowDetector replaces the function that recognizes a
// context-overflow error of the wrapped model. A nil fn keeps the default,
// [IsOverflowError].
func WithOverflowDetector(fn func(error) bool) Option {
	return func(o *options) {
		if fn != nil {
			o.isOverflow = fn
		}
	}
}

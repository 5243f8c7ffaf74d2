package middleware

import (
	"fmt"
	"log/slog"
	"time"

	compact "github.com/agentcompact/compact"
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
	// err is the first option given a value out of its range (badOption).
	err error
}

// badOption records, unless one is recorded already, that the option name
// was given a value out of its range: an error wrapping
// compact.ErrInvalidOption, in compact.New's words ("compact: invalid
// option: WithX: ..."), after the package's prefix.
func (o *options) badOption(name, format string, args ...any) {
	if o.err == nil {
		o.err = fmt.Errorf("middleware: %w: %s: %s", compact.ErrInvalidOption, name, fmt.Sprintf(format, args...))
	}
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

// Option configures a [Model] built by [Wrap]. An option given a value out
// of its range is an error wrapping compact.ErrInvalidOption that names it
// ("middleware: compact: invalid option: WithMaxSessions: ..."):
// [WrapChecked] returns it, and every call of a Model built by [Wrap] with
// it fails with it, nothing sent; the value never silently becomes a
// default.
type Option func(*options)

// WithMaxSessions bounds the session table to n sessions; the least recently
// used one is evicted first. Default [DefaultMaxSessions]; n < 1 is an
// invalid option.
func WithMaxSessions(n int) Option {
	return func(o *options) {
		if n < 1 {
			o.badOption("WithMaxSessions", "%d must be >= 1", n)
			return
		}
		o.maxSessions = n
	}
}

// WithSessionTTL forgets sessions idle for longer than d. d == 0 disables
// expiry (the table is then bounded by [WithMaxSessions] alone). Default
// [DefaultSessionTTL]; d < 0 is an invalid option.
func WithSessionTTL(d time.Duration) Option {
	return func(o *options) {
		if d < 0 {
			o.badOption("WithSessionTTL", "%v must be >= 0 (0: no expiry)", d)
			return
		}
		o.ttl = d
	}
}

// WithMaxOriginalBytes sets how many bytes of compacted originals the
// Model keeps per session, in memory, for its recall tool
// ([Model.RecallTool]); when a session's originals exceed it, the oldest
// are forgotten and recalling them answers that they are no longer held.
// The originals leave with their session (see [WithMaxSessions] and
// [WithSessionTTL]). n == 0 keeps none (the recall tool then finds
// nothing); n < 0 is an invalid option. Default 8 MiB.
func WithMaxOriginalBytes(n int) Option {
	return func(o *options) {
		if n < 0 {
			o.badOption("WithMaxOriginalBytes", "%d must be >= 0 (0: keep none)", n)
			return
		}
		o.maxOriginalBytes = n
	}
}

// WithRecallOptions configures the tool [Model.RecallTool] returns (its
// page cap, search limit, logger; see package recall). Default: the recall
// defaults, counting with the compactor's counter.
func WithRecallOptions(opts ...recall.Option) Option {
	return func(o *options) { o.recall = append(o.recall, opts...) }
}

// WithObserver registers fn, called synchronously at the end of every
// GenerateContent call (also failed ones) with what the call did: the
// wrapped model's own events, whose [CallInfo].Compactions carry the
// engine's events of the call (which compact.WithObserver and
// compact.WithEventHandler observe on the compactor; the recall tool's
// calls have recall.WithObserver, through [WithRecallOptions]). fn may be
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

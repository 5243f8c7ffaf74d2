package compact

import (
	"time"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/summary"
	"github.com/tmc/langchaingo/llms"
)

// Defaults of the engine, from the specification. The trigger and reset
// ratios and the summary cap the engine uses without options are derived
// from the budget instead (see [WithTrigger] and [WithMaxSummaryTokens]);
// SpecTriggerRatio, SpecResetRatio and DefaultMaxSummaryTokens are the
// specification's figures, which [WithTrigger] and [WithMaxSummaryTokens]
// take to keep its policy.
const (
	DefaultModel = "gpt-4o"
	// SpecTriggerRatio and SpecResetRatio are the specification's trigger
	// and reset ratios (0.80, 0.70): WithTrigger(SpecTriggerRatio,
	// SpecResetRatio) keeps its policy at every budget. They are not what
	// the engine uses without WithTrigger (see WithTrigger).
	SpecTriggerRatio = 0.80
	SpecResetRatio   = 0.70
	// DefaultTriggerRatio is SpecTriggerRatio.
	//
	// Deprecated: it is not the engine's default trigger ratio (see
	// WithTrigger); use SpecTriggerRatio.
	DefaultTriggerRatio = SpecTriggerRatio
	// DefaultResetRatio is SpecResetRatio.
	//
	// Deprecated: it is not the engine's default reset ratio (see
	// WithTrigger); use SpecResetRatio.
	DefaultResetRatio     = SpecResetRatio
	DefaultEmergencyRatio = 1.0
	DefaultMinMessages    = 12
	DefaultPreserveRecent = 6
	DefaultPreserveFloor  = 2
	DefaultCooldown       = 4
	DefaultMaxChainDepth  = 3
	// DefaultMaxSummaryTokens is the specification's summary cap (500).
	//
	// Deprecated: it is not the engine's default, which is 2,500 tokens
	// (see WithMaxSummaryTokens). Pass
	// WithMaxSummaryTokens(summary.DefaultMaxTokens) for the specification's
	// cap.
	DefaultMaxSummaryTokens = summary.DefaultMaxTokens      // 500
	DefaultSummaryInputCap  = summary.DefaultMaxInputTokens // 8,000
	DefaultReservedOutput   = 4_096
	// DefaultChainRetention is how many summary records a Session keeps.
	DefaultChainRetention = 8
	// DefaultSummarizerTimeout bounds one summary by the summarizer
	// (WithSummarizerTimeout).
	DefaultSummarizerTimeout = 30 * time.Second
	// DefaultMinGain is the share of the budget a compaction frees at
	// least when it can (WithMinGain).
	DefaultMinGain = 0.5
)

// The cost-aware policy, chosen by measurement with prompt caching
// (docs/eval/report.md, "Cost and the default policy"). With prompt
// caching a compaction costs one full-price pass over the new context, so
// compacting often and shallowly saves little: without WithTrigger the
// engine compacts deep, down to a fifth of the budget or less, and its
// summaries (without WithMaxSummaryTokens) hold up to 2,500 tokens, at most
// 10% of the budget: they carry the names the agent wrote and goes on to
// use (used-later retention, docs/eval/report.md). A large budget is
// compacted early (at half of it): every call re-reads the context from the
// cache, so a smaller context pays for the compaction's cache miss within a
// few calls. A budget of at least largeBudget tokens compacts from
// largeTriggerRatio down to largeResetRatio; a smaller one, where the calls
// between compactions are few anyway, later: from smallTriggerRatio down to
// smallResetRatio. [WithTrigger] and [WithMaxSummaryTokens] state the
// values.
const (
	largeBudget           = 24_000
	largeTriggerRatio     = 0.50
	largeResetRatio       = 0.15
	largeMaxSummaryTokens = 2_500
	smallTriggerRatio     = 0.90
	smallResetRatio       = 0.20
	smallMaxSummaryTokens = 2_500
)

type options struct {
	model             string
	window            int
	reservedOutput    int
	reservedSet       bool
	trigger, reset    float64
	triggerSet        bool // WithTrigger given: no derived ratios
	summarySet        bool // WithMaxSummaryTokens given
	emergency         float64
	minMessages       int
	preserveRecent    int
	preserveFloor     int
	cooldown          int
	maxDepth          int
	maxSummaryTokens  int
	summaryInputCap   int
	summarizerTimeout time.Duration
	minGain           float64
	minGainSet        bool // WithMinGain given
	summaryModels     []llms.Model
	summarizer        Summarizer
	abortOnFailure    bool
	maskOnly          bool
	registry          *extractors.Registry
	counter           budget.Counter
	observer          func(Event)
	handler           EventHandler
	chainRetention    int
	priorities        Priorities
}

// Option configures a [Compactor]. Options are applied in order; an invalid
// value is reported by [New] as an error naming the option.
type Option func(*options)

// WithModel sets the model whose tokenizer counts tokens and whose context
// window is the default budget. Default "gpt-4o" (o200k_base, 128,000 tokens).
// Models without a public tokenizer are counted with budget's documented
// conservative estimate.
func WithModel(model string) Option { return func(o *options) { o.model = model } }

// WithContextWindow overrides the model's context window, in tokens. It must
// be positive and larger than the reserved output. Default: budget.ContextWindow(model);
// New fails for a model whose window is unknown unless this option is given.
func WithContextWindow(tokens int) Option { return func(o *options) { o.window = tokens } }

// WithReservedOutput reserves tokens of the window for the model's reply; the
// available budget is window - reserved. Default 4,096, or a quarter of the
// window for windows smaller than 16,384 tokens. Must be >= 0 and < window.
func WithReservedOutput(tokens int) Option {
	return func(o *options) { o.reservedOutput, o.reservedSet = tokens, true }
}

// WithTrigger sets the trigger ratio (compact at or above it) and the reset
// ratio (aim for at most it after compacting). 0 < reset < trigger <= 1.
// Default: derived from the budget (window minus reserved output): 0.50
// down to 0.15 for budgets of at least 24,000 tokens, 0.90 down to 0.20
// below, with a minimum gain of half the budget ([WithMinGain]); when the
// emergency ratio ([WithEmergencyRatio]) is below the derived trigger, the
// specification's ratios. [Compactor.Trigger] returns the ratios in force.
// WithTrigger(SpecTriggerRatio, SpecResetRatio), the specification's 0.80,
// 0.70, keeps its policy at every size.
func WithTrigger(trigger, reset float64) Option {
	return func(o *options) { o.trigger, o.reset, o.triggerSet = trigger, reset, true }
}

// WithEmergencyRatio sets the ratio at or above which compaction runs despite
// cooldown and minMessages. It must be >= trigger and <= 1. Default 1.0.
func WithEmergencyRatio(r float64) Option { return func(o *options) { o.emergency = r } }

// WithMinMessages sets how many messages a conversation must hold before it
// is compacted below the emergency ratio. Must be >= 0. Default 12.
func WithMinMessages(n int) Option { return func(o *options) { o.minMessages = n } }

// WithPreserveRecent sets how many of the most recent messages are kept
// verbatim (widened so that no tool round is split). Stage 3 may shrink it
// down to 2 when the tail alone does not fit. Must be >= 0. Default 6.
func WithPreserveRecent(n int) Option { return func(o *options) { o.preserveRecent = n } }

// WithCooldown sets how many messages must be appended after a compaction
// before the next one below the emergency ratio. Must be >= 0. Default 4.
func WithCooldown(messages int) Option { return func(o *options) { o.cooldown = messages } }

// WithMaxChainDepth caps the Depth recorded on a summary record
// (SummaryRecord.Depth = min(parent's + 1, depth)). It does not bound the
// chain: every compaction adds a record that folds in its parent, however
// many there are. Must be >= 1. Default 3.
//
// Deprecated: the depth is a label only. To bound what a Session keeps of
// the chain use [WithChainRetention]; the stores keep the whole chain.
func WithMaxChainDepth(depth int) Option { return func(o *options) { o.maxDepth = depth } }

// WithMaxSummaryTokens caps a summary; the effective cap is
// min(n, 10% of the available budget). Must be >= 1. Default 2,500 at
// every budget, with the derived policy of [WithTrigger] and also with
// WithTrigger given: deep compactions summarize more.
// DefaultMaxSummaryTokens (500) is the specification's.
func WithMaxSummaryTokens(n int) Option {
	return func(o *options) { o.maxSummaryTokens, o.summarySet = n, true }
}

// WithMinGain sets the share of the budget a compaction frees at least,
// when it can: with prompt caching a compaction costs a cache miss, and
// one that frees little is followed by another a call or two later (like
// Anthropic's clear_at_least). When what lies outside the preserved tail
// (WithPreserveRecent) is not enough, the tail's oldest rounds are
// summarized too, down to the floor of 2 messages, as when the budget
// requires it; their originals stay recallable. 0 keeps the whole tail
// unless the budget requires otherwise. Must be in [0, 1). Default 0.5
// (DefaultMinGain) with the derived policy; 0 with WithTrigger, which keeps
// the specification's policy.
func WithMinGain(share float64) Option {
	return func(o *options) { o.minGain, o.minGainSet = share, true }
}

// WithSummaryInputCap caps the transcript sent to an LLM summarizer, oldest
// messages trimmed first. Must be >= 1. Default 8,000 tokens.
func WithSummaryInputCap(tokens int) Option { return func(o *options) { o.summaryInputCap = tokens } }

// WithSummarizer makes stage 2 summarize with the given models, in
// preference order (the next is tried when one fails), through the LLM
// summarizer of package llmsummary with its default options: one retry of
// transport errors, the default prompt, no logging. The models are called
// directly, never through the middleware. For other options (retry policy,
// prompt, logger, the summarizer model's window), build the summarizer
// with llmsummary.New and give it to [WithCustomSummarizer]. Default: none,
// the rule-based digest.
func WithSummarizer(models ...llms.Model) Option {
	return func(o *options) { o.summaryModels = append([]llms.Model(nil), models...) }
}

// WithCustomSummarizer sets any [Summarizer]: llmsummary.New(models,
// opts...) for an LLM summarizer with custom options, or one of your own.
// It takes precedence over [WithSummarizer]. On any error of the
// summarizer, stage 2 falls back to the rule-based digest (see
// [WithAbortOnFailure]). Default: none.
func WithCustomSummarizer(s Summarizer) Option { return func(o *options) { o.summarizer = s } }

// WithSummarizerTimeout bounds how long a compaction waits for the
// summarizer (an LLM's retries included): the summarizer's context ends
// then, and the compaction goes on with the rule-based digest (Mode
// fallback) even when the summarizer ignores its context and never
// returns (it is left to finish on its own; its result is dropped). The
// caller's deadline, when sooner, bounds it too: the call never waits
// past it. Must be > 0. Default 30 s (DefaultSummarizerTimeout).
func WithSummarizerTimeout(d time.Duration) Option {
	return func(o *options) { o.summarizerTimeout = d }
}

// WithAbortOnFailure makes Compact return the summarizer's error instead of
// falling back to the rule-based digest. Default false.
func WithAbortOnFailure(abort bool) Option { return func(o *options) { o.abortOnFailure = abort } }

// WithExtractors sets the per-tool extractors used for masking and for the
// rule-based digest. Default extractors.Default().
func WithExtractors(reg *extractors.Registry) Option { return func(o *options) { o.registry = reg } }

// WithCounter replaces the tokenizer chosen by the model. Default: budget.NewCounter(model).
func WithCounter(c budget.Counter) Option { return func(o *options) { o.counter = c } }

// WithObserver registers fn, called synchronously with every compaction
// [Event]: the observer in its function form. [WithEventHandler] is the
// same observer in the form of an interface ([EventHandler], or a function
// through [EventHandlerFunc]) that also gets the context of the Compact
// call that caused the event (its span, deadline and values). Given both,
// both are called, fn first. fn must not block for long: it runs inside
// the Compact call. Default: none.
//
// Packages recall and middleware have a WithObserver of their own, for
// their own events: recall.WithObserver for each recall tool call,
// middleware.WithObserver for each GenerateContent call of a wrapped model.
func WithObserver(fn func(Event)) Option { return func(o *options) { o.observer = fn } }

// WithEventHandler registers h, called synchronously with every compaction
// [Event] and the context of the Compact call that caused it (the caller's
// span, deadline and values), for tracing, metrics and logs (as
// otelcompact's Telemetry.EventHandler does): the observer of
// [WithObserver] in the form of an interface, in the manner of
// log/slog's Handler. Given both, both are called. h must not block for
// long. Default: none.
func WithEventHandler(h EventHandler) Option { return func(o *options) { o.handler = h } }

// WithChainRetention sets how many records of the summary chain a
// [Session] keeps, newest last (the newest is the summary in force). Older
// records leave the session, so its state stays small however long the
// conversation; keep the whole chain from [Result].Summary (the memory
// adapter and its stores do). Must be >= 1. Default 8.
func WithChainRetention(n int) Option { return func(o *options) { o.chainRetention = n } }

// WithPriorities replaces the priority table of stage 2. Default [DefaultPriorities].
func WithPriorities(p Priorities) Option { return func(o *options) { o.priorities = p } }

// WithMaskOnly limits compaction to stage 1 (masking old tool outputs) as
// long as the context fits the budget: nothing is dropped or summarized
// unless masking alone cannot keep the budget (I1 always holds). Default false.
func WithMaskOnly(on bool) Option { return func(o *options) { o.maskOnly = on } }

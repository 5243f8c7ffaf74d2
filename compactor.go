package compact

import (
	"fmt"
	"math"
	"sync"

	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/llmsummary"
)

// Compactor runs the compaction pipeline of one configuration. It is
// immutable after [New] and safe for concurrent use by many goroutines and
// sessions; the per-conversation state lives in a [Session].
type Compactor struct {
	o          options
	window     int
	budget     int
	counter    *budget.TokenCounter
	registry   *extractors.Registry
	summarizer Summarizer // LLM or custom; nil = rule-based only
	rule       Summarizer
	// summaryMsg caches the tokens of a summary message without its text
	// (pendingfit.go).
	summaryMsg struct {
		once   sync.Once
		tokens int
	}
}

// New returns a Compactor configured by opts. Every option is validated: an
// invalid value or combination (reset >= trigger, reserved output >= window,
// an unknown model without WithContextWindow, ...) is an error wrapping
// [ErrInvalidOption] and naming the option.
func New(opts ...Option) (*Compactor, error) {
	o := defaultOptions()
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	window, err := o.resolve()
	if err != nil {
		return nil, err
	}
	c := &Compactor{o: o, window: window, budget: window - o.reservedOutput}
	if o.counter != nil {
		c.counter = budget.NewMessageCounter(o.counter)
	} else {
		tc, err := budget.NewCounter(o.model)
		if err != nil {
			return nil, fmt.Errorf("compact: tokenizer for model %s: %w", idtext.Quote(o.model), err)
		}
		c.counter = tc
	}
	c.registry = o.registry
	if c.registry == nil {
		c.registry = extractors.Default()
	}
	if o.priorities == nil {
		c.o.priorities = DefaultPriorities()
	}
	c.rule = ruleSummarizer(c.registry, c.IndexCap())
	switch {
	case o.summarizer != nil:
		c.summarizer = o.summarizer
	case len(o.summaryModels) > 0:
		c.summarizer = llmsummary.New(o.summaryModels)
	}
	return c, nil
}

func defaultOptions() options {
	return options{
		model:             DefaultModel,
		trigger:           SpecTriggerRatio,
		reset:             SpecResetRatio,
		emergency:         DefaultEmergencyRatio,
		minMessages:       DefaultMinMessages,
		preserveRecent:    DefaultPreserveRecent,
		preserveFloor:     DefaultPreserveFloor,
		cooldown:          DefaultCooldown,
		maxDepth:          DefaultMaxChainDepth,
		maxSummaryTokens:  DefaultMaxSummaryTokens,
		summaryInputCap:   DefaultSummaryInputCap,
		summarizerTimeout: DefaultSummarizerTimeout,
		chainRetention:    DefaultChainRetention,
	}
}

// resolve validates the options, fills the derived defaults (the window of
// the model, the reserved output, the preserve floor) and returns the
// context window.
func (o *options) resolve() (int, error) {
	if o.model == "" {
		return 0, badOption("WithModel", "empty model name")
	}
	window := o.window
	if window == 0 {
		w, ok := budget.LookupContextWindow(o.model)
		if !ok {
			return 0, badOption("WithModel", "unknown context window for model %s: set WithContextWindow", idtext.Quote(o.model))
		}
		window = w
	}
	if window <= 0 {
		return 0, badOption("WithContextWindow", "window %d must be positive", window)
	}
	if !o.reservedSet {
		o.reservedOutput = DefaultReservedOutput
		if window < 4*DefaultReservedOutput {
			o.reservedOutput = window / 4
		}
	}
	o.derivePolicy(window - o.reservedOutput)
	if err := o.check(window); err != nil {
		return 0, err
	}
	if o.preserveFloor > o.preserveRecent {
		o.preserveFloor = o.preserveRecent
	}
	return window, nil
}

// derivePolicy sets the cost-aware policy (see largeBudget) where the
// caller left the trigger and the summary cap to their defaults and, for
// the trigger, the emergency ratio leaves room for it.
func (o *options) derivePolicy(budget int) {
	trigger, reset, summary := smallTriggerRatio, smallResetRatio, smallMaxSummaryTokens
	if budget >= largeBudget {
		trigger, reset, summary = largeTriggerRatio, largeResetRatio, largeMaxSummaryTokens
	}
	if !o.summarySet {
		o.maxSummaryTokens = summary
	}
	if !o.triggerSet && o.emergency >= trigger {
		o.trigger, o.reset = trigger, reset
		if !o.minGainSet {
			o.minGain = DefaultMinGain
		}
	}
}

// check returns the first option out of its range, named.
func (o *options) check(window int) error {
	switch {
	case o.reservedOutput < 0:
		return badOption("WithReservedOutput", "%d must be >= 0", o.reservedOutput)
	case o.reservedOutput >= window:
		return badOption("WithReservedOutput", "%d must be smaller than the context window %d", o.reservedOutput, window)
	case !finite(o.trigger) || !finite(o.reset) || o.reset <= 0 || o.trigger > 1 || o.reset >= o.trigger:
		return badOption("WithTrigger", "need 0 < reset < trigger <= 1, got trigger %v reset %v", o.trigger, o.reset)
	case !finite(o.emergency) || o.emergency < o.trigger || o.emergency > 1:
		return badOption("WithEmergencyRatio", "need trigger <= emergency <= 1, got %v", o.emergency)
	case o.minMessages < 0:
		return badOption("WithMinMessages", "%d must be >= 0", o.minMessages)
	case o.preserveRecent < 0:
		return badOption("WithPreserveRecent", "%d must be >= 0", o.preserveRecent)
	case o.cooldown < 0:
		return badOption("WithCooldown", "%d must be >= 0", o.cooldown)
	case o.maxDepth < 1:
		return badOption("WithMaxChainDepth", "%d must be >= 1", o.maxDepth)
	case o.maxSummaryTokens < 1:
		return badOption("WithMaxSummaryTokens", "%d must be >= 1", o.maxSummaryTokens)
	case o.chainRetention < 1:
		return badOption("WithChainRetention", "%d must be >= 1", o.chainRetention)
	case o.summarizerTimeout <= 0:
		return badOption("WithSummarizerTimeout", "%v must be > 0", o.summarizerTimeout)
	case o.summaryInputCap < 1:
		return badOption("WithSummaryInputCap", "%d must be >= 1", o.summaryInputCap)
	case !finite(o.minGain) || o.minGain < 0 || o.minGain >= 1:
		return badOption("WithMinGain", "need 0 <= share < 1, got %v", o.minGain)
	}
	for i, m := range o.summaryModels {
		if m == nil {
			return badOption("WithSummarizer", "model %d is nil", i)
		}
	}
	return nil
}

// badOption returns an error wrapping ErrInvalidOption that names the option.
func badOption(name, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrInvalidOption, name, fmt.Sprintf(format, args...))
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// Window returns the context window in tokens.
func (c *Compactor) Window() int { return c.window }

// Budget returns the available budget: window - reserved output, in tokens.
func (c *Compactor) Budget() int { return c.budget }

// Trigger returns the trigger and reset ratios in force: those of
// WithTrigger, or the defaults derived from the budget.
func (c *Compactor) Trigger() (trigger, reset float64) { return c.o.trigger, c.o.reset }

// MaxSummaryTokens returns the summary cap option in force (before the 10%
// of the budget bound; see SummaryCap).
func (c *Compactor) MaxSummaryTokens() int { return c.o.maxSummaryTokens }

// Counter returns the token counter (shared, safe for concurrent use).
func (c *Compactor) Counter() *budget.TokenCounter { return c.counter }

// Extractors returns the extractor registry in use.
func (c *Compactor) Extractors() *extractors.Registry { return c.registry }

// SummaryCap returns the cap of one summary in tokens:
// min(maxSummaryTokens, 10% of the available budget), at least 1. The
// engine's rule-based summaries may add IndexCap for their file index.
func (c *Compactor) SummaryCap() int {
	return max(1, min(c.o.maxSummaryTokens, c.budget/10))
}

// CountTokens returns the tokens of msgs as the engine counts them for the
// budget (per-message overhead included).
func (c *Compactor) CountTokens(msgs []llms.MessageContent) int { return c.counter.CountMessages(msgs) }

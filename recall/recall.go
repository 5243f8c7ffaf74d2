package recall

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/tools"
)

// Name is the tool's name, fixed by the design: every agent and every
// extractor knows the recall tool by it. It equals
// extractors.RecallToolName.
const Name = extractors.RecallToolName

// Defaults and bounds of the options.
const (
	// DefaultMaxTokens is the default cap of one answer, in tokens of the
	// tool's counter ([WithMaxTokens]).
	DefaultMaxTokens = 2000
	// MinMaxTokens is the smallest cap [WithMaxTokens] accepts: room for a
	// header, a next-page line and some text.
	MinMaxTokens = 256
	// DefaultSearchLimit is the default number of originals one literal
	// search reads from the source ([WithSearchLimit]).
	DefaultSearchLimit = 50
	// MaxQueryBytes is the length a search query is cut to (at a rune
	// boundary); the answer says so.
	MaxQueryBytes = 200
	// MaxQueryWords is how many distinct words of a query are searched;
	// the answer says when there were more.
	MaxQueryWords = 8
)

// description is what Description returns: how a model uses the tool.
const description = `Brings back text that compaction removed from the conversation: give the ref a compaction marker shows, such as "ref:k3f2a9qx", optionally with a line range, such as "ref:k3f2a9qx lines 40-80", to get that original back with line numbers. ` +
	`Give words instead, such as a file path, a function name or an error message, to search the compacted originals of this conversation for them.`

// Tool is the recall tool: a langchaingo tools.Tool that gives an agent
// back what compaction took out of its context, by ref or by search,
// within its own session only. Build it with [New]; it is immutable and
// safe for concurrent use.
type Tool struct {
	resolve     Resolver
	maxTokens   int
	count       func(string) int
	searchLimit int
	logger      *slog.Logger
	observer    Observer
}

var _ tools.Tool = (*Tool)(nil)

// Option configures a [Tool] at construction.
type Option func(*Tool)

// WithMaxTokens sets the cap of one answer, in tokens of the tool's
// counter: a page of an original, a search's hits, header and next-page
// line included, stay within it. Default [DefaultMaxTokens]; values below
// [MinMaxTokens] are raised to it; n <= 0 leaves the default.
func WithMaxTokens(n int) Option {
	return func(t *Tool) {
		if n > 0 {
			t.maxTokens = max(n, MinMaxTokens)
		}
	}
}

// WithCounter sets the token counter of the cap (pass the engine's, so that
// an answer fits the budget the engine counts). Default
// budget.EstimateTokens, which never undercounts much; a nil c leaves the
// default.
func WithCounter(c budget.Counter) Option {
	return func(t *Tool) {
		if c != nil {
			t.count = c.Count
		}
	}
}

// WithSearchLimit sets how many originals one literal search (the phrase,
// or one word) reads from the source, bounding a search's work. Default
// [DefaultSearchLimit]; n <= 0 leaves the default.
func WithSearchLimit(n int) Option {
	return func(t *Tool) {
		if n > 0 {
			t.searchLimit = n
		}
	}
}

// WithLogger sets where the tool logs the errors of its resolver and
// source (at level Warn, with the operation and the error only: never a
// query nor recalled text). Default: no logging; a nil l leaves it off.
func WithLogger(l *slog.Logger) Option {
	return func(t *Tool) { t.logger = l }
}

// New returns the recall tool reading, for each call, the Source resolve
// returns for the call's context (see [Resolver] for the scoping contract).
// A nil resolve answers every call as a call without a session.
func New(resolve Resolver, opts ...Option) *Tool {
	t := &Tool{
		resolve:     resolve,
		maxTokens:   DefaultMaxTokens,
		count:       budget.EstimateTokens,
		searchLimit: DefaultSearchLimit,
	}
	for _, o := range opts {
		if o != nil {
			o(t)
		}
	}
	return t
}

// Name returns "recall" ([Name]).
func (t *Tool) Name() string { return Name }

// Description tells a model, in two sentences, how to use the tool.
func (t *Tool) Description() string { return description }

// Call answers one input (see the package documentation for the input forms
// and the exact answers): the original of a ref, paged within the cap, or
// the best matches of a search of the session's compacted originals.
//
// Every situation an agent can recover from is an answer, not an error:
// an empty or malformed input, an unknown ref, lines out of range, an
// original no longer held, no match, nothing compacted yet, no session,
// and a failure of the resolver or the source (logged with [WithLogger]).
// langchaingo's executor ends the run on a tool error, and an agent does
// better with a one-line answer it can act on. Call returns an error only
// when ctx is done (the error wraps ctx.Err()), when the run is ending
// anyway.
//
// The answer goes to the agent only: the tool never logs recalled text or
// queries. Every answer is valid UTF-8 within the cap.
func (t *Tool) Call(ctx context.Context, input string) (string, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		err = fmt.Errorf("recall: call cancelled: %w", err)
		t.observe(ctx, start, request{}, "", OutcomeCancelled, err)
		return "", err
	}
	req := parse(input)
	if req.note != "" {
		answer := t.fit(req.note)
		t.observe(ctx, start, req, answer, "", nil)
		return answer, nil
	}
	answer, outcome, err := t.answer(ctx, req)
	t.observe(ctx, start, req, answer, outcome, err)
	if outcome == OutcomeCancelled {
		return "", err
	}
	return answer, nil
}

// answer answers a well-formed request: the answer, and the outcome when
// the source could not be read (with its error), else "".
func (t *Tool) answer(ctx context.Context, req request) (string, string, error) {
	src, err := t.source(ctx)
	if err != nil {
		return t.failure(ctx, "resolve the session's originals", err)
	}
	var answer string
	if req.ref != "" {
		answer, err = t.page(ctx, src, req)
	} else {
		answer, err = t.search(ctx, src, req)
	}
	if err != nil {
		return t.failure(ctx, req.op(), err)
	}
	return t.fit(answer), "", nil
}

// source resolves the call's Source.
func (t *Tool) source(ctx context.Context) (Source, error) {
	if t.resolve == nil {
		return nil, ErrNoSession
	}
	src, err := t.resolve(ctx)
	if err == nil && src == nil {
		err = ErrNoSession
	}
	return src, err
}

// failure turns an error of the resolver or the source into the call's
// answer and its outcome: OutcomeCancelled with the error when ctx is done,
// else the one-line answer for it.
func (t *Tool) failure(ctx context.Context, op string, err error) (string, string, error) {
	if cerr := ctx.Err(); cerr != nil {
		return "", OutcomeCancelled, fmt.Errorf("recall: %s: %w", op, errors.Join(cerr, err))
	}
	switch {
	case errors.Is(err, ErrNoSession):
		return answerNoSession, OutcomeNoSession, nil
	case errors.Is(err, ErrNothingCompacted):
		return answerNothingCompacted, OutcomeNothingCompacted, nil
	}
	if t.logger != nil {
		t.logger.LogAttrs(ctx, slog.LevelWarn, "recall: could not read the session's originals",
			slog.String("op", op), slog.String("error", err.Error()))
	}
	return answerSourceFailed, OutcomeSourceFailed, err
}

// notFound reports whether err says the source does not hold a ref.
func notFound(err error) bool {
	return errors.Is(err, store.ErrNotFound) || errors.Is(err, ErrNoLongerHeld)
}

// fit makes sure an answer is within the cap; answers are built to fit, so
// this only guards against a counter that counts a whole above its parts.
func (t *Tool) fit(s string) string {
	if t.tokens(s) <= t.maxTokens {
		return s
	}
	return t.cutToTokens(s, t.maxTokens, "\n[… recall: answer cut to its token cap …]")
}

// tokens counts s with the tool's counter (never below 0).
func (t *Tool) tokens(s string) int {
	return max(t.count(s), 0)
}

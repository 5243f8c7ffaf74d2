package compact

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/prompts"
	"github.com/tmc/langchaingo/llms"
)

// ErrNoSummarizerModel is returned by an LLM summarizer built without any
// usable (non-nil) model.
var ErrNoSummarizerModel = errors.New("compact: LLM summarizer has no model")

// errEmptyReply is a model reply without any choice.
var errEmptyReply = errors.New("model returned no choice")

// LLMSummarizerOption configures the LLM summarizer built by
// [NewLLMSummarizer] (or by [WithSummarizer], through
// [WithLLMSummarizerOptions]).
type LLMSummarizerOption func(*llmSummarizerConfig)

type llmSummarizerConfig struct {
	retry  RetryPolicy
	sleep  func(ctx context.Context, d time.Duration) error
	prompt prompts.Template
	log    *slog.Logger
	window int
}

// WithRetryPolicy replaces the retry policy of model calls. Default
// [DefaultRetryPolicy]: one retry of transport errors after 250 ms x
// 2^attempt (or the server's Retry-After, up to 10 s), 60 s per attempt,
// validation errors never retried. A negative MaxRetries counts as 0.
func WithRetryPolicy(p RetryPolicy) LLMSummarizerOption {
	return func(c *llmSummarizerConfig) {
		p.MaxRetries = max(p.MaxRetries, 0)
		c.retry = p
	}
}

// WithSummarizerSleep replaces how the summarizer waits between attempts:
// sleep must wait d, or return ctx.Err() as soon as ctx is done. Tests use
// it to observe backoffs without waiting. Default: a timer that honors ctx.
// A nil sleep restores the default.
func WithSummarizerSleep(sleep func(ctx context.Context, d time.Duration) error) LLMSummarizerOption {
	return func(c *llmSummarizerConfig) { c.sleep = sleep }
}

// WithSummaryPrompt replaces the summarizer prompt, for example with
// prompts.New(system, user). Default prompts.Default(). Whatever the
// prompt, the reply must follow the schema that [prompts.ParseSummary]
// validates.
func WithSummaryPrompt(t prompts.Template) LLMSummarizerOption {
	return func(c *llmSummarizerConfig) { c.prompt = t }
}

// WithSummarizerLogger sets where the summarizer logs rejected replies
// (warning, with the sanitized first 200 characters of the reply) and failed
// attempts (info). Default: no logging. A nil logger restores the default.
func WithSummarizerLogger(l *slog.Logger) LLMSummarizerOption {
	return func(c *llmSummarizerConfig) { c.log = l }
}

// WithSummarizerWindow sets the context window, in tokens, of the smallest
// summarizer model. The transcript sent is then at most
// min(request MaxInputTokens, window - reply cap - prompt tokens). Default 0:
// unknown, only MaxInputTokens caps the transcript.
func WithSummarizerWindow(tokens int) LLMSummarizerOption {
	return func(c *llmSummarizerConfig) { c.window = max(tokens, 0) }
}

// LLMSummarizer is the [Summarizer] that asks language models for a
// structured summary; [NewLLMSummarizer] builds it. It is safe for
// concurrent use.
type LLMSummarizer struct {
	models []llms.Model
	cfg    llmSummarizerConfig
	reg    *extractors.Registry // used when a request has no Extractors

	mu    sync.Mutex
	stats SummarizerStats
}

var _ Summarizer = (*LLMSummarizer)(nil)

// NewLLMSummarizer returns the LLM [Summarizer] over models, in preference
// order: put a lighter, cheaper model first; the next model is tried when
// one fails (transport errors after its retries, an invalid reply). nil
// models are skipped; with none left, Summarize returns
// [ErrNoSummarizerModel]. The models slice is copied.
//
// Each Summarize call:
//
//   - renders the messages as a delimited transcript ([prompts.RenderMessage]):
//     tool outputs are condensed with the request's extractors (tools the
//     registry keeps verbatim excepted), secrets are redacted
//     ([extractors.Redact]) before anything is sent, one huge message is cut
//     head+tail with a visible marker, and the oldest messages are trimmed
//     until the transcript fits min(MaxInputTokens, window - reply cap -
//     prompt) tokens;
//   - folds the request's Previous summary into the prompt, so that the new
//     summary supersedes it;
//   - calls the model directly with GenerateContent and only its own options:
//     JSON mode, temperature 0, and a reply cap of MaxTokens plus room for
//     the JSON syntax (MaxTokens*5/4 + 32); the caller's call options, and
//     any streaming function, are never used;
//   - rejects as invalid, before counting or parsing it, a reply of more
//     than max(16 bytes per token of the reply cap, 64 KiB): the provider
//     ignored max_tokens;
//   - parses the reply with [prompts.ParseSummary]; a summary whose text is
//     over MaxTokens (counted with the request's Count) is shrunk by rules
//     (key points dropped from the end, arrays shortened, the narrative cut
//     at a sentence), never by a second call;
//   - retries transport errors per the [RetryPolicy]; an invalid reply is not
//     retried (its sanitized first 200 characters are logged) but the next
//     model is tried; a done ctx ends everything at once, with no retry and
//     no next model.
//
// The record returned has Summary (the structured summary rendered as text,
// within MaxTokens), KeyPoints, Context and Mode [ModeLLM]; the engine sets
// the other fields. Errors wrap the last model error (or ctx.Err()) and say
// what was attempted, e.g. "compact: summarize 14 messages: giving up after
// 2 attempts: ...".
func NewLLMSummarizer(models []llms.Model, opts ...LLMSummarizerOption) *LLMSummarizer {
	s := &LLMSummarizer{
		cfg: llmSummarizerConfig{
			retry:  DefaultRetryPolicy(),
			prompt: prompts.Default(),
		},
		reg: extractors.Default(),
	}
	for _, m := range models {
		if m != nil {
			s.models = append(s.models, m)
		}
	}
	for _, o := range opts {
		if o != nil {
			o(&s.cfg)
		}
	}
	if s.cfg.sleep == nil {
		s.cfg.sleep = sleepContext
	}
	if s.cfg.log == nil {
		s.cfg.log = slog.New(slog.DiscardHandler)
	}
	return s
}

// Stats returns the summarizer's cumulative figures since it was built.
func (s *LLMSummarizer) Stats() SummarizerStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

type summarizerCallKey struct{}

// IsSummarizerCall reports whether ctx is the context of a model call made
// by the LLM summarizer. Model wrappers that compact or otherwise rewrite
// calls (the middleware) should pass such calls through untouched, so that a
// summarizer model that is itself wrapped never compacts its own input.
func IsSummarizerCall(ctx context.Context) bool {
	v, _ := ctx.Value(summarizerCallKey{}).(bool)
	return v
}

// replyCap is the max_tokens sent to the model for a summary cap of
// maxTokens: the rendered summary must fit maxTokens, the JSON around it
// needs some more.
func replyCap(maxTokens int) int { return maxTokens*5/4 + 32 }

// replyBytesPerToken and replyMinBytes bound a summarizer reply: at most
// max(replyCap*replyBytesPerToken, replyMinBytes) bytes. A longer reply
// comes from a provider that ignored max_tokens; it is rejected as invalid
// before it is counted or parsed, so it costs no tokenization (a megabyte
// without separators takes the tokenizer most of a second), and the summary
// falls back like any other invalid reply. A reply within the bound but over
// the token cap is shrunk by rules. English JSON averages about 4 bytes per
// token.
const (
	replyBytesPerToken = 16
	replyMinBytes      = 64 << 10
)

// replyTooLarge returns the error for a reply of n bytes over the byte limit
// of a summary capped at maxTokens, or nil.
func replyTooLarge(n, maxTokens int) error {
	limit := max(replyCap(maxTokens)*replyBytesPerToken, replyMinBytes)
	if n <= limit {
		return nil
	}
	return fmt.Errorf("%w: reply has %d bytes, at most %d for a cap of %d tokens (max_tokens ignored?)",
		prompts.ErrInvalidSummary, n, limit, maxTokens)
}

// Summarize implements [Summarizer]; see [NewLLMSummarizer].
func (s *LLMSummarizer) Summarize(ctx context.Context, req SummarizeRequest) (rec SummaryRecord, err error) {
	var st SummarizerStats
	st.Calls = 1
	defer func() {
		if err != nil {
			st.Failures++
		}
		s.mu.Lock()
		s.stats.add(st)
		s.mu.Unlock()
		if p, ok := ctx.Value(summarizerStatsKey{}).(*SummarizerStats); ok && p != nil {
			p.add(st)
		}
	}()

	n := len(req.Messages)
	if cerr := ctx.Err(); cerr != nil {
		return SummaryRecord{}, fmt.Errorf("compact: summarize %d messages: not started: %w", n, cerr)
	}
	if len(s.models) == 0 {
		return SummaryRecord{}, fmt.Errorf("compact: summarize %d messages: %w", n, ErrNoSummarizerModel)
	}
	if n == 0 && req.Previous == nil {
		return SummaryRecord{}, errors.New("compact: summarize 0 messages: nothing to summarize")
	}
	if req.MaxTokens <= 0 {
		req.MaxTokens = DefaultMaxSummaryTokens
	}
	count := req.Count
	if count == nil {
		count = budget.EstimateTokens
	}

	in, err := s.buildInput(req, count)
	if err != nil {
		return SummaryRecord{}, fmt.Errorf("compact: summarize %d messages: build prompt: %w", n, err)
	}
	st.TrimmedMessages += in.trimmed
	st.CutMessages += in.cut

	callOpts := []llms.CallOption{
		llms.WithMaxTokens(replyCap(req.MaxTokens)),
		llms.WithJSONMode(),
		llms.WithTemperature(0),
	}
	pol := s.cfg.retry
	var modelErrs []error
	for mi, model := range s.models {
		var lastErr error
		for attempt := 0; ; attempt++ {
			st.Attempts++
			st.InputTokens += in.tokens
			reply, cerr := s.call(ctx, model, in.msgs, callOpts)
			if cerr == nil {
				var sum prompts.Summary
				perr := replyTooLarge(len(reply), req.MaxTokens)
				if perr == nil {
					st.OutputTokens += count(reply)
					sum, perr = prompts.ParseSummary(reply)
				} else {
					st.OutputTokens += (len(reply) + 3) / 4 // an estimate: not worth tokenizing
				}
				if perr == nil {
					fitted, text, shrunk := fitSummary(sum, req.MaxTokens, count)
					if shrunk {
						st.Shrunk++
					}
					if mi > 0 {
						st.ModelFallbacks++
					}
					return SummaryRecord{
						Summary:   text,
						KeyPoints: fitted.KeyPoints,
						Context:   fitted.Context,
						Mode:      ModeLLM,
					}, nil
				}
				st.ValidationErrors++
				s.cfg.log.Warn("compact: summarizer reply rejected",
					"model", mi, "attempt", attempt+1, "error", perr.Error(), "reply", sanitizeReply(reply, 200))
				lastErr = perr
				break // not retried: the next model may do better
			}
			if ctxErr := ctx.Err(); ctxErr != nil {
				return SummaryRecord{}, fmt.Errorf("compact: summarize %d messages: canceled after %d attempts: %w",
					n, st.Attempts, ctxErr)
			}
			st.TransportErrors++
			lastErr = cerr
			if attempt >= pol.MaxRetries || !pol.shouldRetry(ctx, cerr) {
				s.cfg.log.Info("compact: summarizer call failed", "model", mi, "attempt", attempt+1, "error", cerr.Error())
				break
			}
			wait, ok := pol.wait(attempt, cerr)
			if !ok {
				s.cfg.log.Info("compact: summarizer retry wait over the cap, giving up on this model",
					"model", mi, "wait", wait, "maxDelay", pol.MaxDelay)
				break
			}
			s.cfg.log.Info("compact: summarizer call failed, retrying",
				"model", mi, "attempt", attempt+1, "wait", wait, "error", cerr.Error())
			st.Retries++
			if serr := s.cfg.sleep(ctx, wait); serr != nil || ctx.Err() != nil {
				cause := ctx.Err()
				if cause == nil {
					cause = serr
				}
				return SummaryRecord{}, fmt.Errorf("compact: summarize %d messages: canceled after %d attempts: %w",
					n, st.Attempts, cause)
			}
		}
		if len(s.models) > 1 {
			lastErr = fmt.Errorf("model %d: %w", mi+1, lastErr)
		}
		modelErrs = append(modelErrs, lastErr)
	}
	return SummaryRecord{}, fmt.Errorf("compact: summarize %d messages: giving up after %d attempts: %w",
		n, st.Attempts, errors.Join(modelErrs...))
}

// call makes one model call and returns the reply text. It bounds the call
// by the policy's AttemptTimeout, marks ctx as a summarizer call, collects a
// Retry-After seen by [NewRetryAfterTransport], and turns a panicking model
// into an error.
func (s *LLMSummarizer) call(ctx context.Context, model llms.Model, msgs []llms.MessageContent, opts []llms.CallOption) (reply string, err error) {
	callCtx := context.WithValue(ctx, summarizerCallKey{}, true)
	if t := s.cfg.retry.AttemptTimeout; t > 0 {
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeout(callCtx, t)
		defer cancel()
	}
	callCtx, rec := withRetryAfterRecorder(callCtx)
	defer func() {
		if r := recover(); r != nil {
			reply, err = "", fmt.Errorf("model panicked: %v", r)
		}
	}()
	// The messages are rebuilt for each call, so a model that modifies them
	// cannot affect a retry.
	resp, err := model.GenerateContent(callCtx, msg.CloneAll(msgs), opts...)
	if err != nil {
		if callCtx.Err() != nil && ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) {
			// The per-attempt bound fired; some clients hide it behind text.
			err = fmt.Errorf("%w: %w", context.DeadlineExceeded, err)
		}
		if d, ok := rec.get(); ok {
			err = &retryAfterError{err: err, after: d}
		}
		return "", err
	}
	if resp == nil || len(resp.Choices) == 0 || resp.Choices[0] == nil {
		return "", errEmptyReply
	}
	return resp.Choices[0].Content, nil
}

// sanitizeReply returns at most n characters of the start of a reply, safe
// to log: secrets redacted, control characters replaced by spaces, invalid
// UTF-8 replaced.
func sanitizeReply(reply string, n int) string {
	head := reply
	if len(head) > 4*n+64 {
		head = head[:4*n+64] // redact on a little more than we show
	}
	head = extractors.Redact(strings.ToValidUTF8(head, "\uFFFD"))
	var b strings.Builder
	i := 0
	for _, r := range head {
		if i == n {
			b.WriteString("…")
			break
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			r = ' '
		}
		b.WriteRune(r)
		i++
	}
	if b.Len() == 0 && utf8.RuneCountInString(reply) == 0 {
		return ""
	}
	return b.String()
}

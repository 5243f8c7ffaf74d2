package llmsummary

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
	"github.com/agentcompact/compact/internal/ctxsleep"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/internal/usage"
	"github.com/agentcompact/compact/prompts"
	"github.com/agentcompact/compact/summary"
	"github.com/tmc/langchaingo/llms"
)

// ErrNoModel is returned by a [Summarizer] built without any usable
// (non-nil) model.
var ErrNoModel = errors.New("llmsummary: no summarizer model")

// errEmptyReply is a model reply without any choice.
var errEmptyReply = errors.New("model returned no choice")

// Summarizer is the [summary.Summarizer] that asks language models for a
// structured summary; [New] builds it. It is safe for concurrent use.
type Summarizer struct {
	models []llms.Model
	names  []string // index for index with models
	cfg    config
	reg    *extractors.Registry // used when a request has no Extractors

	mu    sync.Mutex
	stats Stats
}

var _ summary.Summarizer = (*Summarizer)(nil)

// New returns the LLM summarizer over models, in preference order: put a
// lighter, cheaper model first; the next model is tried when one fails
// (transport errors after its retries, an invalid reply). nil models are
// skipped; with none left, Summarize returns [ErrNoModel]. The models slice
// is copied. The options are described with each; nil options are ignored.
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
//     any streaming function, are never used; the call's context is marked
//     with [summary.MarkSummarizerCall];
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
//     no next model;
//   - reports every model call, as it ends, to the request's OnCall
//     ([summary.Request.Report]): model name, attempt, tokens in and out
//     (the provider's usage when it reports one, else counted with the
//     request's Count), start, duration, and the error (a transport error,
//     or the validation error of a rejected reply).
//
// The record returned has Summary (the structured summary rendered as text,
// within MaxTokens), KeyPoints, Context and Mode [summary.ModeLLM]; the
// engine sets the other fields. Errors wrap the last model error (or
// ctx.Err()) and say what was attempted, e.g. "llmsummary: summarize 14
// messages: giving up after 2 attempts: ...".
func New(models []llms.Model, opts ...Option) *Summarizer {
	s := &Summarizer{
		cfg: config{
			retry:  DefaultRetryPolicy(),
			prompt: prompts.Default(),
		},
		reg: extractors.Default(),
	}
	for _, o := range opts {
		if o != nil {
			o(&s.cfg)
		}
	}
	for i, m := range models {
		if m == nil {
			continue
		}
		name := ""
		if i < len(s.cfg.names) {
			name = s.cfg.names[i]
		}
		if name == "" {
			name = fmt.Sprintf("%T", m)
		}
		s.models = append(s.models, m)
		s.names = append(s.names, name)
	}
	if s.cfg.sleep == nil {
		s.cfg.sleep = ctxsleep.Sleep
	}
	if s.cfg.now == nil {
		s.cfg.now = time.Now
	}
	if s.cfg.log == nil {
		s.cfg.log = slog.New(slog.DiscardHandler)
	}
	return s
}

// Stats returns the summarizer's cumulative figures since it was built.
func (s *Summarizer) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
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

// Summarize implements [summary.Summarizer]; see [New].
func (s *Summarizer) Summarize(ctx context.Context, req summary.Request) (rec summary.Record, err error) {
	var st Stats
	st.Calls = 1
	defer func() {
		if err != nil {
			st.Failures++
		}
		s.mu.Lock()
		s.stats.add(st)
		s.mu.Unlock()
	}()
	n := len(req.Messages)
	if err := s.check(ctx, req); err != nil {
		return summary.Record{}, err
	}
	if req.MaxTokens <= 0 {
		req.MaxTokens = summary.DefaultMaxTokens
	}
	count := req.Count
	if count == nil {
		count = budget.EstimateTokens
	}
	in, err := s.buildInput(req, count)
	if err != nil {
		return summary.Record{}, fmt.Errorf("llmsummary: summarize %d messages: build prompt: %w", n, err)
	}
	st.TrimmedMessages += in.trimmed
	st.CutMessages += in.cut
	var modelErrs []error
	for mi := range s.models {
		inM := in
		if cs, ok := s.cacheSafeInput(req, mi, count); ok {
			inM = cs
		}
		rec, fatal, err := s.tryModel(ctx, req, inM, mi, count, &st)
		switch {
		case err == nil:
			if mi > 0 {
				st.ModelFallbacks++
			}
			return rec, nil
		case fatal:
			return summary.Record{}, fmt.Errorf("llmsummary: summarize %d messages: canceled after %d attempts: %w", n, st.Attempts, err)
		case len(s.models) > 1:
			err = fmt.Errorf("model %d (%s): %w", mi+1, s.names[mi], err)
		}
		modelErrs = append(modelErrs, err)
	}
	return summary.Record{}, fmt.Errorf("llmsummary: summarize %d messages: giving up after %d attempts: %w",
		n, st.Attempts, errors.Join(modelErrs...))
}

// check returns why req cannot be summarized at all, or nil.
func (s *Summarizer) check(ctx context.Context, req summary.Request) error {
	n := len(req.Messages)
	if cerr := ctx.Err(); cerr != nil {
		return fmt.Errorf("llmsummary: summarize %d messages: not started: %w", n, cerr)
	}
	if len(s.models) == 0 {
		return fmt.Errorf("llmsummary: summarize %d messages: %w", n, ErrNoModel)
	}
	if n == 0 && req.Previous == nil {
		return errors.New("llmsummary: summarize 0 messages: nothing to summarize")
	}
	return nil
}

// tryModel asks model mi for the summary, retrying transport errors as the
// retry policy says; an invalid reply is not retried (the next model may do
// better). It returns the record, or the model's last error; fatal when
// the context ended, in which case no other model is tried.
func (s *Summarizer) tryModel(ctx context.Context, req summary.Request, in summarizerInput, mi int,
	count func(string) int, st *Stats) (rec summary.Record, fatal bool, err error) {
	pol := s.cfg.retry
	for attempt := 0; ; attempt++ {
		rec, perr, cerr := s.attempt(ctx, req, in, mi, attempt, count, st)
		switch {
		case cerr == nil && perr == nil:
			return rec, false, nil
		case cerr == nil:
			return summary.Record{}, false, perr
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return summary.Record{}, true, ctxErr
		}
		st.TransportErrors++
		if attempt >= pol.MaxRetries || !pol.shouldRetry(ctx, cerr) {
			s.cfg.log.Info("llmsummary: summarizer call failed", "model", s.names[mi], "attempt", attempt+1, "error", cerr.Error())
			return summary.Record{}, false, cerr
		}
		wait, ok := pol.wait(attempt, cerr)
		if ok && !fits(ctx, wait) {
			s.cfg.log.Info("llmsummary: summarizer retry would not fit the deadline, giving up on this model",
				"model", s.names[mi], "wait", wait)
			return summary.Record{}, false, cerr
		}
		if !ok {
			s.cfg.log.Info("llmsummary: summarizer retry wait over the cap, giving up on this model",
				"model", s.names[mi], "wait", wait, "maxDelay", pol.MaxDelay)
			return summary.Record{}, false, cerr
		}
		s.cfg.log.Info("llmsummary: summarizer call failed, retrying",
			"model", s.names[mi], "attempt", attempt+1, "wait", wait, "error", cerr.Error())
		st.Retries++
		if serr := s.cfg.sleep(ctx, wait); serr != nil || ctx.Err() != nil {
			if cause := ctx.Err(); cause != nil {
				return summary.Record{}, true, cause
			}
			return summary.Record{}, true, serr
		}
	}
}

// attempt makes one call to model mi and reports it. It returns the record
// of a valid reply; else the reply's validation error (perr) or the call's
// transport error (cerr).
func (s *Summarizer) attempt(ctx context.Context, req summary.Request, in summarizerInput, mi, attempt int,
	count func(string) int, st *Stats) (rec summary.Record, perr, cerr error) {
	st.Attempts++
	callOpts := []llms.CallOption{
		llms.WithMaxTokens(replyCap(req.MaxTokens)),
		llms.WithJSONMode(),
		llms.WithTemperature(0),
	}
	report := summary.Call{Model: s.names[mi], Attempt: attempt + 1, Start: s.cfg.now()}
	bound := s.cfg.retry.attemptTimeout(ctx, attempt, len(s.models)-1-mi)
	resp, reply, cerr := s.call(ctx, s.models[mi], bound, in.msgs, callOpts)
	report.Duration = s.cfg.now().Sub(report.Start)
	report.InputTokens = in.tokens
	if pt, ok := usage.PromptTokens(resp); ok {
		report.InputTokens = pt
	}
	if cerr != nil {
		report.Err = cerr
		s.report(ctx, req, st, report)
		return summary.Record{}, nil, cerr
	}
	sum, out, perr := parseReply(resp, reply, req.MaxTokens, count)
	report.OutputTokens, report.Err = out, perr
	s.report(ctx, req, st, report)
	if perr != nil {
		st.ValidationErrors++
		s.cfg.log.Warn("llmsummary: summarizer reply rejected",
			"model", s.names[mi], "attempt", attempt+1, "error", perr.Error(), "reply", sanitizeReply(reply, 200))
		return summary.Record{}, perr, nil
	}
	fitted, text, shrunk := fitSummary(sum, req.MaxTokens, count)
	if shrunk {
		st.Shrunk++
	}
	return summary.Record{Summary: text, KeyPoints: fitted.KeyPoints, Context: fitted.Context, Mode: summary.ModeLLM}, nil, nil
}

// parseReply validates a reply and returns the summary and the reply's
// tokens (the provider's count when reported). A reply far over maxTokens
// is rejected before it is tokenized or parsed.
func parseReply(resp *llms.ContentResponse, reply string, maxTokens int, count func(string) int) (prompts.Summary, int, error) {
	out, reported := usage.CompletionTokens(resp)
	if err := replyTooLarge(len(reply), maxTokens); err != nil {
		if !reported {
			out = (len(reply) + 3) / 4 // an estimate: not worth tokenizing
		}
		return prompts.Summary{}, out, err
	}
	if !reported {
		out = count(reply)
	}
	sum, err := prompts.ParseSummary(reply)
	return sum, out, err
}

// report adds the tokens of c to st and hands c to the request's OnCall,
// with ErrText set from Err.
func (s *Summarizer) report(ctx context.Context, req summary.Request, st *Stats, c summary.Call) {
	st.InputTokens += c.InputTokens
	st.OutputTokens += c.OutputTokens
	if c.Err != nil {
		c.ErrText = c.Err.Error()
	}
	req.Report(ctx, c)
}

// call makes one model call and returns the response and its reply text.
// It bounds the call by t (the policy's attempt timeout: see
// RetryPolicy.attemptTimeout; 0 for none), marks ctx as a
// summarizer call, collects a Retry-After seen by [NewRetryAfterTransport],
// and turns a panicking model into an error. resp may be non-nil on error
// (a reply without any choice).
func (s *Summarizer) call(ctx context.Context, model llms.Model, t time.Duration, msgs []llms.MessageContent, opts []llms.CallOption) (resp *llms.ContentResponse, reply string, err error) {
	callCtx := summary.MarkSummarizerCall(ctx)
	if t > 0 {
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeout(callCtx, t)
		defer cancel()
	}
	callCtx, rec := withRetryAfterRecorder(callCtx)
	defer func() {
		if r := recover(); r != nil {
			resp, reply, err = nil, "", fmt.Errorf("model panicked: %v", r)
		}
	}()
	// The messages are rebuilt for each call, so a model that modifies them
	// cannot affect a retry.
	resp, err = model.GenerateContent(callCtx, msg.CloneAll(msgs), opts...)
	if err != nil {
		if callCtx.Err() != nil && ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) {
			// The per-attempt bound fired; some clients hide it behind text.
			err = fmt.Errorf("%w: %w", context.DeadlineExceeded, err)
		}
		if d, ok := rec.get(); ok {
			err = &retryAfterError{err: err, after: d}
		}
		return resp, "", err
	}
	if resp == nil || len(resp.Choices) == 0 || resp.Choices[0] == nil {
		return resp, "", errEmptyReply
	}
	return resp, resp.Choices[0].Content, nil
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

package llmsummary

import (
	"context"
	"log/slog"
	"time"

	"github.com/agentcompact/compact/prompts"
)

// Option configures the [Summarizer] built by [New].
type Option func(*config)

type config struct {
	retry     RetryPolicy
	sleep     func(ctx context.Context, d time.Duration) error
	now       func() time.Time
	prompt    prompts.Template
	log       *slog.Logger
	window    int
	names     []string
	cacheSafe CacheSafe
}

// CacheSafe says when the summarizer sends a cache-safe request (see
// [WithCacheSafe]).
type CacheSafe int

const (
	// CacheSafeAuto, the default, sends a cache-safe request to the model
	// the conversation was last sent to (summary.Request.SentTo, such as
	// the model the middleware wraps, when it is also the summarizer): the
	// one case where the provider's cache surely holds the prefix.
	CacheSafeAuto CacheSafe = iota
	// CacheSafeOff always sends the capped, redacted transcript.
	CacheSafeOff
	// CacheSafeOn sends a cache-safe request to every model whenever the
	// request carries the conversation as last sent: for a summarizer that
	// is another client of the same model and account (the same cache).
	CacheSafeOn
)

// WithRetryPolicy replaces the retry policy of model calls. Default
// [DefaultRetryPolicy]: one retry of transport errors after 250 ms x
// 2^attempt (or the server's Retry-After, up to 10 s), 20 s per attempt
// and at most its share of the context's deadline,
// validation errors never retried. A negative MaxRetries counts as 0.
func WithRetryPolicy(p RetryPolicy) Option {
	return func(c *config) {
		p.MaxRetries = max(p.MaxRetries, 0)
		c.retry = p
	}
}

// WithSleep replaces how the summarizer waits between attempts: sleep must
// wait d, or return ctx.Err() as soon as ctx is done. Tests use it to
// observe backoffs without waiting. Default: a timer that honors ctx. A nil
// sleep restores the default.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(c *config) { c.sleep = sleep }
}

// WithClock replaces the clock that times model calls (the Start and
// Duration of each [summary.Call] report). Default time.Now. A nil now
// restores the default.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.now = now }
}

// WithPrompt replaces the summarizer prompt, for example with
// prompts.New(system, user). Default prompts.Default(). Whatever the
// prompt, the reply must follow the schema that [prompts.ParseSummary]
// validates.
func WithPrompt(t prompts.Template) Option {
	return func(c *config) { c.prompt = t }
}

// WithLogger sets where the summarizer logs rejected replies (warning, with
// the sanitized first 200 characters of the reply) and failed attempts
// (info). Default: no logging. A nil logger restores the default.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.log = l }
}

// WithCacheSafe sets when a request is cache-safe: the conversation
// exactly as the agent last sent it (summary.Request.Sent, unchanged and
// unredacted: that model already received it) followed by one instruction
// naming the messages to summarize, so that the provider's prompt cache
// serves all but the instruction. Its input cap is the model's window
// (summary.Request.SentWindow, and WithWindow when set) minus the reply
// cap; a request whose conversation does not fit, or shows none of the
// messages to summarize, falls back to the transcript. A message shows by
// its content, by its tool call ids, or, masked or cut, by the ref it shows
// (summary.Request.Refs); the summary covers the conversation through the
// last message shown. The reply is validated as always; the engine
// redacts it, its bare repeats of the conversation's secrets included
// (summary.Redact with summary.Request.SecretValues), as it does
// every summary.
// Default [CacheSafeAuto].
func WithCacheSafe(mode CacheSafe) Option { return func(c *config) { c.cacheSafe = mode } }

// WithWindow sets the context window, in tokens, of the smallest summarizer
// model. The transcript sent is then at most min(request MaxInputTokens,
// window - reply cap - prompt tokens). Default 0: unknown, only
// MaxInputTokens caps the transcript. A negative value counts as 0.
func WithWindow(tokens int) Option {
	return func(c *config) { c.window = max(tokens, 0) }
}

// WithModelNames names the models given to [New], index for index, in the
// [summary.Call] reports and the logs (for example "gpt-4o-mini"). Default:
// the model's Go type name ("*openai.LLM"); an empty or missing name also
// means the type name. The names slice is copied.
func WithModelNames(names ...string) Option {
	return func(c *config) { c.names = append([]string(nil), names...) }
}

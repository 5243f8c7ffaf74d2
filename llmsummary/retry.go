package llmsummary

import (
	"context"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agentcompact/compact/prompts"
	"github.com/tmc/langchaingo/llms"
)

// Defaults of [DefaultRetryPolicy].
const (
	DefaultMaxRetries     = 1                      // retries per model after a transport error
	DefaultRetryBaseDelay = 250 * time.Millisecond // backoff unit: 250 ms x 2^retry
	DefaultRetryMaxDelay  = 10 * time.Second       // longest wait before giving up on a model
	DefaultAttemptTimeout = 20 * time.Second       // bound of one model call
)

// RetryPolicy decides how the [Summarizer] retries a failed model call on
// the same model before it moves to the next model. It is modelled on
// hashicorp/go-retryablehttp: a CheckRetry classifier and a Backoff
// function, both replaceable. A RetryPolicy is a value; the summarizer
// copies it and never modifies it. Its functions must be safe for
// concurrent use.
type RetryPolicy struct {
	// MaxRetries is how many times one failed call is retried on the same
	// model; 0 means no retry. Default 1 (two attempts per model).
	MaxRetries int
	// BaseDelay is the backoff unit: retry n (0-based) waits
	// BaseDelay * 2^n unless the error carries a Retry-After. Default 250 ms.
	BaseDelay time.Duration
	// MaxDelay caps one wait. A server asking (Retry-After) for more than
	// MaxDelay ends the retries on that model instead of blocking the
	// compaction. 0 means no cap. Default 10 s.
	MaxDelay time.Duration
	// AttemptTimeout bounds one model call; a call that exceeds it fails
	// with a timeout, which is retryable. Under a context deadline (the
	// engine's summarizer deadline, or the caller's), each attempt is also
	// bounded by its share of the time left (the time left divided by the
	// attempts left on the model), so that the retries fit inside the
	// deadline; the deadline itself is never retried. 0 means no
	// per-attempt bound beyond that share. Default 20 s: a hung model
	// costs at most about 40 s without a deadline.

	AttemptTimeout time.Duration
	// CheckRetry reports whether err, returned by a model call, is worth
	// retrying. nil means [IsRetryable].
	CheckRetry func(ctx context.Context, err error) bool
	// Backoff returns how long to wait before retry number attempt
	// (0-based) after err. nil means [RetryPolicy.DefaultBackoff].
	Backoff func(attempt int, err error) time.Duration
}

// DefaultRetryPolicy returns the default policy: one retry of transport
// errors (network errors, timeouts, HTTP 408/429/5xx) after 250 ms x
// 2^attempt or the server's Retry-After, at most 10 s, each attempt bounded
// by 20 s and by its share of the context's deadline. Validation errors ([prompts.ErrInvalidSummary]) are not retried.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{
		MaxRetries:     DefaultMaxRetries,
		BaseDelay:      DefaultRetryBaseDelay,
		MaxDelay:       DefaultRetryMaxDelay,
		AttemptTimeout: DefaultAttemptTimeout,
	}
}

// shouldRetry applies CheckRetry (or IsRetryable).
func (p RetryPolicy) shouldRetry(ctx context.Context, err error) bool {
	if p.CheckRetry != nil {
		return p.CheckRetry(ctx, err)
	}
	return IsRetryable(err)
}

// attemptTimeout returns the bound of attempt (0-based) on one model,
// with later models still to try after it: the policy's AttemptTimeout,
// and under a deadline at most the time left divided by the attempts left
// (this one, its retries, and a first attempt of each later model); 0
// means none.
func (p RetryPolicy) attemptTimeout(ctx context.Context, attempt, later int) time.Duration {
	t := p.AttemptTimeout
	if dl, ok := ctx.Deadline(); ok {
		left := max(p.MaxRetries-attempt, 0) + 1 + max(later, 0)
		if share := time.Until(dl) / time.Duration(left); t <= 0 || share < t {
			t = max(share, time.Millisecond)
		}
	}
	return t
}

// fits reports whether a wait of d before the next attempt leaves that
// attempt any time before ctx's deadline.
func fits(ctx context.Context, d time.Duration) bool {
	dl, ok := ctx.Deadline()
	return !ok || time.Until(dl) > d
}

// wait applies Backoff (or DefaultBackoff); ok is false when the wait
// exceeds MaxDelay.
func (p RetryPolicy) wait(attempt int, err error) (d time.Duration, ok bool) {
	if p.Backoff != nil {
		d = p.Backoff(attempt, err)
	} else {
		d = p.DefaultBackoff(attempt, err)
	}
	if d < 0 {
		d = 0
	}
	return d, p.MaxDelay <= 0 || d <= p.MaxDelay
}

// DefaultBackoff returns the wait a server asked for, carried by err, when
// there is one (a Retry-After header seen by [NewRetryAfterTransport], an
// *llms.Error detail "retry_after", or a hint in the message such as
// "Retry-After: 2" or "Please try again in 1.5s"), else BaseDelay *
// 2^attempt, capped at MaxDelay when MaxDelay > 0 (a server's wait is not
// capped: the summarizer gives up on that model instead).
func (p RetryPolicy) DefaultBackoff(attempt int, err error) time.Duration {
	if d, ok := retryAfter(err); ok {
		return d
	}
	if attempt < 0 {
		attempt = 0
	}
	if attempt > 30 {
		attempt = 30
	}
	d := time.Duration(float64(p.BaseDelay) * math.Pow(2, float64(attempt)))
	if p.MaxDelay > 0 && d > p.MaxDelay {
		d = p.MaxDelay
	}
	return d
}

// statusCodeRE finds an HTTP status code in a provider error message, as
// langchaingo's clients write them ("API returned unexpected status code:
// 429: ...", "status code 503", "HTTP 502").
var statusCodeRE = regexp.MustCompile(`(?i)(?:status(?:[ _]?code)?|http)[ :=]*([1-5][0-9]{2})\b`)

// httpStatus returns the HTTP status code an error reports, if any: from an
// error with a StatusCode() int or HTTPStatusCode() int method, or from the
// message text of langchaingo's provider clients.
func httpStatus(err error) (int, bool) {
	if err == nil {
		return 0, false
	}
	var sc interface{ StatusCode() int }
	if errors.As(err, &sc) {
		return sc.StatusCode(), true
	}
	var hc interface{ HTTPStatusCode() int }
	if errors.As(err, &hc) {
		return hc.HTTPStatusCode(), true
	}
	if m := statusCodeRE.FindStringSubmatch(err.Error()); m != nil {
		code, _ := strconv.Atoi(m[1])
		return code, true
	}
	return 0, false
}

// transientTexts are lower-case message fragments of transport failures,
// for providers that report them only as text. langchaingo's OpenAI client
// replaces network errors by "request timeout: ..." and "network error:
// failed to reach API server".
var transientTexts = []string{
	"request timeout", "network error", "timeout exceeded", "i/o timeout",
	"connection reset", "connection refused", "broken pipe", "unexpected eof",
	"rate limit", "too many requests", "overloaded", "service unavailable",
	"bad gateway", "gateway timeout", "temporarily unavailable", "server error",
}

// IsRetryable is the default transport-error classifier of [RetryPolicy].
// It reports true for failures worth a retry with the same input:
//
//   - a timeout: context.DeadlineExceeded from a per-attempt bound (the
//     summarizer checks the caller's own context first and never retries
//     once it is done), a net.Error, or llms.ErrCodeTimeout;
//   - network failures: any net.Error, io.ErrUnexpectedEOF, ECONNRESET,
//     ECONNREFUSED, EPIPE;
//   - HTTP 408, 425, 429, 500, 502, 503, 504 and other 5xx except 501 (the
//     status from an error with a StatusCode() int or HTTPStatusCode() int
//     method, or from the message text of langchaingo's clients, such as
//     "API returned unexpected status code: 429"), and llms.ErrCodeRateLimit
//     or llms.ErrCodeProviderUnavailable;
//   - langchaingo's text-only transport errors ("request timeout",
//     "network error", "rate limit", "overloaded", ...).
//
// It reports false for nil, context.Canceled, [prompts.ErrInvalidSummary]
// (validation failures are not retried), other HTTP 4xx (authentication,
// bad request, context too long, not found), the other llms error codes,
// and anything unrecognized.
func IsRetryable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, prompts.ErrInvalidSummary) {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var le *llms.Error
	if errors.As(err, &le) {
		switch le.Code {
		case llms.ErrCodeRateLimit, llms.ErrCodeProviderUnavailable, llms.ErrCodeTimeout:
			return true
		case llms.ErrCodeUnknown, "":
			if le.Cause != nil && IsRetryable(le.Cause) {
				return true
			}
			// Otherwise decide from the text below.
		default:
			return false
		}
	}
	if code, ok := httpStatus(err); ok {
		switch {
		case code == http.StatusRequestTimeout, code == http.StatusTooEarly, code == http.StatusTooManyRequests:
			return true
		case code == http.StatusNotImplemented:
			return false
		case code >= 500:
			return true
		case code >= 400:
			return false
		}
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	msg := strings.ToLower(err.Error())
	for _, t := range transientTexts {
		if strings.Contains(msg, t) {
			return true
		}
	}
	return false
}

// retryAfterTextRE finds a server's wait hint in an error message: "Retry-After:
// 2", "retry after 3 seconds", "Please try again in 1.5s" or "in 250ms".
var retryAfterTextRE = regexp.MustCompile(`(?i)(?:retry[- ]after[: ]*([0-9]+(?:\.[0-9]+)?)|try again in ([0-9]+(?:\.[0-9]+)?)\s*(ms|s|sec|secs|seconds?)\b)`)

// retryAfter returns the wait a server asked for, carried by err: from an
// error with a RetryAfter() time.Duration method (such as the errors the
// summarizer builds from [NewRetryAfterTransport] records), from an
// *llms.Error detail "retry_after" (a time.Duration, or seconds as a number
// or string), or from the message text ("Retry-After: 2", "Please try again
// in 1.5s"). Negative waits are reported as 0.
func retryAfter(err error) (time.Duration, bool) {
	if err == nil {
		return 0, false
	}
	var ra interface{ RetryAfter() time.Duration }
	if errors.As(err, &ra) {
		return max(ra.RetryAfter(), 0), true
	}
	var le *llms.Error
	if errors.As(err, &le) && le.Details != nil {
		switch v := le.Details["retry_after"].(type) {
		case time.Duration:
			return max(v, 0), true
		case int:
			return max(time.Duration(v)*time.Second, 0), true
		case float64:
			return max(time.Duration(v*float64(time.Second)), 0), true
		case string:
			if d, ok := parseRetryAfter(v, time.Time{}); ok {
				return d, true
			}
		}
	}
	m := retryAfterTextRE.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, false
	}
	num, unit := m[1], "s"
	if num == "" {
		num, unit = m[2], strings.ToLower(m[3])
	}
	f, perr := strconv.ParseFloat(num, 64)
	if perr != nil || f < 0 || f > 86400 {
		return 0, false
	}
	if unit == "ms" {
		return time.Duration(f * float64(time.Millisecond)), true
	}
	return time.Duration(f * float64(time.Second)), true
}

// parseRetryAfter parses a Retry-After header value: delay seconds or an
// HTTP date (relative to now; a zero now means time.Now()).
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 || secs > 86400 || math.IsNaN(secs) {
			return 0, false
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if now.IsZero() {
		now = time.Now()
	}
	return max(t.Sub(now), 0), true
}

// retryAfterError adds a server's Retry-After to a model error.
type retryAfterError struct {
	err   error
	after time.Duration
}

func (e *retryAfterError) Error() string             { return e.err.Error() }
func (e *retryAfterError) Unwrap() error             { return e.err }
func (e *retryAfterError) RetryAfter() time.Duration { return e.after }

// retryAfterRecorder receives the Retry-After seen by [NewRetryAfterTransport]
// during one summarizer attempt.
type retryAfterRecorder struct {
	mu    sync.Mutex
	after time.Duration
	set   bool
}

func (r *retryAfterRecorder) record(d time.Duration) {
	r.mu.Lock()
	r.after, r.set = d, true
	r.mu.Unlock()
}

func (r *retryAfterRecorder) get() (time.Duration, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.after, r.set
}

type retryAfterKey struct{}

// withRetryAfterRecorder returns ctx carrying a fresh recorder.
func withRetryAfterRecorder(ctx context.Context) (context.Context, *retryAfterRecorder) {
	r := &retryAfterRecorder{}
	return context.WithValue(ctx, retryAfterKey{}, r), r
}

// NewRetryAfterTransport returns an http.RoundTripper that passes every
// request to base (nil means http.DefaultTransport) and, when a response
// has status 429 or 503 with a Retry-After header, hands the wait to the
// LLM summarizer making the call, so that its retry honors it.
//
// Some langchaingo clients (llms/openai among them) report a failed status
// only as text and drop the response headers; give such a client this
// transport to make Retry-After visible, for example:
//
//	model, err := openai.New(openai.WithHTTPClient(&http.Client{
//	    Transport: llmsummary.NewRetryAfterTransport(nil),
//	}))
//
// Requests not made by the summarizer are passed through untouched. The
// transport is safe for concurrent use.
func NewRetryAfterTransport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return retryAfterTransport{base: base}
}

type retryAfterTransport struct{ base http.RoundTripper }

// RoundTrip implements http.RoundTripper.
func (t retryAfterTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp == nil {
		return resp, err
	}
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		return resp, nil
	}
	rec, ok := req.Context().Value(retryAfterKey{}).(*retryAfterRecorder)
	if !ok {
		return resp, nil
	}
	if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Time{}); ok {
		rec.record(d)
	}
	return resp, nil
}

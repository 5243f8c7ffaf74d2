package llmsummary

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"syscall"
	"testing"
	"time"

	"github.com/agentcompact/compact/prompts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// timeoutErr is a net.Error that timed out.
type timeoutErr struct{}

func (timeoutErr) Error() string   { return "dial tcp: i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

type statusErr int

func (e statusErr) Error() string   { return "failed" }
func (e statusErr) StatusCode() int { return int(e) }

func TestIsRetryable(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"openai 500", errors.New("API returned unexpected status code: 500: boom"), true},
		{"openai 502 no body", errors.New("API returned unexpected status code: 502"), true},
		{"openai 503", errors.New("API returned unexpected status code: 503: Service Unavailable"), true},
		{"openai 429", errors.New("API returned unexpected status code: 429: Rate limit reached for gpt-4o-mini"), true},
		{"openai 408", errors.New("API returned unexpected status code: 408"), true},
		{"openai 400", errors.New("API returned unexpected status code: 400: maximum context length is 128000 tokens"), false},
		{"openai 401", errors.New("API returned unexpected status code: 401: Incorrect API key provided"), false},
		{"openai 404", errors.New("API returned unexpected status code: 404: model not found"), false},
		{"501", errors.New("status code 501"), false},
		{"openai sanitized timeout", errors.New("request timeout: API call exceeded deadline"), true},
		{"openai sanitized network", errors.New("network error: failed to reach API server"), true},
		{"openai sanitized cancel", errors.New("request cancelled"), false},
		{"typed status 503", fmt.Errorf("call: %w", statusErr(503)), true},
		{"typed status 403", statusErr(403), false},
		{"deadline (per-attempt bound)", fmt.Errorf("x: %w", context.DeadlineExceeded), true},
		{"canceled", fmt.Errorf("x: %w", context.Canceled), false},
		{"net timeout", &url.Error{Op: "Post", URL: "http://x", Err: timeoutErr{}}, true},
		{"net op error", &net.OpError{Op: "dial", Err: errors.New("refused")}, true},
		{"connection reset", fmt.Errorf("read: %w", syscall.ECONNRESET), true},
		{"unexpected EOF", fmt.Errorf("decode: %w", io.ErrUnexpectedEOF), true},
		{"llms rate limit", llms.NewError(llms.ErrCodeRateLimit, "anthropic", "slow down"), true},
		{"llms unavailable", llms.NewError(llms.ErrCodeProviderUnavailable, "x", "down"), true},
		{"llms timeout", llms.NewError(llms.ErrCodeTimeout, "x", "t"), true},
		{"llms auth", llms.NewError(llms.ErrCodeAuthentication, "x", "bad key 500"), false},
		{"llms token limit", llms.NewError(llms.ErrCodeTokenLimit, "x", "too long"), false},
		{"llms unknown with 500 cause", llms.NewError(llms.ErrCodeUnknown, "x", "?").WithCause(errors.New("status code: 500")), true},
		{"anthropic overloaded", errors.New("anthropic: overloaded_error: Overloaded"), true},
		{"invalid summary", fmt.Errorf("x: %w", prompts.ErrInvalidSummary), false},
		{"unknown", errors.New("something odd"), false},
		{"json syntax", &jsonSyntaxLike{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, IsRetryable(tt.err))
		})
	}
}

type jsonSyntaxLike struct{}

func (*jsonSyntaxLike) Error() string { return "invalid character '<' looking for beginning of value" }

func TestHTTPStatus(t *testing.T) {
	for _, tt := range []struct {
		err  error
		code int
		ok   bool
	}{
		{errors.New("API returned unexpected status code: 429: x"), 429, true},
		{errors.New("HTTP 502 Bad Gateway"), 502, true},
		{errors.New("status=503"), 503, true},
		{errors.New("see http://host:8080/path"), 0, false},
		{statusErr(418), 418, true},
		{nil, 0, false},
	} {
		code, ok := httpStatus(tt.err)
		assert.Equal(t, tt.code, code, fmt.Sprint(tt.err))
		assert.Equal(t, tt.ok, ok, fmt.Sprint(tt.err))
	}
}

func TestRetryAfter(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
		want time.Duration
		ok   bool
	}{
		{"typed", fmt.Errorf("x: %w", &retryAfterError{err: errors.New("429"), after: 2 * time.Second}), 2 * time.Second, true},
		{"llms detail duration", llms.NewError(llms.ErrCodeRateLimit, "x", "y").WithDetail("retry_after", 1500*time.Millisecond), 1500 * time.Millisecond, true},
		{"llms detail seconds", llms.NewError(llms.ErrCodeRateLimit, "x", "y").WithDetail("retry_after", 4), 4 * time.Second, true},
		{"llms detail string", llms.NewError(llms.ErrCodeRateLimit, "x", "y").WithDetail("retry_after", "7"), 7 * time.Second, true},
		{"openai text seconds", errors.New("status code: 429: Rate limit reached. Please try again in 1.5s. Visit ..."), 1500 * time.Millisecond, true},
		{"openai text ms", errors.New("Please try again in 250ms."), 250 * time.Millisecond, true},
		{"header text", errors.New("429 Too Many Requests, Retry-After: 3"), 3 * time.Second, true},
		{"none", errors.New("status code: 429"), 0, false},
		{"nil", nil, 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := retryAfter(tt.err)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, d)
		})
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range []struct {
		v    string
		want time.Duration
		ok   bool
	}{
		{"2", 2 * time.Second, true},
		{" 0.5 ", 500 * time.Millisecond, true},
		{now.Add(10 * time.Second).Format(http.TimeFormat), 10 * time.Second, true},
		{now.Add(-10 * time.Second).Format(http.TimeFormat), 0, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{"", 0, false},
	} {
		d, ok := parseRetryAfter(tt.v, now)
		assert.Equal(t, tt.ok, ok, tt.v)
		assert.Equal(t, tt.want, d, tt.v)
	}
}

func TestDefaultBackoff(t *testing.T) {
	p := DefaultRetryPolicy()
	plain := errors.New("status code: 500")
	assert.Equal(t, 250*time.Millisecond, p.DefaultBackoff(0, plain))
	assert.Equal(t, 500*time.Millisecond, p.DefaultBackoff(1, plain))
	assert.Equal(t, time.Second, p.DefaultBackoff(2, plain))
	assert.Equal(t, 10*time.Second, p.DefaultBackoff(20, plain), "capped at MaxDelay")
	assert.Equal(t, 10*time.Second, p.DefaultBackoff(1000, plain), "no overflow")
	assert.Equal(t, 250*time.Millisecond, p.DefaultBackoff(-3, plain))
	withHint := &retryAfterError{err: plain, after: time.Minute}
	assert.Equal(t, time.Minute, p.DefaultBackoff(0, withHint), "Retry-After is not capped")
	_, ok := p.wait(0, withHint)
	assert.False(t, ok, "but a wait over MaxDelay ends the retries")
	d, ok := p.wait(0, plain)
	assert.True(t, ok)
	assert.Equal(t, 250*time.Millisecond, d)
}

func TestRetryAfterTransport(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/429":
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(http.StatusTooManyRequests)
		case "/503":
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
		case "/500":
			w.Header().Set("Retry-After", "9")
			w.WriteHeader(http.StatusInternalServerError)
		default:
			w.WriteHeader(http.StatusOK)
		}
	}))
	defer srv.Close()
	client := &http.Client{Transport: NewRetryAfterTransport(nil)}
	get := func(ctx context.Context, path string) int {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+path, nil)
		require.NoError(t, err)
		resp, err := client.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	for path, want := range map[string]time.Duration{"/429": 3 * time.Second, "/503": time.Second} {
		ctx, rec := withRetryAfterRecorder(context.Background())
		assert.Equal(t, path[1:], fmt.Sprint(get(ctx, path)))
		d, ok := rec.get()
		assert.True(t, ok, path)
		assert.Equal(t, want, d, path)
	}
	for _, path := range []string{"/500", "/ok"} {
		ctx, rec := withRetryAfterRecorder(context.Background())
		get(ctx, path)
		_, ok := rec.get()
		assert.False(t, ok, path)
	}
	assert.Equal(t, http.StatusTooManyRequests, get(context.Background(), "/429"), "requests without a recorder pass through")
}

package llmsummary

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcompact/compact/prompts"
	"github.com/agentcompact/compact/summary"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
)

// fakeOpenAI is a loopback OpenAI chat completions endpoint that answers
// each request with the next behaviour of its script (the last one
// repeats) and records the requests it receives.
type fakeOpenAI struct {
	srv *httptest.Server

	mu     sync.Mutex
	script []string
	bodies []string
}

// Behaviours of fakeOpenAI.
const (
	bValid     = "valid"     // 200, a valid summary
	bFenced    = "fenced"    // 200, the summary in a ```json fence
	bMalformed = "malformed" // 200, prose instead of JSON
	bBadBody   = "badbody"   // 200, a body that is not JSON at all
	b500       = "500"       // 500 with an OpenAI error body
	b429       = "429"       // 429 with Retry-After: 2
	b429Hint   = "429hint"   // 429 whose message says "try again in 1.5s", no header
	bHang      = "hang"      // never answers until the client gives up
	bOversized = "oversized" // 200, a valid summary far over the token cap
	bHuge      = "huge"      // 200, a reply of more than 1 MiB
)

func newFakeOpenAI(t *testing.T, script ...string) *fakeOpenAI {
	t.Helper()
	f := &fakeOpenAI{script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(f.handle))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeOpenAI) requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.bodies)
}

func (f *fakeOpenAI) body(i int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.bodies[i]
}

func (f *fakeOpenAI) handle(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	b, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	i := len(f.bodies)
	f.bodies = append(f.bodies, string(b))
	step := f.script[min(i, len(f.script)-1)]
	f.mu.Unlock()

	apiError := func(code int, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		fmt.Fprintf(w, `{"error":{"message":%q,"type":"server_error"}}`, msg)
	}
	switch step {
	case bValid:
		writeCompletion(w, goodJSON)
	case bFenced:
		writeCompletion(w, "```json\n"+goodJSON+"\n```")
	case bMalformed:
		writeCompletion(w, "The conversation was about fixing a parser.")
	case bBadBody:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "<html>oops</html>")
	case b500:
		apiError(http.StatusInternalServerError, "The server had an error while processing your request.")
	case b429:
		w.Header().Set("Retry-After", "2")
		apiError(http.StatusTooManyRequests, "Rate limit reached for gpt-4o-mini.")
	case b429Hint:
		apiError(http.StatusTooManyRequests, "Rate limit reached for gpt-4o-mini. Please try again in 1.5s.")
	case bHang:
		<-r.Context().Done()
	case bOversized:
		var kps []string
		for i := range 30 {
			kps = append(kps, fmt.Sprintf("key point %02d: %s", i, strings.Repeat("detail ", 30)))
		}
		s := prompts.Summary{Summary: "The crash in loader.go was fixed. " + strings.Repeat("More words here. ", 100), KeyPoints: kps}
		writeCompletion(w, prompts.MarshalSummary(s))
	case bHuge:
		writeCompletion(w, `{"summary":"`+strings.Repeat("a", 1<<20+10)+`"}`)
	default:
		apiError(http.StatusTeapot, "unknown script step "+step)
	}
}

func writeCompletion(w http.ResponseWriter, content string) {
	resp := map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o-mini",
		"choices": []any{map[string]any{
			"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content},
		}},
		"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

// openaiModel is the real langchaingo OpenAI client pointed at f.
func (f *fakeOpenAI) model(t *testing.T, retryAfterTransport bool) llms.Model {
	t.Helper()
	opts := []openai.Option{openai.WithBaseURL(f.srv.URL + "/v1"), openai.WithToken("test"), openai.WithModel("gpt-4o-mini")}
	if retryAfterTransport {
		opts = append(opts, openai.WithHTTPClient(&http.Client{Transport: NewRetryAfterTransport(nil)}))
	}
	m, err := openai.New(opts...)
	require.NoError(t, err)
	return m
}

func TestLLMSummarizerOpenAIIntegration(t *testing.T) {
	tests := []struct {
		name         string
		script       []string
		transport    bool
		maxTokens    int
		wantRequests int
		wantSleeps   []time.Duration
		wantErrIs    error
		wantErr      string
		check        func(t *testing.T, rec summary.Record)
	}{
		{name: "valid", script: []string{bValid}, wantRequests: 1, check: func(t *testing.T, rec summary.Record) {
			assert.Contains(t, rec.Summary, "fix TestParse in parse.go")
			assert.Equal(t, []string{"parse.go", "TestParse"}, rec.Context.DomainEntities)
		}},
		{name: "fenced", script: []string{bFenced}, wantRequests: 1, check: func(t *testing.T, rec summary.Record) {
			assert.Equal(t, summary.ModeLLM, rec.Mode)
		}},
		{name: "malformed is not retried", script: []string{bMalformed, bValid}, wantRequests: 1,
			wantErrIs: prompts.ErrInvalidSummary, wantErr: "llmsummary: summarize 4 messages: giving up after 1 attempts"},
		{name: "body that is not JSON is not retried", script: []string{bBadBody, bValid}, wantRequests: 1,
			wantErr: "giving up after 1 attempts"},
		{name: "500 retried once", script: []string{b500, bValid}, wantRequests: 2,
			wantSleeps: []time.Duration{250 * time.Millisecond}},
		{name: "500 twice gives up", script: []string{b500, b500, bValid}, wantRequests: 2,
			wantSleeps: []time.Duration{250 * time.Millisecond}, wantErr: "giving up after 2 attempts: API returned unexpected status code: 500"},
		{name: "429 Retry-After through the transport", script: []string{b429, bValid}, transport: true, wantRequests: 2,
			wantSleeps: []time.Duration{2 * time.Second}},
		{name: "429 without the transport falls back to the backoff", script: []string{b429, bValid}, wantRequests: 2,
			wantSleeps: []time.Duration{250 * time.Millisecond}},
		{name: "429 with a hint in the message", script: []string{b429Hint, bValid}, wantRequests: 2,
			wantSleeps: []time.Duration{1500 * time.Millisecond}},
		{name: "oversized reply is shrunk without a second call", script: []string{bOversized, bValid}, maxTokens: 150, wantRequests: 1,
			check: func(t *testing.T, rec summary.Record) {
				assert.LessOrEqual(t, quarterCount(rec.Summary), 150)
				assert.True(t, strings.HasPrefix(rec.Summary, "The crash in loader.go was fixed."))
			}},
		{name: "huge reply is a validation error", script: []string{bHuge, bValid}, wantRequests: 1, wantErrIs: prompts.ErrInvalidSummary},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeOpenAI(t, tt.script...)
			var sl sleeps
			s := New([]llms.Model{f.model(t, tt.transport)}, WithSleep(sl.sleep))
			req := baseRequest(sampleMessages())
			if tt.maxTokens > 0 {
				req.MaxTokens = tt.maxTokens
			}
			rec, err := s.Summarize(context.Background(), req)
			assert.Equal(t, tt.wantRequests, f.requests(), "requests received")
			assert.Equal(t, tt.wantSleeps, sl.d)
			if tt.wantErr != "" || tt.wantErrIs != nil {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				if tt.wantErrIs != nil {
					assert.ErrorIs(t, err, tt.wantErrIs)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, summary.ModeLLM, rec.Mode)
			assert.LessOrEqual(t, quarterCount(rec.Summary), req.MaxTokens)
			if tt.check != nil {
				tt.check(t, rec)
			}
		})
	}
}

func TestLLMSummarizerOpenAIRequest(t *testing.T) {
	f := newFakeOpenAI(t, bValid)
	_, err := New([]llms.Model{f.model(t, false)}).Summarize(context.Background(), baseRequest(sampleMessages()))
	require.NoError(t, err)
	require.Equal(t, 1, f.requests())
	var body struct {
		Model          string            `json:"model"`
		Messages       []json.RawMessage `json:"messages"`
		Temperature    *float64          `json:"temperature"`
		MaxCompletion  int               `json:"max_completion_tokens"`
		Stream         bool              `json:"stream"`
		ResponseFormat struct {
			Type string `json:"type"`
		} `json:"response_format"`
	}
	require.NoError(t, json.Unmarshal([]byte(f.body(0)), &body))
	assert.Equal(t, "gpt-4o-mini", body.Model)
	assert.Len(t, body.Messages, 2)
	require.NotNil(t, body.Temperature)
	assert.Equal(t, 0.0, *body.Temperature)
	assert.Equal(t, replyCap(500), body.MaxCompletion)
	assert.False(t, body.Stream)
	assert.Equal(t, "json_object", body.ResponseFormat.Type)
}

func TestLLMSummarizerOpenAIHang(t *testing.T) {
	t.Run("caller deadline: the retry and the next model fit inside it", func(t *testing.T) {
		f, next := newFakeOpenAI(t, bHang), newFakeOpenAI(t, bValid)
		var sl sleeps
		s := New([]llms.Model{f.model(t, false), next.model(t, false)}, WithSleep(sl.sleep))
		ctx, cancel := context.WithTimeout(context.Background(), 900*time.Millisecond)
		defer cancel()
		rec, err := s.Summarize(ctx, baseRequest(sampleMessages()))
		require.NoError(t, err)
		assert.Equal(t, summary.ModeLLM, rec.Mode)
		assert.Equal(t, 2, f.requests(), "each attempt had its share of the deadline")
		assert.Equal(t, 1, next.requests())
	})
	t.Run("per-attempt timeout is retried", func(t *testing.T) {
		f := newFakeOpenAI(t, bHang, bValid)
		var sl sleeps
		p := DefaultRetryPolicy()
		p.AttemptTimeout = 100 * time.Millisecond
		s := New([]llms.Model{f.model(t, false)}, WithRetryPolicy(p), WithSleep(sl.sleep))
		rec, err := s.Summarize(context.Background(), baseRequest(sampleMessages()))
		require.NoError(t, err)
		assert.Equal(t, summary.ModeLLM, rec.Mode)
		assert.Equal(t, 2, f.requests())
		assert.Equal(t, []time.Duration{250 * time.Millisecond}, sl.d)
	})
}

func TestLLMSummarizerOpenAIModelFallback(t *testing.T) {
	light, heavy := newFakeOpenAI(t, bMalformed), newFakeOpenAI(t, bValid)
	s := New([]llms.Model{light.model(t, false), heavy.model(t, false)})
	rec, calls, err := summarizeReported(s, baseRequest(sampleMessages()))
	require.NoError(t, err)
	st := s.Stats()
	assert.Equal(t, summary.ModeLLM, rec.Mode)
	assert.Equal(t, 1, light.requests())
	assert.Equal(t, 1, heavy.requests())
	assert.Equal(t, 1, st.ModelFallbacks)
	assert.Equal(t, 1, st.ValidationErrors)
	assert.Equal(t, light.body(0), heavy.body(0), "both models get the same prompt")

	// The reports carry the provider's usage (the fake reports 10 and 10).
	require.Len(t, calls, 2)
	for i, c := range calls {
		assert.Equal(t, "*openai.LLM", c.Model, "the type name when no name is given")
		assert.Equal(t, 1, c.Attempt)
		assert.Equal(t, 10, c.InputTokens)
		assert.Equal(t, 10, c.OutputTokens)
		assert.False(t, c.Start.IsZero())
		assert.Equal(t, i == 0, c.Err != nil, "call %d: %v", i, c.Err)
	}
	assert.ErrorIs(t, calls[0].Err, prompts.ErrInvalidSummary)
	assert.Equal(t, 20, st.InputTokens)
	assert.Equal(t, 20, st.OutputTokens)
}

func TestLLMSummarizerOpenAISecrets(t *testing.T) {
	secrets := []string{
		"AKIAIOSFODNN7EXAMPLE",
		"ghp_0123456789abcdefghijABCDEFGHIJ012345",
		"sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ012345",
		"xoxb-2222222222-abcdefghijkl",
		"s3cr3tPassw0rd",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
	}
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Deploy with AWS key "+secrets[0]+" and GitHub token "+secrets[1]),
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
			llms.ToolCall{ID: "c1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "bash",
				Arguments: `{"command":"curl -H 'Authorization: Bearer ` + secrets[5] + `' https://api.example.com"}`}},
		}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{ToolCallID: "c1", Name: "bash", Content: "OPENAI_API_KEY=" + secrets[2] + "\nSLACK=" + secrets[3] + "\n"},
		}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{ToolCallID: "c2", Name: "cat", Content: `{"db":{"password":"` + secrets[4] + `"}}`},
		}},
	}
	f := newFakeOpenAI(t, bValid)
	req := baseRequest(msgs)
	req.Previous = &summary.Record{ID: "p", Depth: 1, Summary: "Earlier the user shared postgres://app:" + secrets[4] + "@db/prod"}
	req.Depth = 2
	_, err := New([]llms.Model{f.model(t, false)}).Summarize(context.Background(), req)
	require.NoError(t, err)
	require.Equal(t, 1, f.requests())
	body := f.body(0)
	for _, s := range secrets {
		assert.NotContains(t, body, s, "a secret reached the summarizer model")
	}
	assert.Contains(t, body, "[REDACTED:")
	assert.Contains(t, body, "https://api.example.com", "the rest of the text is kept")
}

// TestLLMSummarizerOpenAIErrorsAreClassified checks the classification of
// the errors the real client returns, not strings written by hand.
func TestLLMSummarizerOpenAIErrorsAreClassified(t *testing.T) {
	for step, want := range map[string]bool{b500: true, b429: true, bBadBody: false} {
		f := newFakeOpenAI(t, step)
		_, err := f.model(t, false).GenerateContent(context.Background(), []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")})
		require.Error(t, err, step)
		assert.Equal(t, want, IsRetryable(err), "%s: %v", step, err)
	}
	f := newFakeOpenAI(t, bHang)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := f.model(t, false).GenerateContent(ctx, []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")})
	require.Error(t, err)
	assert.False(t, errors.Is(err, context.DeadlineExceeded), "the client hides the cause: %v", err)
	assert.True(t, IsRetryable(err), "its text still reads as a timeout: %v", err)
}

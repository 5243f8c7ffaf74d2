package middleware

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
)

// openAIServer emulates /v1/chat/completions: the first overflows requests
// fail with OpenAI's context_length_exceeded error, the others succeed and
// report promptTokens.
type openAIServer struct {
	mu           sync.Mutex
	overflows    int
	promptTokens int
	bodies       []chatRequest
}

type chatRequest struct {
	Messages []struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	} `json:"messages"`
	Tools []json.RawMessage `json:"tools"`
}

func (s *openAIServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req chatRequest
	if r.URL.Path != "/v1/chat/completions" || json.Unmarshal(body, &req) != nil {
		http.Error(w, "bad request", http.StatusNotFound)
		return
	}
	s.mu.Lock()
	s.bodies = append(s.bodies, req)
	n := len(s.bodies)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if n <= s.overflows {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9337 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`)
		return
	}
	fmt.Fprintf(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"done"},"finish_reason":"stop"}],"usage":{"prompt_tokens":%d,"completion_tokens":1,"total_tokens":%d}}`, s.promptTokens, s.promptTokens+1)
}

func (s *openAIServer) requests() []chatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]chatRequest(nil), s.bodies...)
}

func newOpenAI(t *testing.T, srv *httptest.Server) *openai.LLM {
	t.Helper()
	llm, err := openai.New(openai.WithBaseURL(srv.URL+"/v1"), openai.WithToken("x"), openai.WithModel("gpt-4o"))
	require.NoError(t, err)
	return llm
}

// TestOpenAIOverflowRetry: the real langchaingo OpenAI client gets a 400
// context_length_exceeded once; Wrap compacts at the emergency level and the
// retry succeeds with a smaller request.
func TestOpenAIOverflowRetry(t *testing.T) {
	api := &openAIServer{overflows: 1, promptTokens: 1000}
	srv := httptest.NewServer(api)
	defer srv.Close()
	client := newOpenAI(t, srv)

	_, direct := client.GenerateContent(context.Background(), run("d", 1, 10))
	require.Error(t, direct, "the first request overflows")
	assert.False(t, llms.IsTokenLimitError(direct), "v0.1.14's openai client does not type the error...")
	assert.True(t, IsOverflowError(direct), "...so IsOverflowError matches its text")

	api.overflows = 2 // the next request overflows too, the one after succeeds
	c := newCompactor(t, 16_000)
	var info CallInfo
	m := Wrap(client, c, WithObserver(func(i CallInfo) { info = i }))
	msgs := run("o", 16, 1500)
	resp, err := m.GenerateContent(context.Background(), msgs)
	require.NoError(t, err)
	assert.Equal(t, "done", resp.Choices[0].Content)
	reqs := api.requests()
	require.Len(t, reqs, 3, "the direct call, the overflow, the retry")
	assert.True(t, info.Retried)
	require.Len(t, info.Compactions, 1)
	assert.Equal(t, compact.ReasonOverflow, info.Compactions[0].Reason)
	assert.Len(t, reqs[1].Messages, len(msgs), "the first attempt sent everything")
	assert.Less(t, info.SentTokens, info.InputTokens*6/10)
	assert.Equal(t, 1000, info.ProviderPromptTokens)

	api.overflows = 100 // persistent: one retry, then the client's error
	_, err = m.GenerateContent(context.Background(), run("p", 16, 1500))
	require.Error(t, err)
	assert.True(t, IsOverflowError(err))
	assert.Len(t, api.requests(), 5)
}

// TestOpenAICalibration: the provider reports more prompt tokens than the
// engine counted; the session's budget shrinks.
func TestOpenAICalibration(t *testing.T) {
	api := &openAIServer{}
	srv := httptest.NewServer(api)
	defer srv.Close()
	c := newCompactor(t, 16_000)
	var infos []CallInfo
	m := Wrap(newOpenAI(t, srv), c, WithObserver(func(i CallInfo) { infos = append(infos, i) }))
	ctx := WithSession(context.Background(), "cal")
	msgs := run("c", 4, 1500)
	api.promptTokens = c.CountTokens(msgs) * 3 / 2
	for i := 0; i < 3; i++ {
		_, err := m.GenerateContent(ctx, msgs)
		require.NoError(t, err)
	}
	last := infos[len(infos)-1]
	assert.Equal(t, api.promptTokens, last.ProviderPromptTokens)
	assert.InDelta(t, 1.5, last.Calibration, 0.1)
	prev := infos[len(infos)-2].Calibration
	assert.Greater(t, prev, 1.2)
	assert.InDelta(t, float64(c.Budget())/prev, float64(last.Budget), 1, "the next call uses the calibrated budget")
}

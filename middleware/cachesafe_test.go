package middleware

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/llmsummary"
)

// rawServer records the raw messages of every chat request and answers
// summarizer requests (JSON mode) with a valid summary, others with "ok".
type rawServer struct {
	mu   sync.Mutex
	reqs []rawRequest
}

type rawRequest struct {
	Messages       []json.RawMessage `json:"messages"`
	ResponseFormat json.RawMessage   `json:"response_format"`
}

func (s *rawServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req rawRequest
	if json.Unmarshal(body, &req) != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	content := "ok"
	if len(req.ResponseFormat) > 0 && string(req.ResponseFormat) != "null" {
		sum, _ := json.Marshal(`{"summary":"The user asked about orders; the assistant answered each.","keyPoints":[],"context":{"participants":["user","assistant"],"decisions":[],"actionItems":[],"unresolved":[],"domainEntities":[]}}`)
		content = strings.Trim(string(sum), `"`)
		content = strings.ReplaceAll(content, `\"`, `"`)
	}
	reply, _ := json.Marshal(content)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"c","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`, reply)
}

func (s *rawServer) requests() []rawRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]rawRequest(nil), s.reqs...)
}

const cacheSafeSecret = "sk-proj-CacheSafe0Prefix1Secret2Key3"

// chatTurns drives a chat through llm until the summarizer has run.
func chatTurns(t *testing.T, llm llms.Model, turns int) {
	t.Helper()
	ctx := WithSession(context.Background(), "conversation-1")
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are the order desk.")}
	for i := 0; i < turns; i++ {
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprintf("Order %d: status? My key is %s. %s", i, cacheSafeSecret, strings.Repeat("Please check the warehouse. ", 20))))
		resp, err := llm.GenerateContent(ctx, msgs)
		require.NoError(t, err)
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeAI, resp.Choices[0].Content+strings.Repeat(" It ships tomorrow.", 20)))
	}
}

// TestCacheSafeSummarizerRequest: when the summarizer is the wrapped model
// itself, its request is the agent's previous request, byte for byte,
// plus one instruction: the provider's prompt cache serves all but the
// instruction. The prefix is not redacted (the model already received it).
func TestCacheSafeSummarizerRequest(t *testing.T) {
	api := &rawServer{}
	srv := httptest.NewServer(api)
	defer srv.Close()
	model, err := openai.New(openai.WithBaseURL(srv.URL+"/v1"), openai.WithToken("x"), openai.WithModel("gpt-4o"))
	require.NoError(t, err)
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(8_000), compact.WithSummarizer(model))
	require.NoError(t, err)
	chatTurns(t, Wrap(model, c), 30)

	reqs := api.requests()
	checked := 0
	for i, r := range reqs {
		if len(r.ResponseFormat) == 0 || string(r.ResponseFormat) == "null" {
			continue
		}
		require.Positive(t, i)
		prev := reqs[i-1]
		require.Len(t, r.Messages, len(prev.Messages)+1, "the agent's request plus one instruction")
		for k := range prev.Messages {
			require.JSONEq(t, string(prev.Messages[k]), string(r.Messages[k]), "message %d as the agent sent it", k)
		}
		var instr struct{ Role, Content string }
		require.NoError(t, json.Unmarshal(r.Messages[len(r.Messages)-1], &instr))
		last := instr.Content
		assert.Equal(t, "user", instr.Role)
		assert.True(t, strings.HasPrefix(last, llmsummary.CacheSafeTag), "%.80q", last)
		assert.Contains(t, string(r.Messages[1]), cacheSafeSecret, "the prefix is what the model already received: not redacted")
		assert.NotContains(t, last, cacheSafeSecret)
		checked++
	}
	require.Positive(t, checked, "the summarizer ran")
}

// TestCacheSafeOffForAnotherModel: a summarizer that is another model gets
// today's capped, redacted transcript.
func TestCacheSafeOffForAnotherModel(t *testing.T) {
	api := &rawServer{}
	srv := httptest.NewServer(api)
	defer srv.Close()
	newModel := func() *openai.LLM {
		m, err := openai.New(openai.WithBaseURL(srv.URL+"/v1"), openai.WithToken("x"), openai.WithModel("gpt-4o"))
		require.NoError(t, err)
		return m
	}
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(8_000), compact.WithSummarizer(newModel()))
	require.NoError(t, err)
	chatTurns(t, Wrap(newModel(), c), 30)
	checked := 0
	for _, r := range api.requests() {
		if len(r.ResponseFormat) == 0 || string(r.ResponseFormat) == "null" {
			continue
		}
		require.Len(t, r.Messages, 2, "system prompt and transcript")
		assert.NotContains(t, string(r.Messages[1]), llmsummary.CacheSafeTag)
		assert.NotContains(t, string(r.Messages[1]), cacheSafeSecret, "the transcript is redacted")
		checked++
	}
	require.Positive(t, checked, "the summarizer ran")
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunOpenAI drives the example through langchaingo's real OpenAI client
// against a local server that answers like OpenAI: two tool calls, then an
// answer, with usage figures. The request offers the five tools, recall
// with its own description only.
func TestRunOpenAI(t *testing.T) {
	var mu sync.Mutex
	n := 0
	var recallDesc string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Model    string            `json:"model"`
			Messages []json.RawMessage `json:"messages"`
			Tools    []struct {
				Function struct {
					Name        string `json:"name"`
					Description string `json:"description"`
				} `json:"function"`
			} `json:"tools"`
		}
		if r.URL.Path != "/v1/chat/completions" || json.Unmarshal(body, &req) != nil || len(req.Tools) != 5 {
			http.Error(w, "unexpected request", http.StatusBadRequest)
			return
		}
		mu.Lock()
		for _, tl := range req.Tools {
			if tl.Function.Name == "recall" {
				recallDesc = tl.Function.Description
			}
		}
		n++
		k := n
		mu.Unlock()
		msg := `{"role":"assistant","content":"The project defines things."}`
		switch k {
		case 1:
			msg = `{"role":"assistant","content":"","tool_calls":[{"id":"call_1","type":"function","function":{"name":"list_dir","arguments":"{\"__arg1\":\".\"}"}}]}`
		case 2:
			msg = `{"role":"assistant","content":"","tool_calls":[{"id":"call_2","type":"function","function":{"name":"read_file","arguments":"{\"__arg1\":\"thing0.go\"}"}}]}`
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"message":%s,"finish_reason":"stop"}],"usage":{"prompt_tokens":%d,"completion_tokens":5,"total_tokens":%d}}`,
			req.Model, msg, 300*k+len(body)/4, 300*k+len(body)/4+5)
	}))
	defer srv.Close()
	t.Setenv("OPENAI_API_KEY", "test")
	t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-dir", project(t), "-quiet"}, &out, &errb)
	require.Equal(t, 0, code, errb.String())
	s := out.String()
	assert.Contains(t, s, "agent: openai gpt-4o-mini")
	assert.Contains(t, s, "The project defines things.")
	assert.Contains(t, s, "Totals: 3 model calls")
	assert.Contains(t, s, "[provider counted", "the provider's usage is shown")
	assert.Contains(t, s, "none: the model did not call the recall tool")
	mu.Lock()
	defer mu.Unlock()
	assert.Contains(t, recallDesc, "ref:", "the recall tool's own description reaches the model")
}

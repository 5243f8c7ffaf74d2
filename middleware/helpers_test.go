package middleware

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// recorder is a fake llms.Model: it records deep copies of what it receives
// and answers with reply (or "ok"). Safe for concurrent use.
type recorder struct {
	mu    sync.Mutex
	calls [][]llms.MessageContent
	opts  []llms.CallOptions
	reply func(n int, msgs []llms.MessageContent) (*llms.ContentResponse, error)
}

func (r *recorder) GenerateContent(_ context.Context, msgs []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	var co llms.CallOptions
	for _, o := range options {
		o(&co)
	}
	r.mu.Lock()
	r.calls = append(r.calls, deepCopy(msgs))
	r.opts = append(r.opts, co)
	n := len(r.calls)
	reply := r.reply
	r.mu.Unlock()
	if reply != nil {
		return reply(n, msgs)
	}
	return textResponse("ok"), nil
}

func (r *recorder) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, r, prompt, options...)
}

func (r *recorder) received() [][]llms.MessageContent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]llms.MessageContent(nil), r.calls...)
}

func textResponse(s string) *llms.ContentResponse {
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: s}}}
}

func deepCopy(msgs []llms.MessageContent) []llms.MessageContent {
	out := make([]llms.MessageContent, len(msgs))
	for i, m := range msgs {
		out[i] = llms.MessageContent{Role: m.Role, Parts: append([]llms.ContentPart(nil), m.Parts...)}
	}
	return out
}

func newCompactor(t testing.TB, window int, opts ...compact.Option) *compact.Compactor {
	t.Helper()
	c, err := compact.New(append([]compact.Option{compact.WithModel("gpt-4o"), compact.WithContextWindow(window)}, opts...)...)
	require.NoError(t, err)
	return c
}

func text(m llms.MessageContent) string { return partsText(m) }

// run builds the message list of an agent after rounds tool rounds: a system
// prompt, the task, then per round an assistant tool call and its result of
// about size bytes. Every message is distinct.
func run(tag string, rounds, size int) []llms.MessageContent {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are a careful coding agent."),
		llms.TextParts(llms.ChatMessageTypeHuman, "Task "+tag+": find where the budget is computed."),
	}
	for i := 0; i < rounds; i++ {
		msgs = append(msgs, round(tag, i, size)...)
	}
	return msgs
}

func round(tag string, i, size int) []llms.MessageContent {
	id := fmt.Sprintf("call_%s_%d", tag, i)
	name := []string{"read_file", "grep", "list_dir", "run_command"}[i%4]
	args := fmt.Sprintf(`{"path":"pkg/%s/file%d.go"}`, tag, i)
	var b strings.Builder
	for l := 0; b.Len() < size; l++ {
		fmt.Fprintf(&b, "%s %d: func handler%d_%d(ctx context.Context) error { return nil } // %s\n", name, l, i, l, tag)
	}
	return []llms.MessageContent{
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: name, Arguments: args}}}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id, Name: name, Content: b.String()}}},
	}
}

// checkSent asserts the invariants on one request the wrapped model received.
func checkSent(t testing.TB, c *compact.Compactor, budget int, sent, built []llms.MessageContent) {
	t.Helper()
	require.LessOrEqual(t, c.CountTokens(sent), budget, "I1 budget")
	require.NoError(t, compact.CheckToolPairs(sent), "I2 tool pairs")
	for i := 0; i < len(built) && built[i].Role == llms.ChatMessageTypeSystem; i++ {
		require.Equal(t, built[i], sent[i], "I3 system message %d", i)
	}
	last := -1
	for i := len(built) - 1; i >= 0; i-- {
		if built[i].Role == llms.ChatMessageTypeHuman {
			last = i
			break
		}
	}
	if last >= 0 {
		require.Contains(t, sent, built[last], "I4 latest user message")
	}
}

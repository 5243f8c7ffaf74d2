package reliability

import (
	"context"
	"fmt"
	"log/slog"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/middleware"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestRecallSecrets: a recall answer goes to the agent only. The agent
// recalls every compacted original of the secret conversation (the
// answers hold the secrets: the agent had seen them), the answers join the
// conversation as tool results, and the run goes on until they are
// compacted in turn: no summary, masked output, event or log line ever
// shows a secret.
func TestRecallSecrets(t *testing.T) {
	conv := secretConversation(t)
	leaks := newLeakCounter()
	var evs eventRecorder
	var logs syncBuffer
	c, err := compact.New(compact.WithContextWindow(6_000), onEvent(evs.observe))
	require.NoError(t, err)
	rec := &sinkModel{}
	m := middleware.Wrap(rec, c, middleware.WithLogger(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	ctx := middleware.WithSession(context.Background(), "secrets")
	tool := m.RecallTool()
	send := func(msgs []llms.MessageContent) {
		t.Helper()
		_, err := m.GenerateContent(ctx, msgs)
		require.NoError(t, err)
		scanDerived(leaks, "recall: compacted context", msgs, rec.last())
	}
	for k := 2; k <= len(conv); k++ {
		if conv[k-1].Role != llms.ChatMessageTypeAI {
			send(conv[:k])
		}
	}
	res, err := c.View(context.Background(), m.Session("secrets"), conv)
	require.NoError(t, err)
	msgs := append([]llms.MessageContent(nil), conv...)
	recalled := 0
	for i, ref := range res.Refs {
		if ref == "" || conv[i].Role != llms.ChatMessageTypeTool {
			continue
		}
		answer, err := tool.Call(ctx, compact.RefPrefix+ref)
		require.NoError(t, err)
		recalled++
		id := fmt.Sprintf("recall_%d", i)
		msgs = append(msgs,
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: id, Type: "function",
				FunctionCall: &llms.FunctionCall{Name: "recall", Arguments: `{"__arg1":"` + compact.RefPrefix + ref + `"}`}}}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id, Name: "recall", Content: answer}}},
			llms.TextParts(llms.ChatMessageTypeAI, "Noted."))
		send(msgs)
	}
	require.Greater(t, recalled, 3)
	for i := range 40 { // the recall answers leave the tail and are compacted
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprintf("Next step %d, please.", i)),
			llms.TextParts(llms.ChatMessageTypeAI, "Done."))
		send(msgs)
	}
	scanSession(leaks, "recall", m.Session("secrets"))
	evs.scan(leaks, "recall: events")
	leaks.scan("recall: logs", "slog output", logs.String())
	leaks.report(t)
}

// sinkModel records the last messages it was sent and answers "ok".
type sinkModel struct{ msgs []llms.MessageContent }

func (s *sinkModel) GenerateContent(_ context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	s.msgs = msgs
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: "ok"}}}, nil
}

func (s *sinkModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, s, prompt, opts...)
}

func (s *sinkModel) last() []llms.MessageContent { return s.msgs }

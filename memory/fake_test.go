package memory

import (
	"context"
	"errors"
	"sync"

	"github.com/tmc/langchaingo/llms"
)

// scriptedReply is one scripted model reply: text and optional tool calls.
type scriptedReply struct {
	content   string
	toolCalls []llms.ToolCall
}

// scriptedModel is a deterministic llms.Model for tests: it returns its
// replies in order and records every request. With no replies left it
// answers "ok".
type scriptedModel struct {
	mu       sync.Mutex
	replies  []scriptedReply
	requests [][]llms.MessageContent
}

var _ llms.Model = (*scriptedModel)(nil)

func (m *scriptedModel) GenerateContent(ctx context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests = append(m.requests, append([]llms.MessageContent(nil), msgs...))
	r := scriptedReply{content: "ok"}
	if len(m.replies) > 0 {
		r = m.replies[0]
		m.replies = m.replies[1:]
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: r.content, ToolCalls: r.toolCalls}}}, nil
}

func (m *scriptedModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}

// lastPrompt returns the text of the last request's messages, joined.
func (m *scriptedModel) lastRequest() ([]llms.MessageContent, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.requests) == 0 {
		return nil, errors.New("no request")
	}
	return m.requests[len(m.requests)-1], nil
}

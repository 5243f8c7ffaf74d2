package middleware

import (
	"context"
	"sync"
	"testing"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/testing/llmtest"
)

// lockedMock serializes the calls of an llmtest.MockLLM, which counts its
// calls without a lock while llmtest.TestLLM runs its subtests in parallel.
type lockedMock struct {
	mu sync.Mutex
	m  *llmtest.MockLLM
}

func (l *lockedMock) GenerateContent(ctx context.Context, msgs []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m.GenerateContent(ctx, msgs, options...)
}

func (l *lockedMock) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, l, prompt, options...)
}

func (l *lockedMock) GenerateContentStream(ctx context.Context, msgs []llms.MessageContent, options ...llms.CallOption) (<-chan llms.ContentResponse, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m.GenerateContentStream(ctx, msgs, options...)
}

func conformanceMock() *llmtest.MockLLM {
	return &llmtest.MockLLM{
		CallResponse: "OK",
		GenerateResponse: &llms.ContentResponse{Choices: []*llms.ContentChoice{{
			Content:        "Hello",
			GenerationInfo: map[string]any{"TotalTokens": 10, "PromptTokens": 8, "CompletionTokens": 2},
		}}},
	}
}

// TestConformance runs langchaingo's own model conformance suite on Wrap.
func TestConformance(t *testing.T) {
	t.Run("streaming mock", func(t *testing.T) {
		llmtest.TestLLM(t, Wrap(&lockedMock{m: conformanceMock()}, newCompactor(t, 128_000)))
	})
	t.Run("non-streaming model", func(t *testing.T) {
		rec := &recorder{reply: func(int, []llms.MessageContent) (*llms.ContentResponse, error) {
			return textResponse("Hello"), nil
		}}
		llmtest.TestLLM(t, Wrap(rec, newCompactor(t, 128_000)))
	})
	t.Run("small window", func(t *testing.T) {
		llmtest.TestLLM(t, Wrap(&lockedMock{m: conformanceMock()}, newCompactor(t, 2_000)))
	})
}

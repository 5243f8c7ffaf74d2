package usage

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tmc/langchaingo/llms"
)

func withInfo(m map[string]any) *llms.ContentResponse {
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: "x", GenerationInfo: m}}}
}

func TestCompletionTokens(t *testing.T) {
	tests := []struct {
		name string
		resp *llms.ContentResponse
		want int
		ok   bool
	}{
		{name: "nil response"},
		{name: "nil choice first", resp: &llms.ContentResponse{Choices: []*llms.ContentChoice{nil, {GenerationInfo: map[string]any{"CompletionTokens": 3}}}}, want: 3, ok: true},
		{name: "openai", resp: withInfo(map[string]any{"PromptTokens": 1234, "CompletionTokens": 5}), want: 5, ok: true},
		{name: "anthropic", resp: withInfo(map[string]any{"InputTokens": 100, "OutputTokens": int64(7)}), want: 7, ok: true},
		{name: "bedrock", resp: withInfo(map[string]any{"output_tokens": int32(8)}), want: 8, ok: true},
		{name: "raw usage", resp: withInfo(map[string]any{"completion_tokens": json.Number("9")}), want: 9, ok: true},
		{name: "zero is not a report", resp: withInfo(map[string]any{"CompletionTokens": 0})},
		{name: "infinite", resp: withInfo(map[string]any{"CompletionTokens": math.Inf(1)})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, ok := CompletionTokens(tt.resp)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, n)
		})
	}
}

func TestPromptTokensKeys(t *testing.T) {
	n, ok := PromptTokens(withInfo(map[string]any{"InputTokens": 100, "CacheCreationInputTokens": 50, "CacheReadInputTokens": 850}))
	assert.True(t, ok)
	assert.Equal(t, 1000, n)
	n, ok = PromptTokens(withInfo(map[string]any{"prompt_tokens": float64(12)}))
	assert.True(t, ok)
	assert.Equal(t, 12, n)
	_, ok = PromptTokens(withInfo(map[string]any{"usage": struct{ PromptTokens int }{5}}))
	assert.False(t, ok)
	_, ok = PromptTokens(withInfo(map[string]any{"PromptTokens": uint64(math.MaxUint64), "x": -1}))
	assert.True(t, ok)
}

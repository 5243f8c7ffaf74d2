package middleware

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tmc/langchaingo/llms"
)

func TestPromptTokens(t *testing.T) {
	tests := []struct {
		name string
		resp *llms.ContentResponse
		want int
		ok   bool
	}{
		{name: "nil response"},
		{name: "no choices", resp: &llms.ContentResponse{}},
		{name: "nil choice", resp: &llms.ContentResponse{Choices: []*llms.ContentChoice{nil}}},
		{name: "no info", resp: &llms.ContentResponse{Choices: []*llms.ContentChoice{{}}}},
		{name: "openai", resp: gi(map[string]any{"PromptTokens": 1234, "CompletionTokens": 5}), want: 1234, ok: true},
		{name: "googleai counts cached tokens in PromptTokens", resp: gi(map[string]any{"PromptTokens": 1000, "CacheReadInputTokens": 400}), want: 1000, ok: true},
		{name: "anthropic adds its cache fields", resp: gi(map[string]any{"InputTokens": 100, "CacheCreationInputTokens": 50, "CacheReadInputTokens": 850}), want: 1000, ok: true},
		{name: "bedrock", resp: gi(map[string]any{"input_tokens": int32(77)}), want: 77, ok: true},
		{name: "raw usage", resp: gi(map[string]any{"prompt_tokens": float64(12)}), want: 12, ok: true},
		{name: "json number", resp: gi(map[string]any{"PromptTokens": json.Number("99")}), want: 99, ok: true},
		{name: "string", resp: gi(map[string]any{"PromptTokens": "42"}), want: 42, ok: true},
		{name: "uint64 clamped", resp: gi(map[string]any{"PromptTokens": uint64(math.MaxUint64)}), want: math.MaxInt32, ok: true},
		{name: "NaN", resp: gi(map[string]any{"PromptTokens": math.NaN()})},
		{name: "zero is not a report", resp: gi(map[string]any{"PromptTokens": 0})},
		{name: "negative", resp: gi(map[string]any{"InputTokens": -5})},
		{name: "wrong type", resp: gi(map[string]any{"PromptTokens": []int{1}})},
		{name: "mistral struct", resp: gi(map[string]any{"usage": struct{ PromptTokens int }{5}})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, ok := PromptTokens(tt.resp)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, n)
		})
	}
}

func gi(m map[string]any) *llms.ContentResponse {
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: "x", GenerationInfo: m}}}
}

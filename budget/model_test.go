package budget

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEncodingForModel(t *testing.T) {
	tests := []struct {
		model, want string
	}{
		{"gpt-4o", EncodingO200k},
		{"GPT-4o-Mini", EncodingO200k},
		{"gpt-4o-2024-08-06", EncodingO200k},
		{"openai/gpt-4o", EncodingO200k},
		{"azure/openai/gpt-4o-mini", EncodingO200k},
		{"  gpt-4o  ", EncodingO200k},
		{"ft:gpt-4o-mini-2024-07-18:acme::abc123", EncodingO200k},
		{"chatgpt-4o-latest", EncodingO200k},
		{"gpt-4.1", EncodingO200k},
		{"gpt-4.1-mini", EncodingO200k},
		{"gpt-4.1-nano-2025-04-14", EncodingO200k},
		{"gpt-4.5-preview", EncodingO200k},
		{"gpt-5", EncodingO200k},
		{"gpt-5-mini", EncodingO200k},
		{"gpt-5-nano", EncodingO200k},
		{"o1", EncodingO200k},
		{"o1-mini", EncodingO200k},
		{"o3", EncodingO200k},
		{"o3-mini", EncodingO200k},
		{"o4-mini", EncodingO200k},
		{"gpt-oss-120b", EncodingO200k},
		{"gpt-4", EncodingCL100k},
		{"gpt-4-0613", EncodingCL100k},
		{"gpt-4-turbo", EncodingCL100k},
		{"gpt-4-turbo-2024-04-09", EncodingCL100k},
		{"gpt-3.5-turbo", EncodingCL100k},
		{"gpt-3.5-turbo-0125", EncodingCL100k},
		{"text-embedding-3-small", EncodingCL100k},
		{"text-embedding-3-large", EncodingCL100k},
		{"claude-sonnet-4", EncodingEstimate},
		{"anthropic/claude-3-5-sonnet-20241022", EncodingEstimate},
		{"gemini-2.5-pro", EncodingEstimate},
		{"llama3.1:8b", EncodingEstimate},
		{"mistral-large-latest", EncodingEstimate},
		{"deepseek-chat", EncodingEstimate},
		{"qwen2.5-72b-instruct", EncodingEstimate},
		{"o10", EncodingEstimate},    // "o1" must not match a longer number
		{"gpt-40", EncodingEstimate}, // nor "gpt-4"
		{"", EncodingEstimate},
		{"unknown-model", EncodingEstimate},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			assert.Equal(t, tt.want, EncodingForModel(tt.model))
		})
	}
}

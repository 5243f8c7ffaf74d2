package budget

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestContextWindow(t *testing.T) {
	tests := []struct {
		model string
		want  int
	}{
		{"gpt-4o", 128_000},
		{"gpt-4o-mini", 128_000},
		{"openai/gpt-4o-2024-08-06", 128_000},
		{"gpt-4.1", 1_047_576},
		{"gpt-4.1-mini", 1_047_576},
		{"gpt-4.1-nano", 1_047_576},
		{"gpt-4.5-preview", 128_000},
		{"gpt-5", 400_000},
		{"gpt-5-mini", 400_000},
		{"gpt-5-nano", 400_000},
		{"gpt-5-chat-latest", 128_000},
		{"o1", 200_000},
		{"o1-mini", 128_000},
		{"o3", 200_000},
		{"o3-mini", 200_000},
		{"o4-mini", 200_000},
		{"gpt-4", 8_192},
		{"gpt-4-0613", 8_192},
		{"gpt-4-32k", 32_768},
		{"gpt-4-turbo", 128_000},
		{"gpt-4-0125-preview", 128_000},
		{"gpt-3.5-turbo", 16_385},
		{"gpt-3.5-turbo-0125", 16_385},
		{"claude-3-opus-20240229", 200_000},
		{"claude-3-5-sonnet-20241022", 200_000},
		{"claude-3-7-sonnet-latest", 200_000},
		{"claude-sonnet-4", 200_000},
		{"anthropic/claude-sonnet-4", 200_000},
		{"claude-opus-4-1-20250805", 200_000},
		{"claude-haiku-4-5", 200_000},
		{"us.anthropic.claude-3-7-sonnet-20250219-v1:0", 200_000},
		{"claude-2.0", 100_000},
		{"gemini-1.5-pro", 2_097_152},
		{"gemini-1.5-pro-002", 2_097_152},
		{"gemini-1.5-flash", 1_048_576},
		{"gemini-2.0-flash", 1_048_576},
		{"gemini-2.5-pro", 1_048_576},
		{"google/gemini-3-pro-preview", 1_048_576},
		{"llama3:8b", 8_192},
		{"llama3-70b-8192", 8_192},
		{"llama3.1:8b", 131_072},
		{"meta-llama/Llama-3.1-8B-Instruct", 131_072},
		{"meta-llama/Meta-Llama-3.1-70B-Instruct", 131_072},
		{"llama-3.3-70b-versatile", 131_072},
		{"meta.llama3-1-70b-instruct-v1:0", 131_072},
		{"mistral-large-latest", 131_072},
		{"mistral-large-2411", 131_072},
		{"deepseek-chat", 131_072},
		{"deepseek-reasoner", 131_072},
		{"deepseek/deepseek-r1", 131_072},
		{"qwen2.5-72b-instruct", 131_072},
		{"Qwen/Qwen2.5-7B-Instruct", 131_072},
		{"qwen2.5:3b", 32_768},
		{"qwen2.5-1.5b-instruct", 32_768},
		{"qwen3:8b", 32_768},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			got, ok := LookupContextWindow(tt.model)
			assert.True(t, ok)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.want, ContextWindow(tt.model))
		})
	}
}

func TestContextWindowUnknown(t *testing.T) {
	for _, model := range []string{"", "my-local-model", "o10", "anthropic.", ".claude", "x.y.z"} {
		t.Run(model, func(t *testing.T) {
			got, ok := LookupContextWindow(model)
			assert.False(t, ok)
			assert.Zero(t, got)
			assert.Equal(t, DefaultContextWindow, ContextWindow(model))
		})
	}
}

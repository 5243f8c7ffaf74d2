package middleware

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tmc/langchaingo/llms"
)

func TestIsOverflowError(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{name: "nil"},
		{name: "typed", err: llms.ErrTokenLimit, want: true},
		{name: "typed and wrapped", err: fmt.Errorf("call: %w", llms.NewError(llms.ErrCodeTokenLimit, "anthropic", "too long")), want: true},
		{name: "openai v0.1.14 client text", err: overflowErr(), want: true},
		{name: "openai code", err: errors.New(`{"code":"context_length_exceeded"}`), want: true},
		{name: "anthropic", err: errors.New("prompt is too long: 210000 tokens > 200000 maximum"), want: true},
		{name: "bedrock", err: errors.New("ValidationException: Input is too long for requested model."), want: true},
		{name: "llama.cpp", err: errors.New("the request exceeds the available context size, try increasing it"), want: true},
		{name: "mis-mapped as invalid request", err: llms.NewError(llms.ErrCodeInvalidRequest, "openai", "400").WithCause(overflowErr()), want: true},
		{name: "rate limit on tokens", err: errors.New("Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Requested 31000. too many tokens"), want: false},
		{name: "typed rate limit", err: llms.NewError(llms.ErrCodeRateLimit, "openai", "maximum context length"), want: false},
		{name: "quota", err: errors.New("quota exceeded: too many tokens this month")},
		{name: "auth", err: errors.New("API returned unexpected status code: 401: invalid api key")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, IsOverflowError(tt.err))
		})
	}
}

package middleware

import (
	"errors"
	"strings"

	"github.com/tmc/langchaingo/llms"
)

// overflowPatterns are lower-case fragments of the context-overflow errors
// of the providers langchaingo wraps, whose clients (openai, ollama, ...)
// return the provider's message as plain text rather than an *llms.Error.
var overflowPatterns = []string{
	"context_length_exceeded",              // OpenAI error code
	"maximum context length",               // OpenAI, vLLM, LiteLLM
	"context length exceeded",              // generic
	"exceeds the context window",           // OpenAI Responses, Gemini
	"prompt is too long",                   // Anthropic
	"input is too long",                    // Bedrock
	"too many tokens",                      // generic
	"exceeds the maximum number of tokens", // Gemini
	"input length exceeds",                 // Ollama, llama.cpp variants
	"exceeds the available context size",   // llama.cpp server
	"reduce the length of the messages",
}

// IsOverflowError reports whether err says that the prompt exceeded the
// model's context window: [llms.IsTokenLimitError] (an *llms.Error with
// code [llms.ErrCodeTokenLimit], as the mapped provider errors are), or an
// error whose text carries one of the providers' overflow messages
// ("context_length_exceeded", "maximum context length", "prompt is too
// long", ...). langchaingo v0.1.14's openai client returns the provider's
// 400 as plain text, so the text match is what catches OpenAI overflows.
// Rate limits ("tokens per min", quotas) are not overflows. A nil err is false.
func IsOverflowError(err error) bool {
	if err == nil {
		return false
	}
	if llms.IsTokenLimitError(err) {
		return true
	}
	var le *llms.Error
	if errors.As(err, &le) && le.Code != "" && le.Code != llms.ErrCodeTokenLimit && le.Code != llms.ErrCodeInvalidRequest && le.Code != llms.ErrCodeUnknown {
		return false
	}
	return overflowText(err, 0)
}

// overflowText matches the overflow messages in the text of err and of the
// errors it wraps (an *llms.Error does not print its cause).
func overflowText(err error, depth int) bool {
	if err == nil || depth > 16 {
		return false
	}
	s := strings.ToLower(err.Error())
	if strings.Contains(s, "rate limit") || strings.Contains(s, "per min") || strings.Contains(s, "quota") {
		return false
	}
	for _, p := range overflowPatterns {
		if strings.Contains(s, p) {
			return true
		}
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return overflowText(u.Unwrap(), depth+1)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if overflowText(e, depth+1) {
				return true
			}
		}
	}
	return false
}

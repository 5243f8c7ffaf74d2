package compact

// PLACEHOLDER owned by the LLM summarizer engineer: replaced by the real implementation.

import "github.com/tmc/langchaingo/llms"

// LLMSummarizerOption configures the LLM summarizer.
type LLMSummarizerOption func(*llmSummarizerConfig)

type llmSummarizerConfig struct{}

// NewLLMSummarizer returns a Summarizer over models, in preference order.
func NewLLMSummarizer(models []llms.Model, opts ...LLMSummarizerOption) Summarizer {
	return nil
}

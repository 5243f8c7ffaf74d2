package compact

import (
	"context"

	"github.com/agentcompact/compact/extractors"

	"github.com/tmc/langchaingo/llms"
)

// SummarizeRequest is what the engine asks a [Summarizer] to condense.
type SummarizeRequest struct {
	// Messages are the dropped messages, oldest first, as they stood in the
	// conversation (tool outputs not yet masked). The summarizer must not
	// mutate them.
	Messages []llms.MessageContent
	// MessageIDs are the stable ids of Messages, index for index.
	MessageIDs []string
	// Previous is the parent summary to fold in, or nil.
	Previous *SummaryRecord
	// Depth is the depth the new summary will have (Previous.Depth+1, or 1).
	Depth int
	// MaxTokens caps the rendered summary: min(maxSummaryTokens, 10% of the
	// available budget).
	MaxTokens int
	// MaxInputTokens caps the transcript sent to a model (default 8,000).
	MaxInputTokens int
	// Count counts tokens with the engine's counter.
	Count func(string) int
	// Extractors condense tool outputs (for the transcript and the fallback digest).
	Extractors *extractors.Registry
}

// Summarizer condenses dropped messages into a structured summary. The engine
// fills ID, ParentID, Depth, Timestamp, OriginalMessageIDs and TokenEstimate
// of the returned record itself; a Summarizer sets Summary, KeyPoints,
// Context and Mode. Implementations must be safe for concurrent use and must
// honour ctx. On error the engine falls back to the rule-based summary
// unless abortOnFailure is set.
type Summarizer interface {
	Summarize(ctx context.Context, req SummarizeRequest) (SummaryRecord, error)
}

// SummarizerFunc adapts an ordinary function to the [Summarizer] interface.
type SummarizerFunc func(ctx context.Context, req SummarizeRequest) (SummaryRecord, error)

// Summarize calls f(ctx, req).
func (f SummarizerFunc) Summarize(ctx context.Context, req SummarizeRequest) (SummaryRecord, error) {
	return f(ctx, req)
}

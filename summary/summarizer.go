package summary

import (
	"context"
	"time"

	"github.com/tmc/langchaingo/llms"
)

// Defaults a summarizer applies to a [Request] whose MaxTokens or
// MaxInputTokens is 0 or less. The engine always sets both (its own
// defaults are these values).
const (
	// DefaultMaxTokens caps a summary's text, in tokens.
	DefaultMaxTokens = 500
	// DefaultMaxInputTokens caps the transcript a summarizer sends to a
	// model, in tokens.
	DefaultMaxInputTokens = 8_000
)

// Request is what the engine asks a [Summarizer] to condense.
type Request struct {
	// Messages are the dropped messages, oldest first, as they stood in the
	// conversation (tool outputs not yet masked). The summarizer must not
	// mutate them.
	Messages []llms.MessageContent
	// MessageIDs are the stable ids of Messages, index for index.
	MessageIDs []string
	// Refs are the ref ids of Messages, index for index (compact.Ref of
	// the session and the message id): a context that showed a message
	// masked or cut showed "ref:" followed by its ref instead of its text.
	// nil when unknown (the engine always sets it).
	Refs []string
	// Previous is the parent summary to fold in, or nil. The summarizer must
	// not mutate it.
	Previous *Record
	// Depth is the depth the new summary will have (Previous.Depth+1, or 1).
	Depth int
	// MaxTokens caps the rendered summary: min(maxSummaryTokens, 10% of the
	// available budget). 0 or less means [DefaultMaxTokens].
	MaxTokens int
	// MaxInputTokens caps the transcript sent to a model. 0 or less means
	// [DefaultMaxInputTokens].
	MaxInputTokens int
	// Count counts tokens with the engine's counter. nil means the
	// summarizer's own estimate.
	Count func(string) int
	// Extractors condense tool outputs (for the transcript and the fallback
	// digest): the engine's per-tool extractors (compact.WithExtractors).
	// nil means the summarizer's own (llmsummary's: extractors.Default()).
	Extractors Extractors
	// OnCall, when not nil, receives a report of every model call the
	// summarizer makes, synchronously, right after the call returns (and
	// before any retry or next model), in the order of the calls. A
	// summarizer calls it through [Request.Report]; one that makes no model
	// calls never does. The engine sets it to put the calls on its
	// compaction event. It must not block for long; it may be called from
	// the goroutine of whichever call ends, so a summarizer that calls
	// models concurrently needs it to be safe for concurrent use (the
	// engine's is).
	OnCall func(ctx context.Context, c Call)
	// Sent is the conversation exactly as the agent last sent it to SentTo
	// (the previous model call's messages), when the adapter knows it, and
	// SentWindow that model's context window; nil and 0 otherwise. A
	// summarizer asking SentTo (or a model served by the same prompt cache)
	// may send Sent unchanged, followed by its instruction, so that the
	// provider's prefix cache serves the request (llmsummary's cache-safe
	// request). It must not be modified.
	Sent       []llms.MessageContent
	SentTo     llms.Model
	SentWindow int
}

// Extractors condenses a tool output as the engine's per-tool extractors
// do, so that a summarizer's transcript shows what a masked output shows.
// The engine passes an implementation backed by its extractor registry;
// implementations must be safe for concurrent use.
type Extractors interface {
	// Condense returns what to show for output, the result of a call to the
	// tool name with the JSON arguments (which may be empty or invalid):
	// output itself for a tool kept verbatim, else the one-line form of its
	// key facts.
	Condense(name, arguments, output string) string
}

// Report passes c to r.OnCall, if set. ctx is the context of the Summarize
// call (not that of the model call).
func (r Request) Report(ctx context.Context, c Call) {
	if r.OnCall != nil {
		r.OnCall(ctx, c)
	}
}

// Call reports one model call a summarizer made: a retry or the next model
// is another Call. Its JSON form (on the engine's compaction event) carries
// Err as its message, in ErrText.
type Call struct {
	// Model is the model's name when known (the llms.Model's type name
	// otherwise, such as "*openai.LLM").
	Model string `json:"model"`
	// Attempt is the 1-based attempt on this model (2 for the first retry).
	Attempt int `json:"attempt"`
	// InputTokens are the prompt tokens: provider-reported when available,
	// else counted with the request's Count.
	InputTokens int `json:"inputTokens"`
	// OutputTokens are the reply tokens: provider-reported when available,
	// else counted; 0 when the call returned no reply.
	OutputTokens int `json:"outputTokens"`
	// Start is when the call began.
	Start time.Time `json:"start"`
	// Duration is how long the call took.
	Duration time.Duration `json:"duration"`
	// Err is nil on success, else why the call failed: a transport error, or
	// a reply rejected as invalid (errors.Is prompts.ErrInvalidSummary). It
	// is not serialized; ErrText carries its message.
	Err error `json:"-"`
	// ErrText is Err's message, or "". The engine sets it from Err when it
	// collects the call; a summarizer may leave it empty.
	ErrText string `json:"error,omitempty"`
}

// Summarizer condenses dropped messages into a structured summary. The
// engine fills ID, ParentID, Depth, Timestamp, OriginalMessageIDs and
// TokenEstimate of the returned record itself; a Summarizer sets Summary
// (within the request's MaxTokens), KeyPoints, Context and Mode. It reports
// each model call it makes through [Request.Report].
//
// Implementations must be safe for concurrent use, must honour ctx, must
// not mutate the request's messages or previous record, and must not
// panic. On error the engine falls back to the rule-based summary unless
// its abortOnFailure is set; an empty summary, or one over MaxTokens, is
// treated as an error.
type Summarizer interface {
	Summarize(ctx context.Context, req Request) (Record, error)
}

// Func adapts an ordinary function to the [Summarizer] interface.
type Func func(ctx context.Context, req Request) (Record, error)

// Summarize calls f(ctx, req).
func (f Func) Summarize(ctx context.Context, req Request) (Record, error) {
	return f(ctx, req)
}

type summarizerCallKey struct{}

// MarkSummarizerCall returns ctx marked as the context of a model call made
// by a summarizer; give it to the model's GenerateContent. Model wrappers
// that compact or otherwise rewrite calls (package middleware) pass marked
// calls through untouched, so that a summarizer model that is itself
// wrapped never compacts its own input.
func MarkSummarizerCall(ctx context.Context) context.Context {
	return context.WithValue(ctx, summarizerCallKey{}, true)
}

// IsSummarizerCall reports whether ctx (or a context derived from it) was
// marked by [MarkSummarizerCall].
func IsSummarizerCall(ctx context.Context) bool {
	if ctx == nil {
		return false
	}
	v, _ := ctx.Value(summarizerCallKey{}).(bool)
	return v
}

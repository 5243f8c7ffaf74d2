package compact

import "errors"

// Sentinel errors callers branch on with errors.Is.
var (
	// ErrInvalidOption reports an invalid option value or combination; the
	// wrapping error names the option.
	ErrInvalidOption = errors.New("compact: invalid option")
	// ErrBudgetTooSmall reports that what the engine must keep cannot fit
	// the available budget even after every other message was dropped and
	// the largest ones cut: the system prompt, the task, the latest user
	// message, and the tool rounds among the most recent messages, which are
	// never split. The wrapping error gives the tokens needed and the
	// budget, and names each part with its tokens, adding up to the tokens
	// needed ("... 42808 tokens needed, budget 3600 (system prompt (1
	// messages): 7 + ... + 1000 tool calls and their results kept whole, a
	// tool round is never split (1001 messages): 42770 + ...)").
	ErrBudgetTooSmall = errors.New("compact: what must be kept exceeds the budget")
	// ErrNilSession reports a nil *Session passed to Compact.
	ErrNilSession = errors.New("compact: nil session")
	// ErrInvalidInput reports call options that do not fit the input (ids
	// of the wrong count, duplicate or malformed ids, a negative omitted
	// count); the wrapping error says which.
	ErrInvalidInput = errors.New("compact: invalid input")
	// ErrSummarizer wraps a summarizer failure returned when abortOnFailure is set.
	ErrSummarizer = errors.New("compact: summarizer failed")
	// ErrSummarizerTimeout is in the chain of the error of a compaction
	// whose summarizer did not answer within WithSummarizerTimeout (the
	// event's Err on the fallback, or the error returned with
	// abortOnFailure).
	ErrSummarizerTimeout = errors.New("compact: summarizer deadline exceeded")
)

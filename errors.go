package compact

import "errors"

// Sentinel errors callers branch on with errors.Is.
var (
	// ErrInvalidOption reports an invalid option value or combination; the
	// wrapping error names the option.
	ErrInvalidOption = errors.New("compact: invalid option")
	// ErrBudgetTooSmall reports that the leading system message(s) and the
	// most recent user message cannot fit the available budget even after
	// every other message was dropped and the largest ones cut.
	ErrBudgetTooSmall = errors.New("compact: system prompt and latest user message exceed the budget")
	// ErrNilSession reports a nil *Session passed to Compact.
	ErrNilSession = errors.New("compact: nil session")
	// ErrInvalidInput reports call options that do not fit the input (ids
	// of the wrong count, duplicate or malformed ids, a negative omitted
	// count); the wrapping error says which.
	ErrInvalidInput = errors.New("compact: invalid input")
	// ErrSummarizer wraps a summarizer failure returned when abortOnFailure is set.
	ErrSummarizer = errors.New("compact: summarizer failed")
)

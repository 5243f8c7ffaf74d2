package extractors

// Status is the outcome of a tool call as seen in its output: success,
// error (a failure: non-zero exit, exception, rejected edit, HTTP 4xx/5xx)
// or partial (the output was cut, e.g. by the agent's harness).
type Status string

// The statuses a [ToolSummary] can carry.
const (
	StatusSuccess Status = "success"
	StatusError   Status = "error"
	StatusPartial Status = "partial"
)

// Call identifies the tool call whose output is being extracted.
type Call struct {
	// ID is the provider's tool call id; it may be empty.
	ID string
	// Name is the tool name as called; matching is case-insensitive.
	Name string
	// Arguments is the JSON arguments string of the call; it may be empty or invalid.
	Arguments string
}

// ToolSummary holds the key facts of one tool output. A summary returned
// by [Registry.Extract] is new and owned by the caller.
type ToolSummary struct {
	// Tool is the tool name as called.
	Tool string
	// Status is the outcome seen in the output.
	Status Status
	// KeyFacts are short one-line facts, most important first, such as
	// "File: app/main.go" or "exit 1"; [Format] joins them.
	KeyFacts []string
	// Metadata holds machine-readable facts under the Meta* keys (files
	// read and modified, command, exit code, exceptions, ...), read by
	// [Registry.Digest]; it may be nil.
	Metadata map[string]string
}

// Extractor turns one tool output into its key facts. Implementations must
// be safe for concurrent use, deterministic, and must not panic on any input.
type Extractor interface {
	Extract(call Call, output string) ToolSummary
}

// Func adapts an ordinary function to the [Extractor] interface.
type Func func(call Call, output string) ToolSummary

// Extract calls f(call, output).
func (f Func) Extract(call Call, output string) ToolSummary { return f(call, output) }

// statusMax returns the worse of two statuses.
func statusMax(a, b Status) Status {
	rank := func(s Status) int {
		switch s {
		case StatusError:
			return 2
		case StatusPartial:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

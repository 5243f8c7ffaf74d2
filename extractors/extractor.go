package extractors

// Status is the outcome of a tool call as seen in its output.
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

// ToolSummary holds the key facts of one tool output.
type ToolSummary struct {
	Tool     string
	Status   Status
	KeyFacts []string
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

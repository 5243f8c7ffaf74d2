package compact

import "github.com/tmc/langchaingo/llms"

// Result is the outcome of one Compact call.
type Result struct {
	// Messages is the context to send: a new slice owned by the caller. Its
	// messages have new Parts slices; part values are shared with the input.
	Messages []llms.MessageContent
	// Origin gives, for each message of Messages, the index of the input
	// message it stands for (verbatim, masked or cut, see States), or -1
	// for a message the engine made: the summary, or a tool result a repair
	// added. A repair may split one input message in two (an orphaned tool
	// result becomes a user message): both then have its index.
	Origin []int
	// SummaryIndex is the index in Messages of the summary message (right
	// after the leading system messages; its Origin is -1), or -1 when the
	// output has none. An adapter renders it apart from the messages it
	// stands beside.
	SummaryIndex int
	// States gives, for each message of the input (index for index), what
	// the output did with it.
	States []MessageState
	// Refs gives, for each message of the input, the ref id of the
	// original (see [Ref]) when the output does not show it verbatim
	// (masked, cut or summarized), "" otherwise. The masked and cut
	// messages show it ("ref:" + id); an adapter keeps these originals
	// where its recall tool finds them.
	Refs []string
	// Compacted reports whether a compaction ran in this call.
	Compacted bool
	// Restarted reports that the session's summary covered none of the
	// input messages, so its state was started over before this call
	// (another conversation under the same session, or an already compacted
	// list passed back); nothing of the input was lost.
	Restarted bool
	// Event describes the compaction, or is nil when none ran.
	Event *Event
	// Tokens is the token count of Messages; InputTokens that of the input
	// as given (after repair). Budget is the available budget.
	Tokens, InputTokens, Budget int
	// Repairs lists the repairs applied to the input (see RepairOrphan).
	Repairs []string
	// Summary is the active summary, or nil. Its slices are shared with
	// the session (which never modifies a summary once made): read them;
	// modify a copy ([SummaryRecord.Clone]).
	Summary *SummaryRecord
	// PendingState says what the output did with the call's pending
	// message ([WithPending]); StateKept when there is none.
	PendingState MessageState

	arrays *resultArrays // WithResultInto: the arrays at their full length, reused by the next call
}

// WithResultInto has the call fill res and return it, reusing the arrays
// of the Result res last held (its Messages, their Parts, Origin, States
// and Refs) instead of allocating new ones: a caller that compacts on
// every turn and is done with each Result before its next call then
// allocates nothing of the window's length. The call overwrites what
// res's slices held, whether it succeeds or not, so res must not be used
// by two calls at once, nor read once the next call has begun. A nil res
// is the default: each call returns a new Result of new slices.
func WithResultInto(res *Result) CallOption {
	return func(o *callOptions) { o.into = res }
}

// MessageState says what an output did with one input message. The zero
// value is [StateKept]; Masked and Cut may be combined.
type MessageState uint8

// The states of an input message in a [Result].
const (
	// StateKept: the message is in the output verbatim.
	StateKept MessageState = 0
	// StateMasked: its tool outputs are replaced by their extractor facts.
	StateMasked MessageState = 1 << iota
	// StateCut: stage 3 cut its largest text, head and tail kept, marked.
	StateCut
	// StateSummarized: it is not in the output; the summary stands for it.
	StateSummarized
)

// Summarized reports whether the message is left out, the summary standing for it.
func (s MessageState) Summarized() bool { return s&StateSummarized != 0 }

// InOutput reports whether the message is in the output, verbatim, masked or cut.
func (s MessageState) InOutput() bool { return !s.Summarized() }

// String returns "kept", "summarized", or the combination of "masked" and "cut".
func (s MessageState) String() string {
	switch {
	case s.Summarized():
		return "summarized"
	case s&StateMasked != 0 && s&StateCut != 0:
		return "masked+cut"
	case s&StateMasked != 0:
		return "masked"
	case s&StateCut != 0:
		return "cut"
	}
	return "kept"
}

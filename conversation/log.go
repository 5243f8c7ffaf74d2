package conversation

import (
	"fmt"
	"iter"
	"slices"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/tmc/langchaingo/llms"
)

// DefaultMinWindow is the default of [NewLog]'s minWindow: how many of
// the most recent messages always stay in a Log's window.
const DefaultMinWindow = 32

// MoveBatch is how many summarized messages a Log's window must
// be able to lose before it moves (a move rebuilds the window, O(window));
// until then they stay in it, left out of the context by the engine. A
// window therefore holds at most the context's messages, the minWindow
// most recent ones and MoveBatch more.
const MoveBatch = 16

// Log holds a conversation's messages, in order, with their ids (as
// [compact.MessageIDs] names the whole list, one hash per message however long
// the conversation) and their token counts (counted once), and the window
// of them that an engine call must be given once a prefix of the
// conversation is summarized:
//
//	messages[:Lead] + messages[Kept...] + messages[Start:]
//
// the leading system messages, the messages before Start that the
// session has not summarized (the kept list: the task, which the engine
// pins, and any other message still in the context), and every message
// from Start on. Every other message before Start is summarized by the
// session, so an engine call is told how many it omits ([compact.WithOmitted]) and
// is given the messages' ids in the whole conversation ([compact.WithMessageIDs]):
// the session's state names the same messages whatever the window, and a
// call's cost does not grow with the conversation. [Log.Input] builds
// that call's input; [Log.Advance] moves the window past what a
// [compact.Result] reports summarized, keeping tool rounds whole as the engine does.
//
// An adapter that reads its history incrementally keeps one Log per
// conversation, appends what it reads, and persists Start and Kept with the
// session (see [Log.SetWindow]). A Log is not safe for concurrent
// use, but the slices of an Input stay valid while it changes: it never
// writes them in place (only a later Input given the same buffer does).
type Log struct {
	minWindow int
	msgs      []llms.MessageContent
	ids       []string
	toks      []int // -1 until counted
	names     msg.Namer
	lead      int   // leading system messages
	start     int   // the window's start (summarized-up-to position)
	kept      []int // positions in [lead, start) still in the window
	win       []llms.MessageContent
	winIDs    []string
	tools     int // messages held that are tool messages or call tools
	wgen      int // bumped when lead, start or kept change (Positions' cache)
	pos       positionsCache
}

// NewLog returns an empty Log whose window always keeps the
// minWindow most recent messages (it must be at least the compactor's
// minMessages, default 12, for the trigger to behave exactly as on the
// whole conversation). Values below 1 mean [DefaultMinWindow].
func NewLog(minWindow int) *Log {
	if minWindow < 1 {
		minWindow = DefaultMinWindow
	}
	return &Log{minWindow: minWindow}
}

// Append adds mc, the next message of the conversation, and returns its id.
// A system message before any other message is a leading one (kept first
// and verbatim by the engine). mc is retained, not copied.
func (h *Log) Append(mc llms.MessageContent) string {
	id := h.names.Add(mc)
	if h.lead == len(h.msgs) && mc.Role == llms.ChatMessageTypeSystem {
		if h.start == h.lead {
			h.start++
		}
		h.lead++
		h.wgen++
	}
	h.msgs = append(h.msgs, mc)
	if toolRound(mc) {
		h.tools++
	}
	h.ids = append(h.ids, id)
	h.toks = append(h.toks, -1)
	h.win = append(h.win, mc)
	h.winIDs = append(h.winIDs, id)
	return id
}

// HasToolRounds reports whether any message of in, an Input of this Log,
// is a tool message or calls a tool: without reading them while none of
// the Log's messages is.
func (h *Log) HasToolRounds(in Input) bool {
	return h.tools > 0 && slices.ContainsFunc(in.Messages, toolRound)
}

// toolRound reports whether mc is a tool message or calls a tool.
func toolRound(mc llms.MessageContent) bool {
	return mc.Role == llms.ChatMessageTypeTool || msg.HasToolCall(mc)
}

// Len returns the number of messages.
func (h *Log) Len() int { return len(h.msgs) }

// Message returns the message at position i (0 <= i < Len()).
func (h *Log) Message(i int) llms.MessageContent { return h.msgs[i] }

// ID returns the id of the message at position i (0 <= i < Len()).
func (h *Log) ID(i int) string { return h.ids[i] }

// NextID returns the id mc would get as the next message (what Append
// would return), without adding it: the id to give a pending message
// ([WithPending]).
func (h *Log) NextID(mc llms.MessageContent) string { return h.names.Next(mc) }

// Tokens returns the tokens of the message at position i as counter counts
// it, counted once (0 <= i < Len()).
func (h *Log) Tokens(counter *budget.TokenCounter, i int) int {
	if h.toks[i] < 0 {
		h.toks[i] = counter.CountMessage(h.msgs[i])
	}
	return h.toks[i]
}

// Lead returns the number of leading system messages.
func (h *Log) Lead() int { return h.lead }

// Start returns the window's start: every message before it is summarized
// by the session or in the kept list.
func (h *Log) Start() int { return h.start }

// Kept returns the positions before Start that the window keeps,
// ascending. The Log never writes the slice in place (a move makes a
// new one); the caller must not modify it.
func (h *Log) Kept() []int { return h.kept }

// Truncate forgets the messages from position n on (the conversation lost
// its latest messages; n >= Len() changes nothing, n < 0 is Clear). A
// window whose start lies beyond n starts over: it then begins after the
// leading system messages left, with nothing kept.
func (h *Log) Truncate(n int) {
	if n < 0 || n >= len(h.msgs) {
		if n < 0 {
			h.Clear()
		}
		return
	}
	for i := len(h.msgs) - 1; i >= n; i-- {
		h.names.Remove(h.msgs[i])
		if toolRound(h.msgs[i]) {
			h.tools--
		}
	}
	h.msgs, h.ids, h.toks = h.msgs[:n:n], h.ids[:n:n], h.toks[:n:n]
	if h.start > n || h.lead > n {
		h.lead = min(h.lead, n)
		h.rebuild(h.lead, nil)
		return
	}
	w := h.windowLen(n)
	h.win, h.winIDs = h.win[:w:w], h.winIDs[:w:w]
}

// Clear forgets every message and the window.
func (h *Log) Clear() {
	*h = Log{minWindow: h.minWindow, wgen: h.wgen + 1}
}

// ResetWindow puts the window over the whole conversation: it starts after
// the leading system messages, with nothing kept (a session started over).
func (h *Log) ResetWindow() { h.rebuild(h.lead, nil) }

// CheckWindow reports why a window of the given start and kept positions
// (see [Log]) does not fit the messages held: start outside
// [Lead, Len], or kept positions outside [Lead, start) or not ascending.
func (h *Log) CheckWindow(start int, kept []int) error {
	if start < h.lead || start > len(h.msgs) {
		return fmt.Errorf("summarized-up-to position %d outside [%d, %d]", start, h.lead, len(h.msgs))
	}
	for i, p := range kept {
		if p < h.lead || p >= start || (i > 0 && p <= kept[i-1]) {
			return fmt.Errorf("kept position %d outside [%d, %d) or out of order", p, h.lead, start)
		}
	}
	return nil
}

// SetWindow sets the window's start and kept positions, as an adapter
// restores them with a stored session; kept is copied. It costs O(window).
// On an error (see [Log.CheckWindow]) nothing changes.
func (h *Log) SetWindow(start int, kept []int) error {
	if err := h.CheckWindow(start, kept); err != nil {
		return err
	}
	h.rebuild(start, append([]int(nil), kept...))
	return nil
}

// rebuild recomputes the window for a new start and kept list.
func (h *Log) rebuild(start int, kept []int) {
	h.start, h.kept = start, kept
	h.wgen++
	n := h.windowLen(len(h.msgs))
	h.win = make([]llms.MessageContent, 0, n+16)
	h.winIDs = make([]string, 0, n+16)
	for i := range h.Window(len(h.msgs), 0) {
		h.win = append(h.win, h.msgs[i])
		h.winIDs = append(h.winIDs, h.ids[i])
	}
}

// WindowLen returns the number of messages in the window: what an engine
// call over the whole window is given.
func (h *Log) WindowLen() int { return len(h.win) }

// windowLen returns the number of window messages below n (n >= start).
func (h *Log) windowLen(n int) int { return h.lead + len(h.kept) + n - h.start }

// Window yields, in order, the positions below n of the window's messages
// that an engine call from the turn start from is given (see
// [Log.Input]): the leading system messages, then those at or after
// from (every window message for from 0).
func (h *Log) Window(n, from int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < h.lead && i < n; i++ {
			if !yield(i) {
				return
			}
		}
		for _, i := range h.kept {
			if i < n && i >= from && !yield(i) {
				return
			}
		}
		for i := max(h.start, h.lead, from); i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

// TurnStart returns the position where the last k turns of the window's
// messages below n begin: the k-th last human message after the leading
// system messages; 0 when k < 1 or the window holds no more than k turns.
// It looks at the window only (older messages are out of the engine's
// input anyway), so its cost is bounded by the window's length.
func (h *Log) TurnStart(n, k int) int {
	if k < 1 {
		return 0
	}
	human := func(i int) bool { return h.msgs[i].Role == llms.ChatMessageTypeHuman }
	for i := n - 1; i >= max(h.start, h.lead); i-- {
		if human(i) {
			if k--; k == 0 {
				return i
			}
		}
	}
	for j := len(h.kept) - 1; j >= 0; j-- {
		if i := h.kept[j]; i < n && human(i) {
			if k--; k == 0 {
				return i
			}
		}
	}
	return 0
}

package compact

import (
	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/extractors"
	"github.com/tmc/langchaingo/llms"
)

// work is the state of one Compact call over the repaired input.
type work struct {
	c       *Compactor
	sid     string                // the session's id (refs)
	msgs    []llms.MessageContent // repaired input
	src     []int                 // per index: the caller's input index, -1 if synthetic
	nIn     int                   // length of the caller's input
	ids     []string
	lead    int // number of leading system messages
	last    int // index of the latest user message, or -1
	first   int // index of the first user message (the task), or -1
	unit    []int
	units   [][2]int // [start, end) per unit
	dropped []bool
	flags   []uint8               // per index: flagMasked, flagCut, flagFailed
	view    []llms.MessageContent // per index: the message as sent (masked/cut)
	tokens  []int                 // per index: tokens of view[i]
	calls   map[string]extractors.Call
	memo    *memo               // the session's memo (caller ids in this call, ref cache)
	idSet   map[string]struct{} // the ids of this call, built when needed
	summary *llms.MessageContent
	sumTok  int
	base    int           // tokens of an empty list (reply priming)
	gate    SummarizeGate // the call's, or nil
	sent    []llms.MessageContent
	sentTo  llms.Model
	reset   float64 // the call's reset ratio (WithConversationPolicy); 0: the compactor's
	// noRecallHint: the summary message has no RecallHint (WithRecallHint).
	noRecallHint bool
	reserve      int     // the call's reserve (WithReserve, reserve.go), counted in base
	into         *Result // WithResultInto: the Result to fill, or nil for a new one
}

// workArrays are the per-message arrays of a work, kept by the session
// between its calls (which its lock serializes) so that a call reuses the
// last call's instead of allocating arrays of the window's length: none
// of them outlives the call (a Result is built of new slices), and release
// clears those that hold messages once the call is done.
type workArrays struct {
	msgs    []llms.MessageContent // the repaired input (repair.go)
	src     []int
	ids     []string // its ids and tokens (memo.go)
	tok     []int
	unit    []int
	dropped []bool
	flags   []uint8
	view    []llms.MessageContent
	tokens  []int
	units   [][2]int
}

// take returns the arrays resized to n, zeroed (units emptied); a nil a
// allocates new ones.
func (a *workArrays) take(n int) workArrays {
	if a == nil {
		return workArrays{unit: make([]int, n), dropped: make([]bool, n), flags: make([]uint8, n), view: make([]llms.MessageContent, n), tokens: make([]int, n)}
	}
	a.unit, a.dropped, a.flags = resize(a.unit, n), resize(a.dropped, n), resize(a.flags, n)
	a.view, a.tokens, a.units = resize(a.view, n), resize(a.tokens, n), a.units[:0]
	return *a
}

// release drops the arrays' references to the call's messages, so that a
// session does not retain a caller's messages between calls.
func (a *workArrays) release() {
	clear(a.msgs)
	clear(a.view)
}

// resize returns s with length n and zero elements, reusing its array
// when it is large enough; never nil: a nil s gets an array of n, one
// used before a new one with an eighth more.
func resize[T any](s []T, n int) []T {
	if s == nil {
		return make([]T, n)
	}
	if cap(s) < n {
		return make([]T, n, n+n/8)
	}
	s = s[:n]
	clear(s)
	return s
}

// newWork starts the work of a call over msgs (repaired), reusing the
// session's arrays when arr is not nil.
func (c *Compactor) newWork(msgs []llms.MessageContent, src []int, nIn int, ids []string, inTok []int, arr *workArrays) *work {
	n := len(msgs)
	a := arr.take(n)
	w := &work{c: c, msgs: msgs, src: src, nIn: nIn, ids: ids, last: -1, first: -1,
		unit: a.unit, dropped: a.dropped, flags: a.flags, view: a.view, tokens: a.tokens, units: a.units}
	copy(w.tokens, inTok)
	if n > 0 {
		w.base = budget.ReplyPriming
	}
	for w.lead < n && msgs[w.lead].Role == llms.ChatMessageTypeSystem {
		w.lead++
	}
	for i := n - 1; i >= w.lead; i-- {
		if msgs[i].Role == llms.ChatMessageTypeHuman && !isOrphanText(msgs[i]) {
			w.last = i
			break
		}
	}
	for i := w.lead; i < n; i++ {
		if msgs[i].Role == llms.ChatMessageTypeHuman && !isOrphanText(msgs[i]) {
			w.first = i
			break
		}
	}
	w.buildUnits()
	if arr != nil {
		arr.units = w.units // grown by buildUnits; pairTurns works in place
	}
	copy(w.view, msgs)
	return w
}

// buildUnits groups the messages into units: an assistant message calling
// tools with the tool messages after it, or one message.
func (w *work) buildUnits() {
	n := len(w.msgs)
	for i := 0; i < n; {
		j := i + 1
		if i >= w.lead && OpensToolRound(w.msgs[i]) { // units.go
			for j < n && IsToolResult(w.msgs[j]) {
				j++
			}
		}
		for k := i; k < j; k++ {
			w.unit[k] = len(w.units)
		}
		w.units = append(w.units, [2]int{i, j})
		i = j
	}
}

// The flags of a message in the view.
const (
	flagMasked uint8 = 1 << iota // its tool outputs are masked
	flagCut                      // stage 3 cut it
	flagFailed                   // its extraction reported an error (tool-error priority)
)

// pinned reports whether index i may never be dropped (system prefix,
// latest user message, task).
func (w *work) pinned(i int) bool {
	return i < w.lead || (w.last >= 0 && w.unit[i] == w.unit[w.last]) || (w.first >= 0 && w.unit[i] == w.unit[w.first])
}

// apply replays the session's view: dropped ids, masks, cuts, summary.
// With omitted (the caller left summarized messages out) the session
// forgets the dropped ids absent from the input; without, a session whose
// summary covers none of the input is started over, and apply reports it.
func (w *work) apply(st *sessionState, omitted bool) (restarted bool) {
	if len(st.Dropped) > 0 {
		if omitted {
			st.forgetAbsent(w.present)
		} else if !w.anyIn(st.droppedSet()) {
			// None of the summarized messages is in this input: the session's
			// state belongs to another conversation (or the caller passes an
			// already compacted list back). Start over rather than insert an
			// unrelated summary; nothing of the input is lost.
			*st = sessionState{Version: SessionVersion, ID: st.ID, Stats: st.Stats, Calibration: st.Calibration}
			return true
		}
		w.applyDrops(st.droppedSet())
	}
	if len(st.Masked) > 0 || len(st.Cut) > 0 {
		w.applyMasksAndCuts(st)
	}
	if l := st.latest(); l != nil {
		w.setSummary(*l)
	}
	return false
}

// present reports whether message id is in this call's input.
func (w *work) present(id string) bool {
	if w.memo != nil && w.memo.byID != nil {
		e, ok := w.memo.byID[id]
		return ok && e.gen == w.memo.gen
	}
	if w.idSet == nil {
		w.idSet = make(map[string]struct{}, len(w.ids))
		for _, id := range w.ids {
			w.idSet[id] = struct{}{}
		}
	}
	_, ok := w.idSet[id]
	return ok
}

// applyDrops drops every unit any of whose messages was dropped, so that
// tool pairs stay whole even if the caller's history changed; pinned units
// stay.
func (w *work) applyDrops(set map[string]struct{}) {
	for _, r := range w.units {
		drop := false
		for i := r[0]; i < r[1] && !drop; i++ {
			_, drop = set[w.ids[i]]
		}
		if drop && !w.pinned(r[0]) {
			for i := r[0]; i < r[1]; i++ {
				w.dropped[i] = true
			}
		}
	}
}

func (w *work) applyMasksAndCuts(st *sessionState) {
	for i, id := range w.ids {
		if w.dropped[i] {
			continue
		}
		mask, masked := st.Masked[id]
		cut, cuts := st.Cut[id]
		if !masked && !cuts {
			continue
		}
		if masked {
			w.flags[i] |= flagMasked
			if st.Failed[id] {
				w.flags[i] |= flagFailed
			}
		}
		if cuts {
			w.flags[i] |= flagCut
		}
		w.view[i], w.tokens[i] = w.replayed(i, id, mask, cut, cuts) // viewcache.go
	}
}

// anyIn reports whether any input message's id is in set.
func (w *work) anyIn(set map[string]struct{}) bool {
	for _, id := range w.ids {
		if _, ok := set[id]; ok {
			return true
		}
	}
	return false
}

// ref returns the ref of message i.
func (w *work) ref(i int) string {
	if w.memo != nil {
		return w.memo.refAt(w.sid, i, w.ids[i])
	}
	return Ref(w.sid, w.ids[i])
}

func (w *work) setSummary(r SummaryRecord) {
	m := llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.TextPart(SummaryPreamble + r.Summary + w.recallHint())}}
	w.summary = &m
	w.sumTok = w.c.counter.CountMessage(m)
}

func (w *work) total() int {
	t := w.base + w.sumTok
	for i, d := range w.dropped {
		if !d {
			t += w.tokens[i]
		}
	}
	return t
}

// tailStart returns the first index of the preserved tail of n recent
// messages, widened so that no tool round is split.
func (w *work) tailStart(n int) int {
	s := max(len(w.msgs)-n, w.lead)
	if s < len(w.msgs) {
		s = w.units[w.unit[s]][0]
	}
	return s
}

func (w *work) callsByID() map[string]extractors.Call {
	if w.calls == nil {
		w.calls = map[string]extractors.Call{}
		for _, m := range w.msgs {
			for _, p := range m.Parts {
				if tc, ok := p.(llms.ToolCall); ok {
					call := extractors.Call{ID: tc.ID}
					if tc.FunctionCall != nil {
						call.Name, call.Arguments = tc.FunctionCall.Name, tc.FunctionCall.Arguments
					}
					w.calls[tc.ID] = call
				}
			}
		}
	}
	return w.calls
}

package compact

import (
	"container/heap"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/tmc/langchaingo/llms"
)

// CutMarker is the visible marker stage 3 puts where it cut a message: the
// bytes cut and the ref of the original (see [Ref]).
const CutMarker = "\n[… compact: %d bytes cut, " + RefPrefix + "%s …]\n"

// CutInstructionsMarker is the marker of a cut user message whose cut part
// held instructions (extractors.Instructions): they stay visible inside the
// marker, "; "-separated, so that a cut never hides what the user asked.
const CutInstructionsMarker = "\n[… compact: %d bytes cut, " + RefPrefix + "%s … instructions in the cut part: %s]\n"

// maxCutInstructions bounds the instructions a cut marker lists (the
// directives among the first 64 KiB of the cut part first); the bytes they
// take are bounded by cutInstructionBytes.
const maxCutInstructions = 64

// minCutInstructionBytes and maxCutInstructionBytes bound the bytes of the
// instructions a cut marker lists (cutInstructionBytes).
const (
	minCutInstructionBytes = 1000
	maxCutInstructionBytes = 4000
)

// cutInstructionBytes returns the bytes the instructions of a marker may
// take when the cut keeps kept bytes of the message: half of them, within
// [minCutInstructionBytes, maxCutInstructionBytes]. A message cut hard
// lists fewer (its marker shrinks with it, so the cut converges); the
// result depends only on the cut, so a replayed cut gives the same text.
func cutInstructionBytes(kept int) int {
	return min(max(kept/2, minCutInstructionBytes), maxCutInstructionBytes)
}

// CutArgumentsKey is the one key of the JSON object that replaces tool call
// arguments cut by stage 3: {"compact_cut_arguments": "<head>[… cut …]<tail>"}.
const CutArgumentsKey = "compact_cut_arguments"

// cutSpan is one stage-3 cut of a message: the index of the part cut and
// the bytes of its text kept at the head and at the tail. It is an array so
// that its JSON form is [part, head, tail] (as in version 1 of the session
// state) and encodes without reflection on a custom method.
type cutSpan [3]int

func newCut(part, head, tail int) cutSpan { return cutSpan{part, head, tail} }

func (c cutSpan) part() int { return c[0] }
func (c cutSpan) head() int { return c[1] }
func (c cutSpan) tail() int { return c[2] }

// kept returns the bytes the cut keeps.
func (c cutSpan) kept() int { return c.head() + c.tail() }

// cut is stage 3b: it shortens the largest non-system messages, head and
// tail, until the total fits limit. Cuts are relative to the message as
// masked, so that the session can replay them. It returns how many
// messages it cut and whether the budget now holds. The candidates wait in
// a heap and the total is kept as it changes, so a cut of n messages costs
// O(n log n), not a scan of every message per cut.
func (w *work) cut(ns *sessionState, limit int) (int, bool) {
	n := 0
	done := map[int]bool{}
	q := w.cutCandidates()
	total := w.total()
	for total > limit {
		best := q.pop(w, done)
		if best < 0 {
			best = w.lastToCut(done)
		}
		if best < 0 {
			return n, false
		}
		id := w.ids[best]
		uncut := w.msgs[best]
		if m, ok := ns.Masked[id]; ok {
			uncut = applyMask(uncut, m)
		}
		part, text, _ := largestText(uncut)
		prev, had := ns.Cut[id]
		kept := len(text)
		if had {
			kept = prev.kept()
		}
		keep := bytesToKeep(kept, w.tokens[best], total-limit)
		if keep <= 0 {
			keep = 0
			done[best] = true
		}
		c := newCut(part, keep/2, keep-keep/2)
		if !had {
			n++
		}
		ns.setCut(id, c)
		w.view[best] = c.apply(uncut, w.ref(best))
		old := w.tokens[best]
		w.tokens[best] = w.c.counter.CountMessage(w.view[best])
		total += w.tokens[best] - old
		w.flags[best] |= flagCut
		if best != w.last && !done[best] {
			q.push(w.tokens[best], best)
		}
	}
	return n, true
}

// cutCandidates returns the messages stage 3 may cut, the latest user
// message aside (I4: it is cut only when no other is left): those after
// the leading system messages, not dropped, with a text to cut.
func (w *work) cutCandidates() *cutHeap {
	q := &cutHeap{}
	for i := w.lead; i < len(w.view); i++ {
		if i == w.last || w.dropped[i] {
			continue
		}
		if _, _, ok := largestText(w.view[i]); ok {
			q.items = append(q.items, cutItem{w.tokens[i], i})
		}
	}
	heap.Init(q)
	return q
}

// lastToCut returns the latest user message if it may still be cut, or -1.
func (w *work) lastToCut(done map[int]bool) int {
	if w.last < 0 || w.dropped[w.last] || done[w.last] {
		return -1
	}
	if _, _, ok := largestText(w.view[w.last]); !ok {
		return -1
	}
	return w.last
}

// cutItem is a candidate of stage 3: a message's index and its tokens when
// it was queued.
type cutItem struct{ tokens, i int }

// cutHeap orders the candidates of stage 3: most tokens first, the
// earliest of equals first (as a scan in order would choose). An item whose
// message has changed since it was queued is stale: the message was queued
// again with its new tokens.
type cutHeap struct{ items []cutItem }

func (q *cutHeap) Len() int { return len(q.items) }
func (q *cutHeap) Less(a, b int) bool {
	x, y := q.items[a], q.items[b]
	return x.tokens > y.tokens || x.tokens == y.tokens && x.i < y.i
}
func (q *cutHeap) Swap(a, b int) { q.items[a], q.items[b] = q.items[b], q.items[a] }
func (q *cutHeap) Push(x any)    { q.items = append(q.items, x.(cutItem)) }
func (q *cutHeap) Pop() any {
	it := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return it
}

func (q *cutHeap) push(tokens, i int) { heap.Push(q, cutItem{tokens, i}) }

// pop returns the index of the candidate with the most tokens that is not
// done, or -1; stale items are passed over.
func (q *cutHeap) pop(w *work, done map[int]bool) int {
	for q.Len() > 0 {
		it := heap.Pop(q).(cutItem)
		if !done[it.i] && w.tokens[it.i] == it.tokens {
			return it.i
		}
	}
	return -1
}

// bytesToKeep returns how many of kept bytes a message of tokens tokens
// may keep when excess tokens must go: fewer in proportion, with a margin;
// at most half of them.
func bytesToKeep(kept, tokens, excess int) int {
	tt := max(1, tokens)
	keep := kept - int(float64(kept)*float64(excess+16)/float64(tt)) - 8
	if keep >= kept {
		keep = kept / 2
	}
	return keep
}

// largestText returns the index and text of the largest text-bearing part
// of m: text, tool result content, or tool call arguments (which a cut
// re-encodes as a valid JSON object, see cutSpan.apply).
func largestText(m llms.MessageContent) (int, string, bool) {
	best, text, ok := -1, "", false
	for k, p := range m.Parts {
		var t string
		switch p := p.(type) {
		case llms.TextContent:
			t = p.Text
		case llms.ToolCallResponse:
			t = p.Content
		case llms.ToolCall:
			if p.FunctionCall == nil {
				continue
			}
			t = p.FunctionCall.Arguments
		default:
			continue
		}
		if !ok || len(t) > len(text) {
			best, text, ok = k, t, true
		}
	}
	return best, text, ok
}

// apply keeps the head and tail bytes of the cut part of m (snapped to
// UTF-8 boundaries) around a visible marker naming ref. Tool call arguments are cut the
// same way and re-encoded as a JSON object with the single key
// CutArgumentsKey, so that they stay valid JSON. Out-of-range values (a
// corrupted persisted state) leave m unchanged.
func (c cutSpan) apply(m llms.MessageContent, ref string) llms.MessageContent {
	if c.part() < 0 || c.part() >= len(m.Parts) || c.head() < 0 || c.tail() < 0 {
		return m
	}
	out := msg.Clone(m)
	switch p := out.Parts[c.part()].(type) {
	case llms.TextContent:
		p.Text = c.textKeeping(p.Text, ref, m.Role == llms.ChatMessageTypeHuman)
		out.Parts[c.part()] = p
	case llms.ToolCallResponse:
		p.Content = c.text(p.Content, ref)
		out.Parts[c.part()] = p
	case llms.ToolCall:
		if p.FunctionCall != nil {
			if t := c.text(p.FunctionCall.Arguments, ref); t != p.FunctionCall.Arguments {
				b, _ := json.Marshal(map[string]string{CutArgumentsKey: t})
				fc := *p.FunctionCall
				fc.Arguments = string(b)
				p.FunctionCall = &fc
				out.Parts[c.part()] = p
			}
		}
	}
	return out
}

// text returns t cut to its head and tail around the marker, or t when it
// is not longer than what the cut keeps.
func (c cutSpan) text(t, ref string) string { return c.textKeeping(t, ref, false) }

// textKeeping is text; instructions says the cut part's instructions are
// listed in the marker (a user's text).
func (c cutSpan) textKeeping(t, ref string, instructions bool) string {
	h, tl := c.head(), c.tail()
	if h+tl >= len(t) {
		return t
	}
	for h > 0 && !utf8.RuneStart(t[h]) {
		h--
	}
	ts := len(t) - tl
	for ts < len(t) && !utf8.RuneStart(t[ts]) {
		ts++
	}
	if instructions {
		h, ts = snapToLines(t, h, ts)
		if in := cutInstructions(t[h:ts], cutInstructionBytes(h+len(t)-ts)); in != "" {
			return t[:h] + fmt.Sprintf(CutInstructionsMarker, ts-h, ref, in) + t[ts:]
		}
	}
	return t[:h] + fmt.Sprintf(CutMarker, ts-h, ref) + t[ts:]
}

// maxLineSnap is how far snapToLines moves a cut's edge to a line break.
const maxLineSnap = 200

// snapToLines moves the edges of a user text's cut, the end of the head h
// and the start of the tail ts, outwards to the nearest line break within
// maxLineSnap bytes of the kept text, so that a line straddling an edge is
// cut whole (and its instruction listed whole in the marker) rather than
// split in two. It only ever cuts more, so the budget holds.
func snapToLines(t string, h, ts int) (int, int) {
	if i := strings.LastIndexByte(t[max(0, h-maxLineSnap):h], '\n'); i >= 0 {
		h = max(0, h-maxLineSnap) + i + 1
	}
	if i := strings.IndexByte(t[ts:min(len(t), ts+maxLineSnap)], '\n'); i >= 0 {
		ts += i + 1
	}
	return h, ts
}

// cutInstructions lists the instructions of a cut user text, whole and
// redacted, "; "-separated, the directives first
// (extractors.InstructionsDirectivesFirst), at most maxCutInstructions
// within limit bytes (one that does not fit is passed over for shorter
// ones); "" when it has none.
func cutInstructions(cut string, limit int) string {
	var b strings.Builder
	n := 0
	for _, in := range extractors.InstructionsDirectivesFirst(cut) {
		in = extractors.Redact(in) // as the digest's items are
		if b.Len()+len(in)+2 > limit {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString(in)
		if n++; n == maxCutInstructions {
			break
		}
	}
	return b.String()
}

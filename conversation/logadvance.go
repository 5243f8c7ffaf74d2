package conversation

import (
	"github.com/agentcompact/compact"
	"github.com/tmc/langchaingo/llms"
)

// Advance moves the window past what the engine summarized, given the
// compact.Result of a call on in (built by [Log.Input] on the window as it
// still is): when the call compacted, or when it was given the window from
// a turn start (the messages it left out count as summarized: they never
// come back into the context). Kept units (a message, or a tool round:
// [compact.OpensToolRound] with its [compact.IsToolResult] messages) before Start that are
// summarized now leave the window, and Start advances over whole units
// below N less the minimum window, a summarized unit leaving the window,
// another moving to the kept list. A unit partly summarized stops the
// advance, and a move that would put a system message first after the
// leading ones is not made (the engine would take it for a leading one).
// Nothing moves until at least [MoveBatch] messages can leave, nor
// when res's States do not match in. It reports whether the window moved.
func (h *Log) Advance(in Input, res *compact.Result) bool {
	if res == nil || (!res.Compacted && in.From <= h.lead) || in.N > len(h.msgs) {
		return false
	}
	states := h.windowStates(in, res.States)
	if len(states) != h.windowLen(in.N) {
		return false
	}
	summarized := make(map[int]bool, len(states))
	j := 0
	for i := range h.Window(in.N, 0) {
		summarized[i] = states[j].Summarized()
		j++
	}
	kept, excluded := h.prunedKept(summarized)
	x, more, ex := h.advance(in.N, summarized)
	kept, excluded = append(kept, more...), excluded+ex
	head := func(start int, kept []int) int {
		if len(kept) > 0 {
			return kept[0]
		}
		return start
	}
	if hd := head(x, kept); excluded < MoveBatch || (hd < len(h.msgs) && hd != head(h.start, h.kept) &&
		h.msgs[hd].Role == llms.ChatMessageTypeSystem) {
		return false
	}
	h.rebuild(x, kept)
	return true
}

// windowStates returns the states of every window message below in.N,
// given the states of those in holds: the messages it left out (below its
// turn start) count as summarized.
func (h *Log) windowStates(in Input, states []compact.MessageState) []compact.MessageState {
	if in.From <= h.lead || len(states) != len(in.Messages) {
		return states
	}
	out := make([]compact.MessageState, 0, h.windowLen(in.N))
	j := 0
	for i := range h.Window(in.N, 0) {
		if i >= h.lead && i < in.From {
			out = append(out, compact.StateSummarized)
			continue
		}
		out = append(out, states[j])
		j++
	}
	return out
}

// isCall and isTool classify the message at i for the engine's unit rules.
func (h *Log) isCall(i int) bool { return compact.OpensToolRound(h.msgs[i]) }

func (h *Log) isTool(i int) bool { return compact.IsToolResult(h.msgs[i]) }

// prunedKept returns the kept list without its units that are now wholly
// summarized, and how many messages it left out.
func (h *Log) prunedKept(summarized map[int]bool) (kept []int, excluded int) {
	kept = make([]int, 0, len(h.kept))
	for j := 0; j < len(h.kept); {
		k := j + 1
		if h.isCall(h.kept[j]) {
			for k < len(h.kept) && h.kept[k] == h.kept[k-1]+1 && h.isTool(h.kept[k]) {
				k++
			}
		}
		if all, _ := classifyUnit(h.kept[j:k], summarized); all {
			excluded += k - j
		} else {
			kept = append(kept, h.kept[j:k]...)
		}
		j = k
	}
	return kept, excluded
}

// advance returns how far start can advance over whole units below
// n - minWindow, the units it passes that stay in the context (for the
// kept list), and how many messages it passes that are summarized.
func (h *Log) advance(n int, summarized map[int]bool) (x int, kept []int, excluded int) {
	x = h.start
	limit := n - h.minWindow
	unit := make([]int, 0, 8)
	for x < limit {
		unit = append(unit[:0], x)
		y := x + 1
		if h.isCall(x) {
			for y < n && h.isTool(y) {
				unit = append(unit, y)
				y++
			}
		}
		if y > limit {
			break
		}
		all, none := classifyUnit(unit, summarized)
		if !all && !none {
			break // partly summarized
		}
		if all {
			excluded += y - x
		} else {
			kept = append(kept, unit...)
		}
		x = y
	}
	return x, kept, excluded
}

// classifyUnit reports whether every message of unit is summarized, and
// whether none is.
func classifyUnit(unit []int, summarized map[int]bool) (all, none bool) {
	all, none = true, true
	for _, k := range unit {
		if summarized[k] {
			none = false
		} else {
			all = false
		}
	}
	return all, none
}

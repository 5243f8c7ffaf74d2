package memory

import (
	compact "github.com/agentcompact/compact"
	"github.com/tmc/langchaingo/llms"
)

// turnStartLocked returns the history position where the last k turns
// (WithWindowTurns) of the window below n begin: the k-th last human
// message among the window's positions after the leading system messages;
// 0 when the option is off or the window holds no more than k turns. It
// looks at the window only (older positions are out of the engine's input
// anyway), so its cost is bounded by the window's length. Requires m.mu.
func (m *Memory) turnStartLocked(n int) int {
	k := m.o.windowTurns
	if k < 1 {
		return 0
	}
	human := func(i int) bool { return m.entries[i].mc.Role == llms.ChatMessageTypeHuman }
	for i := n - 1; i >= max(m.start, m.lead); i-- {
		if human(i) {
			if k--; k == 0 {
				return i
			}
		}
	}
	for j := len(m.kept) - 1; j >= 0; j-- {
		if i := m.kept[j]; i < n && human(i) {
			if k--; k == 0 {
				return i
			}
		}
	}
	return 0
}

// windowStatesLocked returns the states of every window message below
// c.n, given the states of those the call was given: the messages it left
// out (below the turn start) count as summarized, so that the window moves
// past them (they never come back into the context). Requires m.mu.
func (m *Memory) windowStatesLocked(c *engineCall, states []compact.MessageState) []compact.MessageState {
	if c.from <= m.lead || len(states) != c.hist {
		return states
	}
	out := make([]compact.MessageState, 0, m.windowLen(c.n))
	j := 0
	m.windowLocked(c.n, func(i int) {
		if i >= m.lead && i < c.from {
			out = append(out, compact.StateSummarized)
			return
		}
		out = append(out, states[j])
		j++
	})
	return out
}

package compact

import (
	"fmt"
	"strings"

	"github.com/tmc/langchaingo/llms"
)

// tooSmall returns the ErrBudgetTooSmall of w once stage 3 could cut no
// more: the tokens needed against the budget, and what they are, part by
// part, adding up (the system prompt, the task and the latest user
// message, the summary, the tool calls and results kept whole because a
// tool round is never split, the other messages, the reply priming).
func (w *work) tooSmall(bud int) error {
	var sys, task, latest, tool, other, calls, nSys, nTool, nOther int
	for i := range w.msgs {
		if w.dropped[i] {
			continue
		}
		t := w.tokens[i]
		switch {
		case i < w.lead:
			sys, nSys = sys+t, nSys+1
		case i == w.last:
			latest = t
		case i == w.first:
			task = t
		case isToolMessage(w.msgs[i]):
			tool, nTool = tool+t, nTool+1
			calls += countCalls(w.msgs[i])
		default:
			other, nOther = other+t, nOther+1
		}
	}
	var parts []string
	add := func(tokens int, format string, args ...any) {
		if tokens > 0 {
			parts = append(parts, fmt.Sprintf(format+": %d", append(args, tokens)...))
		}
	}
	add(sys, "system prompt (%d messages)", nSys)
	add(task, "task (first user message)")
	add(latest, "latest user message")
	add(w.sumTok, "summary")
	add(tool, "%d tool calls and their results kept whole, a tool round is never split (%d messages)", calls, nTool)
	add(other, "other recent messages (%d)", nOther)
	add(w.reserve, "reserved (WithReserve)")
	add(w.base-w.reserve, "reply priming")
	return fmt.Errorf("%w: %d tokens needed, budget %d (%s)", ErrBudgetTooSmall, w.total(), bud, strings.Join(parts, " + "))
}

// isToolMessage reports whether m holds a tool call or a tool result.
func isToolMessage(m llms.MessageContent) bool {
	if m.Role == llms.ChatMessageTypeTool {
		return true
	}
	return countCalls(m) > 0
}

// countCalls returns the tool calls of m.
func countCalls(m llms.MessageContent) int {
	n := 0
	for _, p := range m.Parts {
		if _, ok := p.(llms.ToolCall); ok {
			n++
		}
	}
	return n
}

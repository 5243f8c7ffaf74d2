package compact

import (
	"github.com/agentcompact/compact/internal/msg"
	"github.com/tmc/langchaingo/llms"
)

// WithConversationPolicy makes this call's compaction aim for at most
// share of the budget, in place of the compactor's reset ratio (see
// [WithTrigger]); the trigger's hysteresis uses share too (a share above
// the trigger ratio raises the call's trigger to it), the minimum gain
// ([WithMinGain]) does not apply, and the preserved tail shrinks to its
// floor before the target is given up. memory.Memory passes it (with
// [WithWholeTurns]) for conversations of plain turns, which then keep as
// many recent turns as the budget allows. share must be in (0, 1]; any
// other value keeps the compactor's reset ratio. Default: the compactor's.
func WithConversationPolicy(share float64) CallOption {
	return func(o *callOptions) {
		if share > 0 && share <= 1 {
			o.reset = share
		}
	}
}

// WithWholeTurns makes this call's compaction keep a human message and
// the plain AI reply right after it together, dropped or kept as one unit,
// so that a reply is never shown without the message it answers (the task,
// the first human message, and the latest one stay units of their own: the
// engine pins them). memory.Memory passes it for conversations of plain
// turns. Default: off, each message is a unit (a tool round is one).
func WithWholeTurns() CallOption {
	return func(o *callOptions) { o.wholeTurns = true }
}

// resetOf returns the reset ratio in force for w's call.
func (c *Compactor) resetOf(w *work) float64 {
	if w.reset > 0 {
		return w.reset
	}
	return c.o.reset
}

// pairTurns regroups w's units for the conversation policy: a human
// message and a plain AI reply right after it are one unit; every other
// unit stays as buildUnits made it.
func (w *work) pairTurns() {
	old := w.units
	w.units = old[:0] // in place: a unit is written at or before the one read
	for u := 0; u < len(old); u++ {
		r := old[u]
		if i := r[0]; r[1] == i+1 && i >= w.lead && i != w.first && i != w.last && w.msgs[i].Role == llms.ChatMessageTypeHuman && u+1 < len(old) {
			if n := old[u+1]; n[1] == n[0]+1 && w.msgs[n[0]].Role == llms.ChatMessageTypeAI && !msg.HasToolCall(w.msgs[n[0]]) {
				r[1] = n[1]
				u++
			}
		}
		for k := r[0]; k < r[1]; k++ {
			w.unit[k] = len(w.units)
		}
		w.units = append(w.units, r)
	}
}

// KeptFrom returns the first of n messages (message i counting tokens(i)
// tokens, as the compactor's counter counts it) that a compaction by
// trigger aiming at share of the budget ([WithConversationPolicy]'s share;
// a share outside (0, 1] means the reset ratio) keeps at least beside a
// summary of [Compactor.SummaryCap] tokens and reserve tokens
// ([WithReserve]): the start of the longest suffix that fits what remains
// of its target. The messages before it are those such a compaction may
// take out of the context; 0 when every message fits. It reads the counts
// from the last message back and stops at the first that does not fit.
func (c *Compactor) KeptFrom(n int, tokens func(i int) int, share float64, reserve int) int {
	if share <= 0 || share > 1 {
		share = c.o.reset
	}
	room := c.target(ReasonTrigger, c.budget, share) - c.SummaryCap() - reserve
	for i := n - 1; i >= 0; i-- {
		if room -= tokens(i); room < 0 {
			return i + 1
		}
	}
	return 0
}

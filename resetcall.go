package compact

import (
	"github.com/agentcompact/compact/internal/msg"
	"github.com/tmc/langchaingo/llms"
)

// WithConversationPolicy sets this call's policy for a conversation of
// plain turns (no tool rounds): its compaction aims for at most share of
// the budget, in place of the compactor's reset ratio (see [WithTrigger]),
// the trigger's hysteresis uses share too, the minimum gain
// ([WithMinGain]) does not apply, and a human message with the AI reply
// after it is one unit, dropped or kept whole, so that a reply is never
// shown without the message it answers. memory.Memory passes it for
// conversations without tool outputs, which then keep as many recent turns
// as the budget allows (see the memory package's policy). share must be in
// (0, 1]; any other value leaves the call's policy the compactor's.
// Default: the compactor's.
func WithConversationPolicy(share float64) CallOption {
	return func(o *callOptions) {
		if share > 0 && share <= 1 {
			o.reset = share
		}
	}
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
	w.units = w.units[:0:0]
	for u := 0; u < len(old); u++ {
		r := old[u]
		if i := r[0]; r[1] == i+1 && i >= w.lead && w.msgs[i].Role == llms.ChatMessageTypeHuman && u+1 < len(old) {
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

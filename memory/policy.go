package memory

import (
	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/tmc/langchaingo/llms"
)

// conversationSlack is how far below the trigger ratio a compaction of a
// plain conversation aims (see policyOptions): a turn or two of room, so
// that it does not compact on every turn.
const conversationSlack = 0.05

// policyOptions returns the engine's call options of the Memory's policy
// for the call c: for a conversation of plain turns (no tool calls, no tool
// messages among the messages the engine is given),
// compact.WithConversationPolicy aiming just below the trigger ratio, so
// that a compaction drops only the oldest whole turns and the context keeps
// as many recent turns as a token buffer of the budget less the summary and
// the retrieval reserve; nothing for an agent's conversation (the
// compactor's own reset ratio). Requires m.mu.
func (m *Memory) policyOptions(c *engineCall) []compact.CallOption {
	for _, mc := range c.msgs {
		if mc.Role == llms.ChatMessageTypeTool || msg.HasToolCall(mc) {
			return nil
		}
	}
	if !m.o.turnPolicy {
		return []compact.CallOption{compact.WithWholeTurns()}
	}
	trigger, reset := m.c.Trigger()
	return []compact.CallOption{compact.WithWholeTurns(), compact.WithConversationPolicy(max(reset, trigger-conversationSlack))}
}

// WithTurnPolicy turns on the policy for conversations of plain turns
// (no tool calls, no tool messages): a compaction aims just below the
// engine's trigger ratio instead of its reset ratio, with no minimum gain,
// and drops a human message and the AI reply after it together
// (compact.WithConversationPolicy). The context then keeps as many recent
// turns as a token buffer of the budget would, less the room of the summary
// and of the retrieval reserve, and never shows a reply without the message
// it answers. The price: a compaction every few turns once the budget is
// full (the prefix providers cache moves with it). Agent conversations
// (with tool rounds) keep the compactor's policy. Whole turns
// (compact.WithWholeTurns) hold for plain conversations either way.
// Default true; false gives plain conversations the compactor's own policy
// (its reset ratio and minimum gain).
func WithTurnPolicy(on bool) Option { return func(o *options) { o.turnPolicy = on } }

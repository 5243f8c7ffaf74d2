package memory

import (
	compact "github.com/agentcompact/compact"
)

// conversationSlack is how far below the whole budget a compaction of a
// plain conversation aims (policyOptions): the hysteresis. Each compaction
// runs the digest and moves the cached prefix; a lower aim keeps fewer
// recent turns than a token buffer. 0.06 compacts half as often as 0.03
// for at most 0.8 points of the chats' probe answers with a generic input
// (docs/eval/chats.md, "The aim, priced").
const conversationSlack = 0.06

// policyOptions returns the engine's call options of the Memory's policy
// for the call c: for a conversation of plain turns (no tool calls, no tool
// messages among the messages the engine is given),
// compact.WithConversationPolicy aiming just below the whole budget (1 less
// conversationSlack; the engine triggers when the budget is full), so that a
// compaction drops only the oldest whole turns and the context keeps
// as many recent turns as a token buffer of the budget less the summary and
// the retrieval reserve; nothing for an agent's conversation (the
// compactor's own reset ratio). Requires m.mu.
//
// Every call also gets compact.WithRecallHint(m.recallOffered()): the
// summary points to the recall tool only when there is one.
func (m *Memory) policyOptions(c *engineCall) []compact.CallOption {
	hint := m.recallHintOption()
	if m.win.HasToolRounds(c.Input) {
		return []compact.CallOption{hint}
	}
	if !m.o.turnPolicy {
		return []compact.CallOption{hint, compact.WithWholeTurns()}
	}
	return []compact.CallOption{hint, compact.WithWholeTurns(), compact.WithConversationPolicy(m.conversationShare())}
}

// conversationShare is the share of the budget a compaction of a plain
// conversation aims for (policyOptions).
func (m *Memory) conversationShare() float64 {
	_, reset := m.c.Trigger()
	return max(reset, 1-conversationSlack)
}

// recallOffered reports whether the Memory's summary points to recall
// (compact.RecallHint): only once its RecallTool was taken (an agent may
// have it). Retrieval alone does not count: the Memory recalls for the
// input itself, and a conversation chain has no tool to call, so a hint
// would tell the model to call a tool it cannot call.
func (m *Memory) recallOffered() bool { return m.recallTaken.Load() }

// recallHintOption is the engine call option of recallOffered.
func (m *Memory) recallHintOption() compact.CallOption {
	return compact.WithRecallHint(m.recallOffered())
}

// WithTurnPolicy turns on the policy for conversations of plain turns
// (no tool calls, no tool messages): a compaction runs when the context
// would exceed the budget and aims at 94% of it, instead of the
// engine's trigger and reset ratios, with no minimum gain,
// and drops a human message and the AI reply after it together
// (compact.WithConversationPolicy). The context then keeps as many recent
// turns as a token buffer of the budget would, less the room of the summary
// and of the retrieval reserve, and never shows a reply without the message
// it answers. The price: once the budget is full, a compaction every 6% of
// the budget's worth of new turns (the prefix providers cache moves with
// it). Agent conversations
// (with tool rounds) keep the compactor's policy. Whole turns
// (compact.WithWholeTurns) hold for plain conversations either way.
// Default true; false gives plain conversations the compactor's own policy
// (its reset ratio and minimum gain).
func WithTurnPolicy(on bool) Option { return func(o *options) { o.turnPolicy = on } }

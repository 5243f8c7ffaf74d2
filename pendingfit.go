package compact

import (
	"github.com/agentcompact/compact/budget"
	"github.com/tmc/langchaingo/llms"
)

// PendingFits reports whether the messages the engine pins in msgs fit
// its budget beside pending given as the call's pending message
// ([WithPending]) with reserve tokens reserved ([WithReserve]), so that the
// engine's last resort never has to cut pending: the reply priming, the
// reserve, pending, the leading system messages, a summary message of
// [Compactor.SummaryCap] tokens, the task (the first human message after
// the leading system messages) and the preserved tail's floor (pending and
// the last unit of msgs: its last message, with the tool round it ends).
// The counts are upper bounds (masks and cuts only lower them). When it
// reports false, an adapter gives pending's tokens as a reserve instead,
// which the engine never cuts. msgs and pending are not modified.
func (c *Compactor) PendingFits(msgs []llms.MessageContent, reserve int, pending llms.MessageContent) bool {
	counter := c.counter
	need := budget.ReplyPriming + reserve + counter.CountMessage(pending) + c.SummaryCap() + c.summaryMessageTokens()
	lead := 0
	for lead < len(msgs) && msgs[lead].Role == llms.ChatMessageTypeSystem {
		need += counter.CountMessage(msgs[lead])
		lead++
	}
	if lead == len(msgs) {
		return need <= c.budget
	}
	// The last unit: the last message, with the tool round it ends.
	last := len(msgs) - 1
	for last > lead && IsToolResult(msgs[last]) {
		last--
	}
	for _, mc := range msgs[last:] {
		need += counter.CountMessage(mc)
	}
	// The task: the first human message, when before the last unit.
	for i := lead; i < last; i++ {
		if msgs[i].Role == llms.ChatMessageTypeHuman {
			need += counter.CountMessage(msgs[i])
			break
		}
	}
	return need <= c.budget
}

// summaryMessageTokens returns the tokens of a summary message besides its
// text: the message overhead and SummaryPreamble, counted once.
func (c *Compactor) summaryMessageTokens() int {
	c.summaryMsg.once.Do(func() {
		c.summaryMsg.tokens = c.counter.CountMessage(llms.TextParts(llms.ChatMessageTypeHuman, SummaryPreamble))
	})
	return c.summaryMsg.tokens
}

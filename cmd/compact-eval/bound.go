package main

import (
	"github.com/agentcompact/compact/budget"
	"github.com/tmc/langchaingo/llms"
)

// stabilityBound is, for a set of runs at one window, the fewest
// compactions any strategy can make while it keeps verbatim what the
// engine always keeps, and so the largest share of prefix-stable calls it
// can reach.
type stabilityBound struct {
	compactions int // at least this many
	calls       int // calls after each run's first (those that can be stable)
}

// share is the largest share of prefix-stable calls, NaN-free: 1 when no
// call can be stable or unstable.
func (b stabilityBound) share() float64 {
	if b.calls == 0 {
		return 1
	}
	return 1 - float64(b.compactions)/float64(b.calls)
}

func (b stabilityBound) add(o stabilityBound) stabilityBound {
	return stabilityBound{b.compactions + o.compactions, b.calls + o.calls}
}

// fewestCompactions bounds the compactions of any strategy that replays
// msgs within budget (I1) and keeps verbatim the leading system messages
// (I3), the first user message (the task, which the engine pins), the most
// recent user message (I4) and the last round: the last assistant message
// and what follows it (I2: the results the next call answers need their
// call; I4's floor). Such a strategy, between compactions, sends the
// previous context plus the new messages (I7); so it is lower-bounded by
// one that compacts only when the next call would exceed the budget, down
// to those messages alone with no summary: compacting later or deeper is
// never worse, so this greedy count is the minimum. It undercounts what a
// real strategy keeps (an earlier most recent user message stays until
// the next compaction), which keeps it a lower bound.
func fewestCompactions(msgs []llms.MessageContent, counter *budget.TokenCounter, budgetTokens int) stabilityBound {
	tok := make([]int, len(msgs))
	for i, m := range msgs {
		tok[i] = counter.CountMessage(m)
	}
	lead := 0 // leading system messages
	for lead < len(msgs) && msgs[lead].Role == llms.ChatMessageTypeSystem {
		lead++
	}
	task := -1
	for i := lead; i < len(msgs); i++ {
		if msgs[i].Role == llms.ChatMessageTypeHuman {
			task = i
			break
		}
	}
	// size is what the context before message i holds when the last
	// compaction kept [base, i) beside the pinned messages.
	size := func(base, i int) int {
		latest := -1
		for j := i - 1; j >= 0; j-- {
			if msgs[j].Role == llms.ChatMessageTypeHuman {
				latest = j
				break
			}
		}
		n := budget.ReplyPriming
		for j := 0; j < i; j++ {
			if j < lead || j >= base || j == task || j == latest {
				n += tok[j]
			}
		}
		return n
	}
	var b stabilityBound
	base, calls := 0, 0
	for i := 1; i < len(msgs); i++ {
		if msgs[i].Role != llms.ChatMessageTypeAI {
			continue
		}
		calls++
		if size(base, i) <= budgetTokens {
			continue
		}
		if calls > 1 { // the first call is neither stable nor not
			b.compactions++
		}
		for k := i - 1; k > base; k-- { // keep the last round only
			if msgs[k].Role == llms.ChatMessageTypeAI {
				base = k
				break
			}
		}
	}
	if calls > 1 {
		b.calls = calls - 1
	}
	return b
}

// boundsOf returns the stability bounds of ev's runs (convs, index for
// index with ev.files) at every window, for the budget the window's
// strategies share (strats, as ev.strategies returns them): per folder and
// for all ("").
func boundsOf(ev *evaluation, convs [][]llms.MessageContent, counter *budget.TokenCounter, strats [][]strategy) map[int]map[string]stabilityBound {
	out := map[int]map[string]stabilityBound{}
	for wi, w := range ev.cfg.windows {
		if len(strats[wi]) == 0 {
			continue
		}
		m := map[string]stabilityBound{}
		for i, msgs := range convs {
			b := fewestCompactions(msgs, counter, strats[wi][0].budget)
			m[""] = m[""].add(b)
			m[ev.folders[i]] = m[ev.folders[i]].add(b)
		}
		out[w] = m
	}
	return out
}

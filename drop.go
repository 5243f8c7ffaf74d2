package compact

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/tmc/langchaingo/llms"
)

// dropAndSummarize is stage 2 (with stage 3a, shrinking the tail): it
// chooses the units to drop by priority, summarizes them once (folding in
// the active summary) and records the drops and the new summary in ns. A
// summarizer failure falls back to the rule-based summary unless
// abortOnFailure is set; only ctx's error or that one is returned.
func (c *Compactor) dropAndSummarize(ctx context.Context, w *work, ns *sessionState, ev *Event, target, bud, tailStart int) error {
	newDrops := w.selectDrops(target, bud, tailStart, c.o.preserveFloor, ev.TokensBefore)
	if len(newDrops) == 0 {
		return nil
	}
	skip, err := c.askGate(ctx, w, ev.Reason)
	if err != nil {
		return err
	}
	rec, calls, reports, sumErr := c.summarize(ctx, w, ns.latest(), newDrops, skip)
	ev.SummarizerCalls, ev.Calls = calls, reports
	if sumErr != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if c.o.abortOnFailure {
			return fmt.Errorf("%w: %w", ErrSummarizer, sumErr)
		}
		ev.Err, ev.ErrText = sumErr, extractors.Redact(sumErr.Error()) // a provider error may quote the request
		ns.Stats.Fallbacks++
	}
	for _, i := range newDrops {
		w.dropped[i] = true
		ns.drop(w.ids[i])
	}
	ns.Stats.MessagesSummarized += len(newDrops)
	ns.appendRecord(rec, c.o.chainRetention)
	ns.Stats.SummarizerCalls += calls
	w.setSummary(rec)
	ev.Mode, ev.Dropped, ev.SummaryID = rec.Mode, len(newDrops), rec.ID
	return nil
}

// askGate asks the call's summarize gate, if any, whether the summarizer
// may run: skip is true when the gate says to use the rule-based digest;
// any other error of the gate abandons the compaction.
func (c *Compactor) askGate(ctx context.Context, w *work, reason string) (skip bool, err error) {
	if w.gate == nil || c.summarizer == nil {
		return false, nil
	}
	err = w.gate(ctx, reason)
	switch {
	case err == nil:
		return false, nil
	case errors.Is(err, ErrSkipSummarizer):
		return true, nil
	}
	return false, fmt.Errorf("compact: the summarize gate stopped the compaction: %w", err)
}

// kindOf classifies the unit u for the priority table.
func (w *work) kindOf(u int, tailStart int) Kind {
	r := w.units[u]
	switch {
	case r[0] < w.lead:
		return KindSystem
	case w.last >= 0 && u == w.unit[w.last]:
		return KindLatestUser
	case w.first >= 0 && u == w.unit[w.first]:
		return KindTask
	case r[0] >= tailStart:
		return KindTail
	}
	m := w.msgs[r[0]]
	switch m.Role {
	case llms.ChatMessageTypeHuman:
		return KindUser
	case llms.ChatMessageTypeAI:
		if r[1]-r[0] > 1 || msg.HasToolCall(m) {
			for i := r[0] + 1; i < r[1]; i++ {
				if w.flags[i]&flagFailed != 0 {
					return KindToolError
				}
			}
			return KindToolRound
		}
		return KindAssistant
	}
	return KindOther
}

// selectDrops chooses the units to drop, lowest priority and oldest first,
// until the estimated total fits target; when the candidates run out while
// over the budget, or while the compaction would free less than the
// minimum gain (WithMinGain) from before, the tokens it started from, it
// shrinks the tail down to floor messages. It returns the indexes of the
// messages to drop, in order.
func (w *work) selectDrops(target, bud, tailStart, floor, before int) []int {
	c := w.c
	estSummary := c.counter.Count(SummaryPreamble+w.recallHint()) + c.SummaryCap() + 8
	need := w.total() - w.sumTok + estSummary - target
	chosen := map[int]bool{}
	pick := func(tailStart int) {
		type cand struct{ u, prio int }
		var cands []cand
		for u := range w.units {
			if chosen[u] || w.dropped[w.units[u][0]] {
				continue
			}
			k := w.kindOf(u, tailStart)
			if k.Pinned() {
				continue
			}
			cands = append(cands, cand{u, c.o.priorities.of(k)})
		}
		sort.SliceStable(cands, func(a, b int) bool { return cands[a].prio < cands[b].prio })
		for _, cd := range cands {
			if need <= 0 {
				return
			}
			chosen[cd.u] = true
			r := w.units[cd.u]
			for i := r[0]; i < r[1]; i++ {
				need -= w.tokens[i]
			}
		}
	}
	pick(tailStart)
	// The compaction would leave about target+need tokens. Shrink the tail
	// while that is over the budget, or frees less than the minimum gain
	// from the tokens before the compaction.
	minGain := int(c.o.minGain * float64(bud))
	if w.reset > 0 { // WithConversationPolicy: the caller's policy, no minimum gain
		minGain = 0
	}
	short := func() bool {
		// WithConversationPolicy: the tail too, down to its floor, to reach a
		// target (not a manual compaction's: it keeps the preserved tail).
		return need+target > bud || (minGain > 0 && before-(target+need) < minGain) || (w.reset > 0 && target > 0 && need > 0)
	}
	for p := c.o.preserveRecent - 1; need > 0 && short() && p >= floor; p-- {
		pick(w.tailStart(p))
	}
	var idx []int
	for u := range w.units {
		if chosen[u] {
			for i := w.units[u][0]; i < w.units[u][1]; i++ {
				idx = append(idx, i)
			}
		}
	}
	return idx
}

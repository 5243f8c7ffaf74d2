package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/agentcompact/compact"
)

// headroom is what a strategy that leaves calls under a threshold alone can
// save at one window, computed from the uncompacted contexts.
type headroom struct {
	window, budget      int
	calls, overBudget   int
	underTrigger        int
	underTriggerTokens  float64 // share of all tokens in calls under the trigger
	capBudget, capTrig  float64 // reduction if every call were capped at the budget, the trigger
	capReset            float64 // ... at the reset ratio
	avgNeeded           float64 // mean tokens per call that a 60% reduction allows
	aboveTriggerAllowed float64 // mean tokens per call above the trigger for -60%, calls under it unchanged
}

func computeHeadroom(ev *evaluation, w int) (headroom, bool) {
	h := headroom{window: w}
	var total, under float64
	var capB, capT, capR float64
	found := false
	for _, res := range ev.results {
		if res.window != w || res.strategy != stratNone {
			continue
		}
		found = true
		h.budget = res.budget
		trig := compact.SpecTriggerRatio * float64(res.budget)
		reset := compact.SpecResetRatio * float64(res.budget)
		for _, c := range res.calls {
			n := float64(c.origTokens)
			h.calls++
			total += n
			if c.origTokens > res.budget {
				h.overBudget++
			}
			if n < trig {
				h.underTrigger++
				under += n
			}
			capB += math.Min(n, float64(res.budget))
			capT += math.Min(n, trig)
			capR += math.Min(n, reset)
		}
	}
	if !found || total == 0 {
		return h, false
	}
	h.underTriggerTokens = under / total
	h.capBudget, h.capTrig, h.capReset = 1-capB/total, 1-capT/total, 1-capR/total
	h.avgNeeded = (1 - targetReduction) * total / float64(h.calls)
	if above := h.calls - h.underTrigger; above > 0 {
		h.aboveTriggerAllowed = ((1-targetReduction)*total - under) / float64(above)
	}
	return h, true
}

// writeHeadroom explains what compaction triggered by the budget can save.
func writeHeadroom(b *strings.Builder, ev *evaluation) {
	var rows [][]string
	for _, w := range ev.cfg.windows {
		h, ok := computeHeadroom(ev, w)
		if !ok {
			continue
		}
		allowed := "impossible"
		if h.aboveTriggerAllowed > 0 {
			allowed = fmtInt(int64(math.Round(h.aboveTriggerAllowed)))
		}
		rows = append(rows, []string{windowLabel(w), fmtInt(int64(h.calls)), fmtInt(int64(h.overBudget)),
			fmtInt(int64(h.underTrigger)), pct(h.underTriggerTokens), signedPct(h.capBudget), signedPct(h.capTrig),
			signedPct(h.capReset), fmtInt(int64(math.Round(h.avgNeeded))), allowed})
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString("## Headroom: what compaction near the budget can save\n\n")
	fmt.Fprintf(b, "Computed from the uncompacted contexts (`none`). The engine compacts a call only when its context reaches the trigger ratio (default %.2f of the budget) and then aims for the reset ratio (default %.2f); calls under the trigger are sent as they are. The last columns give the change of input tokens if every call were capped at the budget, the trigger or the reset ratio, and, for a %.0f%% reduction, the mean context per call it allows, and the mean context the calls over the trigger would have to get down to if the calls under it are left alone.\n\n",
		compact.SpecTriggerRatio, compact.SpecResetRatio, 100*targetReduction)
	markdownTable(b, []string{"window", "calls", "over budget", "under trigger", "tokens in calls under trigger",
		"capped at budget", "capped at trigger", "capped at reset", "mean context for -60%", "mean over-trigger context for -60%"}, rows)
	b.WriteString("\n")
}

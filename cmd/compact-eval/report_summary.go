package main

import (
	"fmt"
	"slices"
	"strings"
)

// summaryStrategies are the strategies of the one-page summary besides the
// peers: ours (default and LLM mode) and the baselines.
var summaryStrategies = []string{stratOursRule, stratOursLLM, stratOldest, stratMaskPre + "10"}

// summaryWindow is the window the summary speaks of: the target window
// when evaluated, else the first.
func summaryWindow(ev *evaluation) int {
	for _, w := range ev.cfg.windows {
		if w == targetWindow {
			return w
		}
	}
	return ev.cfg.windows[0]
}

// writeSummary writes the one-page summary at the top of the report: our
// default against no compaction, the baselines and the peers at the
// summary window, and the verdict of the peer targets.
func writeSummary(b *strings.Builder, ev *evaluation) {
	w := summaryWindow(ev)
	none, ok := findRow(ev.rows, w, stratNone)
	d, okd := findRow(ev.rows, w, stratOursRule)
	if !ok || !okd {
		return
	}
	fmt.Fprintf(b, "## Summary (%s window, all %d runs)\n\n", windowLabel(w), len(ev.files))
	fmt.Fprintf(b, "Our default (`ours-rule`) keeps %s of the tokens the agent goes on to use (used-later retention; %s on the %d of %d runs it compacted). ",
		pct(d.usedLater()), pct(d.usedLaterCompacted()), d.compactedRuns, d.runs)
	fmt.Fprintf(b, "Input tokens %s vs no compaction; it costs %s of it with OpenAI-style prompt caching (%s Anthropic-style), keeping %s of the facts our extractors target on average (lowest category %s), with %s of the calls prefix-stable, %d budget and %d tool-pair violations.",
		signedPct(d.reduction), ratioOf(d.costOpenAI, none.costOpenAI), ratioOf(d.costAnthropic, none.costAnthropic),
		pct(d.meanRetention()), pct(d.minRetention()), pct(d.stableShare()), d.budgetViolations, d.pairViolations)
	if d.recall.measured {
		fmt.Fprintf(b, " Every compacted original came back by its ref (%s) and by search (%s).", pct(d.recallByRef()), pct(d.recallBySearch()))
	}
	b.WriteString("\n\n")
	head := []string{"strategy", "used-later", "OpenAI-style cost vs none", "Anthropic-style vs none", "mean retention", "lowest category",
		"prefix-stable", "budget violations", "tool-pair violations"}
	var rows [][]string
	for _, s := range ev.cfg.strategies {
		if !isPeer(s) && !slices.Contains(summaryStrategies, s) {
			continue
		}
		r, ok := findRow(ev.rows, w, s)
		if !ok {
			continue
		}
		name := "`" + s + "`"
		if isPeer(s) {
			name += " (peer)"
		}
		rows = append(rows, []string{name, pct(r.usedLater()), ratioOf(r.costOpenAI, none.costOpenAI), ratioOf(r.costAnthropic, none.costAnthropic),
			pct(r.meanRetention()), pct(r.minRetention()), pct(r.stableShare()), fmt.Sprint(r.budgetViolations), fmt.Sprint(r.pairViolations)})
	}
	markdownTable(b, head, rows)
	b.WriteString("\n")
	if w == targetWindow && hasPeers(ev) {
		missed := 0
		lines := peerTargetLines(ev)
		for _, l := range lines {
			if strings.Contains(l, "MISSED") {
				missed++
			}
		}
		fmt.Fprintf(b, "Targets against the peers (no peer at most our cost with no less retention; a cheaper one keeps at least 3 points less; moonshot: ours at most 0.8 of the cheapest peer): %d of %d checks met. ", len(lines)-missed, len(lines))
		b.WriteString("See \"Peers\" for every window and folder, where a peer wins and why.\n\n")
	}
	b.WriteString("Sections: Method; Results at a 32k window (with the targets for ours); Peers; Per source framework; Cost and the default policy; Headroom; Plots; All windows; Definitions; Per trajectory.\n\n")
}

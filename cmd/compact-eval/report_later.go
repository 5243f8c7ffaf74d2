package main

import (
	"fmt"
	"strings"
)

// tableLater returns the header and rows of the used-later table of one
// window (usedlater.go): retention over every run and over the runs the
// strategy compacted, the tokens needed and missed, where the missed ones
// were last seen, and the calls a provider would reject.
func tableLater(rows []row, w int) ([]string, [][]string) {
	head := []string{"strategy", "used-later", "on compacted runs", "runs compacted", "tokens needed", "missed",
		"missed, last seen in the agent's messages", "calls over the window (rejected)"}
	var out [][]string
	for _, r := range rows {
		if r.window != w {
			continue
		}
		missed := r.laterNeeded - r.laterKept
		ai := "n/a"
		if missed > 0 {
			ai = fmt.Sprintf("%s (%s)", fmtInt(r.laterMissedAI), pct(float64(r.laterMissedAI)/float64(missed)))
		}
		out = append(out, []string{r.strategy, pct(r.usedLater()), pct(r.usedLaterCompacted()),
			fmt.Sprintf("%d / %d", r.compactedRuns, r.runs), fmtInt(r.laterNeeded), fmtInt(missed), ai, fmtInt(int64(r.overWindow))})
	}
	return head, out
}

// tableLaterWindows returns the headline table: per strategy, used-later
// retention at every window and the OpenAI-style cost relative to none at
// the target window (or the last window evaluated).
func tableLaterWindows(ev *evaluation) ([]string, [][]string) {
	cw := ev.cfg.windows[len(ev.cfg.windows)-1]
	for _, w := range ev.cfg.windows {
		if w == targetWindow {
			cw = w
		}
	}
	head := []string{"strategy"}
	for _, w := range ev.cfg.windows {
		head = append(head, windowLabel(w)+" used-later")
	}
	head = append(head, windowLabel(cw)+" cost vs none (OpenAI-style)", windowLabel(cw)+" five categories (mean / lowest)")
	none, _ := findRow(ev.rows, cw, stratNone)
	var out [][]string
	for _, s := range ev.cfg.strategies {
		line := []string{"`" + s + "`"}
		for _, w := range ev.cfg.windows {
			r, _ := findRow(ev.rows, w, s)
			line = append(line, pct(r.usedLater()))
		}
		r, _ := findRow(ev.rows, cw, s)
		line = append(line, ratioOf(r.costOpenAI, none.costOpenAI), pct(r.meanRetention())+" / "+pct(r.minRetention()))
		out = append(out, line)
	}
	return head, out
}

// writeLater writes the report's used-later section.
func writeLater(b *strings.Builder, ev *evaluation) {
	b.WriteString("## Used-later retention: what the agent goes on to use\n\n")
	b.WriteString("The headline measure (design invariant I15): of the salient tokens the real agent wrote in its next message that only older context held, the share present in what the strategy sent (exact definition under Definitions). A request over the window keeps nothing: a provider rejects it. The five fact categories (paths, exceptions, exit statuses, instructions, identifiers) are the facts our extractors target: diagnostics, not the headline.\n\n")
	h, rs := tableLaterWindows(ev)
	markdownTable(b, h, rs)
	b.WriteString("\n")
	for _, w := range ev.cfg.windows {
		fmt.Fprintf(b, "### Used-later at a %s window\n\n", windowLabel(w))
		h, rs := tableLater(ev.rows, w)
		markdownTable(b, h, rs)
		b.WriteString("\n")
	}
}

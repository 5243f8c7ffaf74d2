package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Targets against the peers, at the target window with cached input at
// 10%: no peer costs no more than our default at equal or better mean
// retention; a cheaper peer keeps at least peerRetentionGap less; moonshot:
// our default costs at most peerMoonshot of the cheapest peer at no lower
// retention.
const (
	peerRetentionGap = 0.03
	peerMoonshot     = 0.8
)

// peerCompared are the strategies of ours shown beside the peers.
var peerCompared = []string{stratOursRule, stratOursLLM}

// peerCost is a cost of a row with prompt caching: OpenAI-style or
// Anthropic-style (pricing.go).
type peerCost struct {
	label string
	of    func(row) float64
}

// peerCosts are the two provider-style costs the targets are checked with.
var peerCosts = []peerCost{
	{"OpenAI-style", func(r row) float64 { return r.costOpenAI }},
	{"Anthropic-style", func(r row) float64 { return r.costAnthropic }},
}

// peerRows returns, in order, the rows of ours (peerCompared) and of the
// peers that rows holds at window w.
func peerRows(rows []row, w int, strategies []string) []row {
	var out []row
	for _, s := range strategies {
		if !isPeer(s) && !slices.Contains(peerCompared, s) {
			continue
		}
		if r, ok := findRow(rows, w, s); ok {
			out = append(out, r)
		}
	}
	return out
}

// hasPeers reports whether the evaluation ran a peer.
func hasPeers(ev *evaluation) bool {
	for _, s := range ev.cfg.strategies {
		if isPeer(s) {
			return true
		}
	}
	return false
}

// tablePeers returns the header and rows of the peers table of rows at
// window w: costs relative to none, retention by category, invariants.
func tablePeers(rows []row, w int, strategies []string) ([]string, [][]string) {
	head := []string{"strategy", "used-later", "OpenAI-style cost", "vs none", "Anthropic-style cost", "vs none", "paths", "exceptions",
		"exit statuses", "instructions", "identifiers", "mean", "prefix-stable", "compactions per run", "summarizer calls",
		"budget violations", "tool-pair violations"}
	none, _ := findRow(rows, w, stratNone)
	var out [][]string
	for _, r := range peerRows(rows, w, strategies) {
		perRun := math.NaN()
		if r.runs > 0 {
			perRun = float64(r.compactions) / float64(r.runs)
		}
		out = append(out, []string{"`" + r.strategy + "`", pct(r.usedLater()),
			dollars(r.costOpenAI), ratioOf(r.costOpenAI, none.costOpenAI),
			dollars(r.costAnthropic), ratioOf(r.costAnthropic, none.costAnthropic),
			pct(r.retention[factPaths]), pct(r.retention[factExceptions]), pct(r.retention[factExits]),
			pct(r.retention[factInstructions]), pct(r.retention[factIdentifiers]), pct(r.meanRetention()),
			pct(r.stableShare()), fmt.Sprintf("%.1f", perRun), fmt.Sprint(r.sumCalls),
			fmt.Sprint(r.budgetViolations), fmt.Sprint(r.pairViolations)})
	}
	return head, out
}

// ratioOf formats a/b, or n/a when b is not positive.
func ratioOf(a, b float64) string {
	if b <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", a/b)
}

// peerVerdict checks the peer targets for peer p against our default d
// with cost c: it returns whether they hold and the words saying so.
func peerVerdict(d, p row, c peerCost) (bool, string) {
	dc, pc := c.of(d), c.of(p)
	dm, pm := d.meanRetention(), p.meanRetention()
	gap := dm - pm
	switch {
	case pc <= dc && pm >= dm:
		return false, fmt.Sprintf("costs %s (%s of ours) at %s mean retention, no less than ours (%s): **MISSED**", dollars(pc), ratioOf(pc, dc), pct(pm), pct(dm))
	case pc < dc && gap < peerRetentionGap:
		return false, fmt.Sprintf("cheaper (%s, %s of ours) and keeps only %.1f points less (%s vs %s; target >= 3): **MISSED**", dollars(pc), ratioOf(pc, dc), 100*gap, pct(pm), pct(dm))
	case pc < dc:
		return true, fmt.Sprintf("cheaper (%s, %s of ours) but keeps %.1f points less (%s vs %s; target >= 3): met", dollars(pc), ratioOf(pc, dc), 100*gap, pct(pm), pct(dm))
	}
	return true, fmt.Sprintf("costs more (%s, %s of ours) at %s mean retention (ours %s): met", dollars(pc), ratioOf(pc, dc), pct(pm), pct(dm))
}

// peerTargetLines checks the peer targets at the target window over all
// runs, with each provider-style cost, and the moonshot.
func peerTargetLines(ev *evaluation) []string {
	d, ok := findRow(ev.rows, targetWindow, stratOursRule)
	if !ok {
		return nil
	}
	var lines []string
	for _, c := range peerCosts {
		var cheapest row
		found := false
		for _, s := range ev.cfg.strategies {
			p, ok := findRow(ev.rows, targetWindow, s)
			if !ok || !isPeer(s) {
				continue
			}
			_, words := peerVerdict(d, p, c)
			lines = append(lines, fmt.Sprintf("- %s, `%s`: %s", c.label, s, words))
			if !found || c.of(p) < c.of(cheapest) {
				cheapest, found = p, true
			}
		}
		if found {
			ratio := c.of(d) / c.of(cheapest)
			ok := ratio <= peerMoonshot && d.meanRetention() >= cheapest.meanRetention()
			lines = append(lines, fmt.Sprintf("- %s, moonshot: ours costs %s of the cheapest peer (`%s`, %s), target <= %.1f at no lower retention (%s vs %s): %s",
				c.label, ratioOf(c.of(d), c.of(cheapest)), cheapest.strategy, dollars(c.of(cheapest)), peerMoonshot,
				pct(d.meanRetention()), pct(cheapest.meanRetention()), metWord(ok)))
		}
	}
	return lines
}

func metWord(ok bool) string {
	if ok {
		return "met"
	}
	return "**MISSED**"
}

// peerWin is a peer that costs less than our default at one window and
// scope, with either provider-style cost.
type peerWin struct {
	w       int
	scope   string
	d, p    row
	cheaper []string // "OpenAI-style $7.09 vs $7.24", ...
}

// peerWins returns, for every window and folder, the peers that cost less
// than our default with either provider-style cost.
func peerWins(ev *evaluation) []peerWin {
	var out []peerWin
	for _, w := range ev.cfg.windows {
		for _, sc := range peerScopes(ev) {
			d, ok := findRow(sc.rows, w, stratOursRule)
			if !ok {
				continue
			}
			for _, s := range ev.cfg.strategies {
				p, ok := findRow(sc.rows, w, s)
				if !ok || !isPeer(s) {
					continue
				}
				win := peerWin{w: w, scope: sc.label, d: d, p: p}
				for _, c := range peerCosts {
					if c.of(p) < c.of(d) {
						win.cheaper = append(win.cheaper, fmt.Sprintf("%s %s vs %s", c.label, dollars(c.of(p)), dollars(c.of(d))))
					}
				}
				if len(win.cheaper) > 0 {
					out = append(out, win)
				}
			}
		}
	}
	return out
}

// line describes the win with what the peer trades for it.
func (x peerWin) line() string {
	p, d := x.p, x.d
	return fmt.Sprintf("- %s, %s: `%s` is cheaper (%s): it sends %s input tokens (ours %s), %s prefix-stable calls (ours %s), %.1f compactions per run (ours %.1f), %d summarizer calls (ours %d); mean retention %s vs ours %s, lowest category %s vs %s, budget violations %d vs %d.",
		windowLabel(x.w), x.scope, p.strategy, strings.Join(x.cheaper, ", "), fmtInt(p.billed), fmtInt(d.billed),
		pct(p.stableShare()), pct(d.stableShare()), perRunOf(p), perRunOf(d), p.sumCalls, d.sumCalls,
		pct(p.meanRetention()), pct(d.meanRetention()), pct(p.minRetention()), pct(d.minRetention()),
		p.budgetViolations, d.budgetViolations)
}

// peerWhy writes, per peer that wins somewhere, why (its policy's
// mechanism, peerDef.wins), what it pays, and how much less ours would
// have to cost there to match it.
func peerWhy(wins []peerWin) string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, x := range wins {
		if seen[x.p.strategy] {
			continue
		}
		seen[x.p.strategy] = true
		var where []string
		need, retGap := 0.0, 1.0
		for _, y := range wins {
			if y.p.strategy != x.p.strategy {
				continue
			}
			where = append(where, windowLabel(y.w)+" "+y.scope)
			for _, c := range peerCosts {
				if c.of(y.d) > 0 {
					need = max(need, 1-c.of(y.p)/c.of(y.d))
				}
			}
			retGap = min(retGap, y.d.meanRetention()-y.p.meanRetention())
		}
		d, _ := findPeer(x.p.strategy)
		recovers := "nothing it drops can be brought back by the agent"
		if d.recovers != "" {
			recovers = d.recovers
		}
		fmt.Fprintf(&b, "- `%s` wins at %s. Why: %s. What it pays: its mean retention is at least %.1f points under ours wherever it wins; %s. To match it, ours would have to cost up to %.1f%% less there; it would need %s.\n",
			x.p.strategy, strings.Join(where, "; "), d.wins, 100*retGap, recovers, 100*need, d.needs)
	}
	return b.String()
}

func perRunOf(r row) float64 {
	if r.runs == 0 {
		return math.NaN()
	}
	return float64(r.compactions) / float64(r.runs)
}

// peerScope is a set of runs the peers table is written for.
type peerScope struct {
	label string
	rows  []row
}

// peerScopes are all runs, then each folder.
func peerScopes(ev *evaluation) []peerScope {
	scopes := []peerScope{{"all runs", ev.rows}}
	for _, src := range ev.bySource {
		if src.folder {
			scopes = append(scopes, peerScope{fmt.Sprintf("`%s` (%d runs)", src.source, src.files), src.rows})
		}
	}
	return scopes
}

// writePeers writes the Peers section: what each peer re-creates, its
// parameters and sources, the tables per window and folder, the targets
// and where a peer wins.
func writePeers(b *strings.Builder, ev *evaluation) {
	if !hasPeers(ev) {
		return
	}
	b.WriteString("## Peers: the policies users would pick instead\n\n")
	b.WriteString(peersMethod)
	b.WriteString("| peer | what it re-creates | parameters, per window | from | not reproduced |\n| --- | --- | --- | --- | --- |\n")
	for _, s := range ev.cfg.strategies {
		d, ok := findPeer(s)
		if !ok {
			continue
		}
		var ps []string
		for _, w := range ev.cfg.windows {
			if r, ok := findRow(ev.rows, w, s); ok {
				ps = append(ps, fmt.Sprintf("%s: %s", windowLabel(w), d.params(w, r.budget)))
			}
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s |\n", s, d.doc, strings.Join(ps, "<br>"), d.source, d.gaps)
	}
	b.WriteString("\n")
	for _, w := range ev.cfg.windows {
		for _, sc := range peerScopes(ev) {
			fmt.Fprintf(b, "### %s window, %s\n\n", windowLabel(w), sc.label)
			h, rs := tablePeers(sc.rows, w, ev.cfg.strategies)
			markdownTable(b, h, rs)
			b.WriteString("\n")
		}
	}
	b.WriteString("![Peers: cost versus retention](peers.png)\n\nCost with OpenAI-style prompt caching relative to no compaction against mean fact retention, every peer and ours, one point per strategy and window (shape: window).\n\n")
	if lines := peerTargetLines(ev); len(lines) > 0 {
		fmt.Fprintf(b, "### Targets against the peers (%s window, all runs, `ours-rule` = our default)\n\n", windowLabel(targetWindow))
		b.WriteString(strings.Join(lines, "\n") + "\n\n")
	}
	b.WriteString("### Where a peer wins, and why\n\n")
	wins := peerWins(ev)
	if len(wins) == 0 {
		b.WriteString("No peer costs less than our default at any window or folder, with either provider-style cost.\n\n")
		return
	}
	for _, x := range wins {
		b.WriteString(x.line() + "\n")
	}
	b.WriteString("\n" + peerWhy(wins) + "\n")
}

// peersMethod explains how the peers are re-created and compared.
const peersMethod = "Each peer re-creates, in `cmd/compact-eval` (`peer_*.go`), the compaction policy a big agent stack ships, with its documented defaults, replayed like every strategy: same trajectories, tokenizer, budget and prices. " +
	"A default threshold in tokens that exceeds the budget (the window minus the reserved output, the room every strategy has) is scaled to the same share of our window as it is of the model window it was written for; one written as a share (Codex, Claude Code) is taken as that share of the budget; LangChain's `SummarizationMiddleware` has no default trigger, so the trigger of its documentation's example is used. The table says, per window, which values were scaled. " +
	"Peers that summarize use the same offline summarizer as `ours-llm` (the engine's LLM summarizer over the scripted model, transcript requests, the summary cap of ours at the window), its calls priced like ours. Offline its reply does not depend on the prompt: the comparison measures each policy (when, what and how much it compacts, what it keeps verbatim), not the prose of a summary. " +
	"A peer's compaction is a call whose context is not the previous call's context plus new messages. The recall columns are n/a for the peers: only eino keeps what it drops recoverable (offloaded to files its read tool reads back), which is not measured offline. The targets are checked on the runs of `-dir`: run on the held-out runs, they are the acceptance check.\n\n"

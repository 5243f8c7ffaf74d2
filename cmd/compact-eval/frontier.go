package main

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"sort"
	"strings"

	compact "github.com/agentcompact/compact"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The grid of trigger and reset ratios -frontier evaluates with the
// rule-based summarizer, and the constraints the default policy must meet.
var (
	frontierTriggers = []string{"0.8", "0.9", "1.0"}
	frontierResets   = []string{"0.2", "0.3", "0.4", "0.5", "0.6", "0.7"}
)

const (
	policyMeanRetention = 0.985
	policyMinCategory   = 0.95
	policyStable        = 0.95
)

// frontierStrategies are the grid's strategy names (reset below trigger),
// with the summary cap the engine derives for each window left to it.
func frontierStrategies() []string {
	var out []string
	for _, t := range frontierTriggers {
		for _, r := range frontierResets {
			if r < t {
				out = append(out, fmt.Sprintf("%s:trigger=%s:reset=%s", stratOursRule, t, r))
			}
		}
	}
	return out
}

// meetsPolicy reports whether r meets the default policy's constraints.
func meetsPolicy(r row) bool {
	return r.meanRetention() >= policyMeanRetention && r.minRetention() >= policyMinCategory &&
		r.stableShare() >= policyStable && r.budgetViolations+r.pairViolations+r.failed == 0
}

// frontierRows returns the ours-rule rows of window w (the defaults, the
// specification's policy and the grid), cheapest first (simple pricing,
// cached input at 10%), with whether each is on the cost-retention
// frontier: no other row is both cheaper and retains more.
func frontierRows(rows []row, w int) ([]row, map[string]bool) {
	var out []row
	for _, r := range rows {
		if r.window == w && (r.strategy == stratOursRule || strings.HasPrefix(r.strategy, stratOursRule+":")) {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].cost[0] < out[j].cost[0] })
	onFrontier := map[string]bool{}
	best := math.Inf(-1)
	for _, r := range out {
		if m := r.meanRetention(); m > best {
			onFrontier[r.strategy] = true
			best = m
		}
	}
	return out, onFrontier
}

// writeFrontier writes the cost-retention frontier of every window with a
// grid, and which configurations meet the default policy's constraints:
// per folder when several were evaluated (the targets are defined on the
// coding-agent folder, the others stand beside it).
func writeFrontier(b *strings.Builder, ev *evaluation) {
	for _, w := range ev.cfg.windows {
		for _, sc := range frontierScopes(ev) {
			writeFrontierTable(b, sc.rows, w, sc.label, ev.bounds[w][sc.folder])
		}
	}
}

// frontierScope is the rows of one folder, or of all of them.
type frontierScope struct {
	label  string
	folder string // key in evaluation.bounds
	rows   []row
}

// frontierScopes returns one scope per folder evaluated, or one for all
// rows when there is a single folder.
func frontierScopes(ev *evaluation) []frontierScope {
	var out []frontierScope
	for _, src := range ev.bySource {
		if src.folder {
			out = append(out, frontierScope{", `" + src.source + "`", strings.TrimSuffix(src.source, "/"), src.rows})
		}
	}
	if len(out) <= 1 {
		return []frontierScope{{"", "", ev.rows}}
	}
	return out
}

// writeFrontierTable writes the frontier table of rows at window w, after
// the stability bound bd of those runs.
func writeFrontierTable(b *strings.Builder, rows []row, w int, label string, bd stabilityBound) {
	rs, front := frontierRows(rows, w)
	n, ok := findRow(rows, w, stratNone)
	if len(rs) < 3 || !ok || n.cost[0] <= 0 {
		return
	}
	fmt.Fprintf(b, "### %s window%s\n\n", windowLabel(w), label)
	if bd.calls > 0 {
		fmt.Fprintf(b, "Prefix-stable calls can be at most %s of these runs' calls whatever the configuration (at least %s compactions in %s calls; see the bound under the targets).\n\n",
			pct(bd.share()), fmtInt(int64(bd.compactions)), fmtInt(int64(bd.calls)))
	}
	head := []string{"configuration", "cost, cached at 10%", "vs none", "OpenAI-style vs none", "Anthropic-style vs none",
		"mean retention", "min category", "prefix-stable", "meets the constraints", "on the frontier"}
	var out [][]string
	for _, r := range rs {
		out = append(out, []string{"`" + r.strategy + "`", dollars(r.cost[0]), fmt.Sprintf("%.2f", r.cost[0]/n.cost[0]),
			fmt.Sprintf("%.2f", r.costOpenAI/n.costOpenAI), fmt.Sprintf("%.2f", r.costAnthropic/n.costAnthropic),
			pct(r.meanRetention()), pct(r.minRetention()), pct(r.stableShare()), yes(meetsPolicy(r)), yes(front[r.strategy])})
	}
	markdownTable(b, head, out)
	b.WriteString("\n")
}

func yes(ok bool) string {
	if ok {
		return "yes"
	}
	return ""
}

// costPlot draws the cost with caching (cached input at 10%, relative to
// no compaction) against the mean retention, one point per strategy and
// window; grid configurations are small grey points.
func costPlot(ev *evaluation, path string) error {
	p := plot.New()
	p.Title.Text = "Cost with prompt caching vs fact retention"
	p.X.Label.Text = "cost with cached input at 10%, relative to no compaction"
	p.Y.Label.Text = "mean fact retention at the last call (%)"
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = false, true
	for wi, w := range ev.cfg.windows {
		n, ok := findRow(ev.rows, w, stratNone)
		if !ok || n.cost[0] <= 0 {
			continue
		}
		for si, s := range ev.cfg.strategies {
			r, ok := findRow(ev.rows, w, s)
			if !ok || math.IsNaN(r.meanRetention()) {
				continue
			}
			sc, err := plotter.NewScatter(plotter.XYs{{X: r.cost[0] / n.cost[0], Y: 100 * r.meanRetention()}})
			if err != nil {
				return err
			}
			sc.GlyphStyle.Shape = windowShape(wi)
			sc.GlyphStyle.Radius = vg.Points(4.5)
			sc.GlyphStyle.Color = strategyColor(si)
			if isGrid(s) {
				sc.GlyphStyle.Color = grey
				sc.GlyphStyle.Radius = vg.Points(2.5)
			}
			p.Add(sc)
			if wi == 0 && !isGrid(s) {
				ls, err := plotter.NewScatter(plotter.XYs{{}})
				if err != nil {
					return err
				}
				ls.GlyphStyle.Color, ls.GlyphStyle.Shape, ls.GlyphStyle.Radius = strategyColor(si), draw.CircleGlyph{}, vg.Points(4)
				p.Legend.Add(s, ls)
			}
		}
	}
	p.Y.Max = 102
	return p.Save(8*vg.Inch, 5*vg.Inch, path)
}

// grey marks the grid's points.
var grey = color.Gray{Y: 150}

// isGrid reports whether s is a configuration of the -frontier grid.
func isGrid(s string) bool {
	for _, g := range frontierStrategies() {
		if s == g {
			return true
		}
	}
	return false
}

// writeCostPlot draws cost.png into dir.
func writeCostPlot(ev *evaluation, dir string) error {
	if err := costPlot(ev, filepath.Join(dir, "cost.png")); err != nil {
		return fmt.Errorf("cost plot: %w", err)
	}
	return nil
}

// costTargetLines checks the cost targets of the default policy.
func costTargetLines(ev *evaluation) []string {
	mark := func(ok bool) string {
		if ok {
			return "met"
		}
		return "**MISSED**"
	}
	var lines []string
	rows, scope, folder := costTargetRows(ev)
	for _, w := range ev.cfg.windows {
		def, ok1 := findRow(rows, w, stratOursRule)
		n, ok2 := findRow(rows, w, stratNone)
		if !ok1 || !ok2 || n.cost[0] <= 0 || w > targetWindow {
			continue // windows over 32k compact nothing in this corpus
		}
		l := fmt.Sprintf("- %s%s: `ours-rule` (the defaults) costs %s, %.2f of none", windowLabel(w), scope, dollars(def.cost[0]), def.cost[0]/n.cost[0])
		if w == targetWindow {
			l += fmt.Sprintf(" (target <= 0.70): %s", mark(def.cost[0] <= 0.70*n.cost[0]))
		}
		if o, ok := findRow(rows, w, stratOldest); ok && o.cost[0] > 0 {
			l += fmt.Sprintf("; %.2f of oldest-first", def.cost[0]/o.cost[0])
			if w == targetWindow {
				l += fmt.Sprintf(" (target <= 0.5): %s", mark(def.cost[0] <= 0.5*o.cost[0]))
			}
		}
		if sp, ok := findRow(rows, w, stratOursSpec); ok {
			l += fmt.Sprintf("; vs the specification's policy %s at %s mean retention (defaults %s)", dollars(sp.cost[0]), pct(sp.meanRetention()), pct(def.meanRetention()))
			if w < targetWindow {
				l += fmt.Sprintf(" (target: no more, at no less retention): %s", mark(def.cost[0] <= sp.cost[0]+1e-9 && def.meanRetention() >= sp.meanRetention()-1e-9))
			}
		}
		l += fmt.Sprintf("; constraints (mean >= 98.5%%, every category >= 95%%, >= 95%% prefix-stable, no violation): %s", mark(meetsPolicy(def)))
		if b, ok := ev.bounds[w][folder]; ok && b.calls > 0 {
			l += fmt.Sprintf(" (prefix-stable %s; no strategy can exceed %s here: %s)", pct(def.stableShare()), pct(b.share()), boundWords(b, def))
		}
		if llm, ok := findRow(rows, w, stratOursLLMSame); ok && def.cost[0] > 0 {
			l += fmt.Sprintf("; the LLM mode with the agent's model (`ours-llm-same`, cache-safe) costs %+.1f%% vs `ours-rule` (target <= +5%%): %s, of which its %s summarizer replies (%s tokens) %+.1f%%",
				100*(llm.cost[0]/def.cost[0]-1), mark(llm.cost[0] <= 1.05*def.cost[0]),
				fmtInt(int64(llm.sumCalls)), fmtInt(llm.sumOut), 100*float64(llm.sumOut)*ev.cfg.prices.output/1e6/def.cost[0])
		}
		if llm, ok := findRow(rows, w, stratOursLLM); ok && def.cost[0] > 0 {
			l += fmt.Sprintf("; with another model's transcript request (`ours-llm`) %+.1f%%", 100*(llm.cost[0]/def.cost[0]-1))
		}
		lines = append(lines, l)
	}
	return lines
}

// costTargetRows returns the rows the cost targets are measured on: those
// of the coding-agent folder (targetFolder) when it was evaluated, as the
// targets are defined, else all rows; the scope's label for the lines;
// and its key in ev.bounds.
func costTargetRows(ev *evaluation) ([]row, string, string) {
	for _, src := range ev.bySource {
		if src.folder && src.source == targetFolder+"/" {
			return src.rows, " on `" + targetFolder + "/`", targetFolder
		}
	}
	return ev.rows, "", ""
}

// boundWords says what b means beside the compactions r made.
func boundWords(b stabilityBound, r row) string {
	return fmt.Sprintf("one that keeps the task, the most recent user message and the last round verbatim and compacts only when the next call would not fit, down to those alone with no summary, still compacts %s times in %s calls; the defaults' context changes %s times",
		fmtInt(int64(b.compactions)), fmtInt(int64(b.calls)), fmtInt(int64(r.stableOf-r.stable)))
}

// defaultPolicyWords states the compactor's default policy as the code
// derives it (read from compactors at 32k and 16k, not written down
// here), and how the grid below weighs it.
func defaultPolicyWords() string {
	policy := func(window int) (float64, float64, int) {
		c, err := compact.New(compact.WithContextWindow(window))
		if err != nil {
			return 0, 0, 0
		}
		t, r := c.Trigger()
		return t, r, c.MaxSummaryTokens()
	}
	lt, lr, ls := policy(32000)
	st, sr, ss := policy(16000)
	return fmt.Sprintf("With prompt caching a compaction costs one full-price pass over the new context, while calls between compactions are mostly cache reads: compacting often and shallowly (the specification's trigger %.2f, reset %.2f) saves little. The compactor derives its default policy from the budget (`compact.WithTrigger`'s doc; `Compactor.Trigger` reports it): at 32k trigger %.2f, reset %.2f, summaries of up to %d tokens; at 16k trigger %.2f, reset %.2f, summaries of up to %d tokens. The `-frontier` grid below (`go run ./cmd/compact-eval -windows 16000,32000 -frontier`) weighs such configurations: among those that keep mean retention >= 98.5%%, every category >= 95%%, >= 95%% prefix-stable calls and no violation, the cheapest with cached input at 10%%. At 16k no configuration reaches 95%% prefix-stable calls, and none can on this corpus: the task, the most recent user message and the last round, which every configuration keeps verbatim, leave so little room in a 12,000-token budget that even compacting down to them alone, with no summary, only when the next call would not fit, changes the context too often (the bound in the targets below). `compact.WithTrigger(compact.SpecTriggerRatio, compact.SpecResetRatio)` keeps the specification's policy at every size (`%s` here).\n\n",
		compact.SpecTriggerRatio, compact.SpecResetRatio, lt, lr, ls, st, sr, ss, stratOursSpec)
}

// writeCostPolicy writes the section on cost and the default policy.
func writeCostPolicy(b *strings.Builder, ev *evaluation) {
	b.WriteString("## Cost and the default policy\n\n")
	b.WriteString(defaultPolicyWords())
	b.WriteString("Targets:\n\n")
	for _, l := range costTargetLines(ev) {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n")
	writeFrontier(b, ev)
}

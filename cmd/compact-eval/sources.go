package main

import (
	"fmt"
	"math"
	"strings"
)

// Targets of the default strategy per source framework (every window of
// 8k and more), and of the token reduction on the coding-agent folder.
const (
	targetSourcePaths        = 0.98
	targetSourceExceptions   = 0.95
	targetSourceIdentifiers  = 0.98
	targetSourceInstructions = 1.0
	targetFolderReduction    = 0.35
	targetFolder             = "trajectories"
)

// sourceRows are the rows of one source: a folder (all its files) or a
// framework (the files whose name starts with "<source>__").
type sourceRows struct {
	source string // "trajectories/" for a folder, the name prefix for a framework
	folder bool
	files  int
	rows   []row
}

// dirs returns the folders of -dir.
func (c config) dirs() []string {
	var out []string
	for _, d := range strings.Split(c.dir, ",") {
		if d = strings.TrimSpace(d); d != "" {
			out = append(out, d)
		}
	}
	return out
}

// sourceOf returns the source framework of a trajectory file: its name up
// to "__" ("taubench-gpt4o-airline"), or the name without ".jsonl".
func sourceOf(file string) string {
	name := strings.TrimSuffix(file, ".jsonl")
	if i := strings.Index(name, "__"); i > 0 {
		return name[:i]
	}
	return name
}

// aggregateSources aggregates the results per folder and per source, in
// the order the files were loaded: each folder, then its sources.
func aggregateSources(ev *evaluation, windows []int, strategies []string, p prices) []sourceRows {
	type group struct {
		sourceRows
		results []runResult
	}
	var groups []*group
	index := map[string]*group{}
	get := func(name string, folder bool) *group {
		k := fmt.Sprint(folder, name)
		if g, ok := index[k]; ok {
			return g
		}
		g := &group{sourceRows: sourceRows{source: name, folder: folder}}
		index[k] = g
		groups = append(groups, g)
		return g
	}
	groupsOf := map[string][2]*group{} // file -> its folder's and its source's groups
	for i, f := range ev.files {
		gs := [2]*group{get(ev.folders[i]+"/", true), get(sourceOf(f), false)}
		groupsOf[f] = gs
		gs[0].files++
		gs[1].files++
	}
	for _, res := range ev.results {
		for _, g := range groupsOf[res.file] {
			g.results = append(g.results, res)
		}
	}
	out := make([]sourceRows, 0, len(groups))
	for _, g := range groups {
		g.rows = aggregate(g.results, windows, strategies, p)
		out = append(out, g.sourceRows)
	}
	return out
}

// tableSources returns the header and rows of the per-source table of
// strategy s at window w.
func tableSources(ev *evaluation, w int, s string) ([]string, [][]string) {
	head := []string{"source", "runs", "input tokens vs none", "cost cached at 10% vs none", "paths", "exceptions",
		"exit statuses", "instructions", "identifiers", "mean", "prefix-stable calls"}
	var out [][]string
	for _, src := range ev.bySource {
		r, ok := findRow(src.rows, w, s)
		if !ok {
			continue
		}
		name := src.source
		if src.folder {
			name = "all of " + name
		}
		costVs := math.NaN()
		if none, ok := findRow(src.rows, w, stratNone); ok && none.cost[0] > 0 {
			costVs = r.cost[0] / none.cost[0]
		}
		out = append(out, []string{name, fmt.Sprint(src.files), signedPct(r.reduction), ratio2(costVs),
			pct(r.retention[factPaths]), pct(r.retention[factExceptions]), pct(r.retention[factExits]),
			pct(r.retention[factInstructions]), pct(r.retention[factIdentifiers]), pct(r.meanRetention()), pct(r.stableShare())})
	}
	return head, out
}

func ratio2(f float64) string {
	if math.IsNaN(f) {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", f)
}

// sourceTargetLines checks the per-source targets of the default strategy
// at every window of 8k and more, and the token reduction of the
// coding-agent folder at the target window.
func sourceTargetLines(ev *evaluation) []string {
	var lines []string
	mark := func(v, target float64) string {
		if math.IsNaN(v) || v >= target-1e-9 {
			return "met"
		}
		return "**MISSED**"
	}
	for _, w := range ev.cfg.windows {
		if w < 8000 {
			continue
		}
		for _, src := range ev.bySource {
			r, ok := findRow(src.rows, w, stratOursRule)
			if !ok {
				continue
			}
			if src.folder {
				if src.source == targetFolder+"/" && w == targetWindow {
					lines = append(lines, fmt.Sprintf("- `%s` at %s, all of `%s`: input tokens %s vs none (target -35%%): %s",
						stratOursRule, windowLabel(w), src.source, signedPct(r.reduction), mark(r.reduction, targetFolderReduction)))
				}
				continue
			}
			ret := r.retention
			lines = append(lines, fmt.Sprintf("- `%s` at %s, `%s`: paths %s (>= 98%%): %s; exceptions %s (>= 95%%): %s; identifiers %s (>= 98%%): %s; instructions %s (100%%): %s",
				stratOursRule, windowLabel(w), src.source,
				pct(ret[factPaths]), mark(ret[factPaths], targetSourcePaths),
				pct(ret[factExceptions]), mark(ret[factExceptions], targetSourceExceptions),
				pct(ret[factIdentifiers]), mark(ret[factIdentifiers], targetSourceIdentifiers),
				pct(ret[factInstructions]), mark(ret[factInstructions], targetSourceInstructions)))
		}
	}
	return lines
}

// writeSources writes the per-source section of the report.
func writeSources(b *strings.Builder, ev *evaluation) {
	if len(ev.bySource) == 0 {
		return
	}
	b.WriteString("## Per source framework\n\n")
	b.WriteString("Each folder as a whole, and each source framework (the file name up to `__`): the default strategy and the other modes of ours, retention at the last call as defined below.\n\n")
	for _, w := range ev.cfg.windows {
		for _, s := range ev.cfg.strategies {
			if !isOurs(s) || strings.Contains(s, ":") {
				continue
			}
			h, rs := tableSources(ev, w, s)
			if len(rs) == 0 {
				continue
			}
			fmt.Fprintf(b, "### `%s` at %s\n\n", s, windowLabel(w))
			markdownTable(b, h, rs)
			b.WriteString("\n")
		}
	}
	if lines := sourceTargetLines(ev); len(lines) > 0 {
		b.WriteString("### Targets per source\n\n" + strings.Join(lines, "\n") + "\n\n")
	}
}

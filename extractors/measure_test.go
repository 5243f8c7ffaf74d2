package extractors

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/internal/callpaths"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// measureExcRe: an exception name opening a line (traceback last line,
// pytest "E   " lines), followed by ":" or the end of the line.
var measureExcRe = regexp.MustCompile(`(?m)^(?:E\s+)?((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*(?:Error|Exception))(?::|\s*$)`)

// raisedExceptions returns the distinct exception names opening a line of
// out.
func raisedExceptions(out string) []string {
	var names []string
	for _, m := range measureExcRe.FindAllStringSubmatch(out, -1) {
		names = append(names, m[1])
	}
	return dedupeStrings(names)
}

func TestCorpusMeasure(t *testing.T) {
	corpus := loadCorpus(t, *corpusDir)
	reg := Default()
	counter, err := budget.NewCounter("gpt-4o")
	require.NoError(t, err)
	m := corpusMeasure{count: counter.Count, perTool: map[string][2]int{}}
	var dump strings.Builder
	for _, tr := range corpus {
		digest := reg.Digest(tr.msgs, Digest{}).Render(500, counter.Count)
		assert.LessOrEqual(t, counter.Count(digest), 500, "digest of %s within its cap", tr.name)
		assert.NotEmpty(t, digest)
		for _, c := range tr.calls {
			line := Format(reg.Extract(c.call, c.output))
			m.add(tr.name, c, line, digest)
			if *corpusDump != "" {
				fmt.Fprintf(&dump, "%s %s\n  %s\n", tr.name, shorten(strings.ReplaceAll(c.call.Arguments, "\n", "\\n"), 200), line)
			}
		}
	}
	m.log(t, len(corpus))
	assert.GreaterOrEqual(t, 100-pct(m.tokAfter, m.tokBefore), 85.0, "token reduction")
	for _, src := range m.sourceNames() {
		sm := m.bySource[src]
		assert.GreaterOrEqual(t, pct(sm.pathsInEither, sm.paths), 98.0, "%s: path retention", src)
		assert.GreaterOrEqual(t, pct(sm.excsKept, sm.excs), 95.0, "%s: exception retention", src)
		assert.GreaterOrEqual(t, pct(sm.idsKept, sm.ids), 98.0, "%s: identifier retention", src)
		assert.Equal(t, sm.exits, sm.exitsKept, "%s: every non-zero exit status kept", src)
	}
	for tool, pt := range m.perTool {
		assert.LessOrEqual(t, pt[1], pt[0], "%s: what masking sends never costs more than the outputs", tool)
	}
	if *corpusDump != "" {
		require.NoError(t, os.WriteFile(*corpusDump, []byte(dump.String()), 0o644))
	}
}

// measureExitRe reads mini-swe-agent's exit status.
var measureExitRe = regexp.MustCompile(`^\s*<returncode>(-?\d+)</returncode>`)

// corpusMeasure sums what the formatted summaries of the corpus keep.
type corpusMeasure struct {
	count                              func(string) int
	calls                              int
	bytesBefore, bytesAfter            int
	tokBefore, tokAfter                int
	missedPaths, missedExcs, missedIDs []string
	perTool                            map[string][2]int // tokens before and after
	bySource                           map[string]*sourceMeasure
}

// sourceMeasure counts the facts of one source framework (the file name up
// to "__") and what the summaries keep of them.
type sourceMeasure struct {
	paths, pathsInFacts, pathsInEither int
	excs, excsKept                     int
	exits, exitsKept                   int
	ids, idsKept                       int
}

// plus returns the sums of s and o.
func (s sourceMeasure) plus(o sourceMeasure) sourceMeasure {
	return sourceMeasure{s.paths + o.paths, s.pathsInFacts + o.pathsInFacts, s.pathsInEither + o.pathsInEither,
		s.excs + o.excs, s.excsKept + o.excsKept, s.exits + o.exits, s.exitsKept + o.exitsKept, s.ids + o.ids, s.idsKept + o.idsKept}
}

// total sums the sources.
func (m *corpusMeasure) total() sourceMeasure {
	var t sourceMeasure
	for _, sm := range m.bySource {
		t = t.plus(*sm)
	}
	return t
}

func (m *corpusMeasure) source(name string) *sourceMeasure {
	src, _, _ := strings.Cut(strings.TrimSuffix(name, ".jsonl"), "__")
	if m.bySource == nil {
		m.bySource = map[string]*sourceMeasure{}
	}
	if m.bySource[src] == nil {
		m.bySource[src] = &sourceMeasure{}
	}
	return m.bySource[src]
}

func (m *corpusMeasure) sourceNames() []string {
	var out []string
	for k := range m.bySource {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// measureIDs returns the values of the keys id, *_id and *_number of a
// JSON output (at any depth), the identifiers a business tool returns.
func measureIDs(out string) []string {
	var v any
	if json.Unmarshal([]byte(strings.TrimSpace(out)), &v) != nil {
		return nil
	}
	var ids []string
	var walk func(v any, idKey bool)
	walk = func(v any, idKey bool) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(e, k == "id" || strings.HasSuffix(k, "_id") || strings.HasSuffix(k, "_number"))
			}
		case []any:
			for _, e := range x {
				walk(e, idKey)
			}
		case string:
			if idKey && len(x) >= 3 {
				ids = append(ids, x)
			}
		}
	}
	walk(v, false)
	return dedupeStrings(ids)
}

// add measures the formatted summary line of call c of trajectory name,
// whose digest is digest.
func (m *corpusMeasure) add(name string, c corpusCall, line, digest string) {
	m.calls++
	m.bytesBefore += len(c.output)
	m.bytesAfter += len(line)
	// The engine masks an output only when its fact line is smaller.
	tb, ta := m.count(c.output), m.count(line)
	if ta >= tb {
		ta = tb
	}
	sm := m.source(name)
	m.tokBefore += tb
	m.tokAfter += ta
	pt := m.perTool[c.call.Name]
	m.perTool[c.call.Name] = [2]int{pt[0] + tb, pt[1] + ta}
	kept := line
	if ta == tb {
		kept = c.output
	}
	for _, id := range measureIDs(c.output) {
		sm.ids++
		if strings.Contains(kept, id) {
			sm.idsKept++
		} else {
			m.missedIDs = append(m.missedIDs, fmt.Sprintf("%s %s in %s", name, id, line))
		}
	}
	for _, p := range dedupeStrings(callpaths.Call(c.call.Name, c.call.Arguments)) {
		sm.paths++
		in := ta == tb || strings.Contains(kept, p) // an output kept whole keeps its call beside it
		if in {
			sm.pathsInFacts++
		}
		if in || strings.Contains(digest, p) {
			sm.pathsInEither++
		} else {
			m.missedPaths = append(m.missedPaths, fmt.Sprintf("%s %q in %s", name, p, line))
		}
	}
	for _, e := range raisedExceptions(c.output) {
		sm.excs++
		if strings.Contains(kept, e) {
			sm.excsKept++
		} else {
			m.missedExcs = append(m.missedExcs, fmt.Sprintf("%s %s in %s", name, e, line))
		}
	}
	if x := measureExitRe.FindStringSubmatch(c.output); x != nil && x[1] != "0" {
		sm.exits++
		if strings.Contains(kept, "exit "+x[1]) || kept == c.output {
			sm.exitsKept++
		}
	}
}

// log reports the figures and the first misses.
func (m *corpusMeasure) log(t *testing.T, trajectories int) {
	t.Logf("trajectories: %d, tool outputs: %d", trajectories, m.calls)
	t.Logf("size: %d -> %d bytes (%.1f%% smaller)", m.bytesBefore, m.bytesAfter, 100-pct(m.bytesAfter, m.bytesBefore))
	t.Logf("tokens len/4: %d -> %d (%.1f%% smaller)", m.bytesBefore/4, m.bytesAfter/4, 100-pct(m.bytesAfter/4, m.bytesBefore/4))
	t.Logf("tokens gpt-4o (budget.NewCounter): %d -> %d (%.1f%% smaller)", m.tokBefore, m.tokAfter, 100-pct(m.tokAfter, m.tokBefore))
	tools := make([]string, 0, len(m.perTool))
	for k := range m.perTool {
		tools = append(tools, k)
	}
	sort.Strings(tools)
	for _, k := range tools {
		t.Logf("  %-12s %8d -> %6d tokens", k, m.perTool[k][0], m.perTool[k][1])
	}
	tot := m.total()
	t.Logf("file paths named in calls: %d, in facts: %d (%.1f%%), in facts or digest: %d (%.1f%%)", tot.paths, tot.pathsInFacts, pct(tot.pathsInFacts, tot.paths), tot.pathsInEither, pct(tot.pathsInEither, tot.paths))
	t.Logf("exception names in outputs: %d, in facts: %d (%.1f%%)", tot.excs, tot.excsKept, pct(tot.excsKept, tot.excs))
	t.Logf("non-zero exit statuses: %d, kept: %d (%.1f%%)", tot.exits, tot.exitsKept, pct(tot.exitsKept, tot.exits))
	t.Logf("identifiers returned as JSON: %d, kept: %d (%.1f%%)", tot.ids, tot.idsKept, pct(tot.idsKept, tot.ids))
	for _, src := range m.sourceNames() {
		sm := m.bySource[src]
		t.Logf("  %-24s paths %d/%d, exceptions %d/%d, exit statuses %d/%d, identifiers %d/%d", src,
			sm.pathsInEither, sm.paths, sm.excsKept, sm.excs, sm.exitsKept, sm.exits, sm.idsKept, sm.ids)
	}
	for i, s := range m.missedIDs {
		if i == 15 {
			break
		}
		t.Logf("missed identifier: %s", s)
	}
	for i, s := range m.missedPaths {
		if i == 15 {
			break
		}
		t.Logf("missed path: %s", s)
	}
	for i, s := range m.missedExcs {
		if i == 15 {
			break
		}
		t.Logf("missed exception: %s", s)
	}
}

// pct is a as a percentage of b, 100 when b is 0.
func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/internal/trajectory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// keptWindows are the windows of TestCompactedFactsKept.
var keptWindows = flag.String("keptwindows", "8000,24000", "context windows of TestCompactedFactsKept, comma separated")

// keptJoin makes TestCompactedFactsKept join each source's runs into one.
var keptJoin = flag.Bool("keptjoin", false, "TestCompactedFactsKept also replays, per source framework, its runs joined into one long run")

// keptKinds are the fact categories TestCompactedFactsKept follows: those
// a compacted message carries by itself.
var keptKinds = []factKind{factPaths, factExceptions, factIdentifiers}

// keptCount counts the facts of compacted messages of one category: the
// distinct facts per run (kept when every context sent after their
// message was compacted shows them) and the checks (one per fact, compacted
// message and call).
type keptCount struct {
	facts, factsKept   int
	checks, checksKept int
}

// keptTally is a keptCount per source and category, and the first misses.
type keptTally struct {
	bySource map[string]*[numFactKinds]keptCount
	missed   []string
}

// add counts one run's facts under its source.
func (t *keptTally) add(src string, run [numFactKinds]keptCount) {
	if t.bySource == nil {
		t.bySource = map[string]*[numFactKinds]keptCount{}
	}
	s := t.bySource[src]
	if s == nil {
		s = &[numFactKinds]keptCount{}
		t.bySource[src] = s
	}
	for k := range run {
		s[k].facts += run[k].facts
		s[k].factsKept += run[k].factsKept
		s[k].checks += run[k].checks
		s[k].checksKept += run[k].checksKept
	}
}

// total sums the sources whose name passes keep.
func (t *keptTally) total(keep func(string) bool) [numFactKinds]keptCount {
	var out [numFactKinds]keptCount
	for src, s := range t.bySource {
		if !keep(src) {
			continue
		}
		for k := range s {
			out[k].facts += s[k].facts
			out[k].factsKept += s[k].factsKept
			out[k].checks += s[k].checks
			out[k].checksKept += s[k].checksKept
		}
	}
	return out
}

// measureKept replays msgs through c, one Compact call per assistant turn
// (the agent's calls), and returns, per category, the facts of the
// messages the context sent does not show verbatim (masked, cut or
// summarized): the paths of their tool calls, the exceptions and the
// identifiers of their tool results (facts.go's definitions), and whether
// each context sent after they were compacted shows them.
func measureKept(ctx context.Context, t *testing.T, c *compact.Compactor, name string, msgs []llms.MessageContent, tally *keptTally) [numFactKinds]keptCount {
	perMsg := make([][]fact, len(msgs))
	for j := range msgs {
		perMsg[j] = extractFacts(msgs[j : j+1])
	}
	type state struct{ seen, lost bool }
	facts := map[[2]string]*state{}
	var run [numFactKinds]keptCount
	s := compact.NewSession(name)
	for i := 1; i < len(msgs); i++ {
		if msgs[i].Role != llms.ChatMessageTypeAI {
			continue
		}
		res, err := c.Compact(ctx, s, msgs[:i:i])
		require.NoError(t, err, "%s at message %d", name, i)
		var b strings.Builder
		for _, m := range res.Messages {
			msg.WriteText(&b, m)
		}
		text := b.String()
		for j := 0; j < i && j < len(res.States); j++ {
			if res.States[j] == compact.StateKept {
				continue
			}
			for _, f := range perMsg[j] {
				if !keptKind(f.kind) {
					continue
				}
				k := [2]string{f.kind.String(), f.key}
				st := facts[k]
				if st == nil {
					st = &state{}
					facts[k] = st
				}
				st.seen = true
				run[f.kind].checks++
				if strings.Contains(text, f.key) {
					run[f.kind].checksKept++
				} else if !st.lost {
					st.lost = true
					tally.missed = append(tally.missed, fmt.Sprintf("%s@%d %s %q (%s)", name, i, f.kind, f.key, res.States[j]))
				}
			}
		}
	}
	for k, st := range facts {
		kind := factKindNamed(k[0])
		run[kind].facts++
		if !st.lost {
			run[kind].factsKept++
		}
	}
	return run
}

// keptKind reports whether TestCompactedFactsKept follows category k.
func keptKind(k factKind) bool {
	for _, x := range keptKinds {
		if x == k {
			return true
		}
	}
	return false
}

// factKindNamed returns the category of a name of factNames.
func factKindNamed(name string) factKind {
	for k, n := range factNames {
		if n == name {
			return factKind(k)
		}
	}
	return numFactKinds
}

// TestCompactedFactsKept replays every trajectory of the corpus through the
// engine (the default policy and the rule-based summarizer, the real
// tokenizer) at each window of -keptwindows, one Compact call per agent
// turn, and reports how many file paths named by the tool calls of
// compacted messages (every argument shape, internal/callpaths), and how
// many exceptions and identifiers of compacted tool results, the contexts
// sent still show, per source framework. A fact counts as kept when every
// context sent after its message was compacted shows it (a substring
// search). It logs the figures and checks them against the targets (paths
// 95% at 24k and above, 90% below, exceptions and identifiers 95%, per
// source); -keptjoin adds, logged only, the runs of each source joined
// into one long run. Run it with
//
//	go test ./cmd/compact-eval -run TestCompactedFactsKept -v -corpus ../../../shared/eval/frameworks
func TestCompactedFactsKept(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the corpus")
	}
	var files []string
	for _, dir := range strings.Split(*corpusDir, ",") {
		if fs, err := trajectory.Files(strings.TrimSpace(dir)); err == nil {
			files = append(files, fs...)
		}
	}
	if len(files) == 0 {
		t.Skipf("no trajectories in %s (set -corpus)", *corpusDir)
	}
	runs := make([][]llms.MessageContent, len(files))
	for k, f := range files {
		var err error
		runs[k], err = trajectory.ReadFile(f)
		require.NoError(t, err)
	}
	ctx := context.Background()
	for _, ws := range strings.Split(*keptWindows, ",") {
		w, err := strconv.Atoi(strings.TrimSpace(ws))
		require.NoError(t, err, "-keptwindows")
		c, err := compact.New(compact.WithContextWindow(w))
		require.NoError(t, err)
		var tally keptTally
		for k, f := range files {
			tally.add(sourceOf(filepath.Base(f)), measureKept(ctx, t, c, filepath.Base(f), runs[k], &tally))
		}
		logKept(t, w, fmt.Sprintf("%d runs", len(files)), &tally)
		checkKeptTargets(t, w, &tally)
		if *keptJoin {
			var joined keptTally
			for _, src := range joinBySource(files, runs) {
				joined.add(src.name, measureKept(ctx, t, c, src.name+" joined", src.msgs, &joined))
			}
			logKept(t, w, "each source's runs joined", &joined)
		}
	}
}

// checkKeptTargets checks the figures of one window, per source, against
// the targets: paths 95% at 24k and above, 90% below; exceptions and
// identifiers 95%.
func checkKeptTargets(t *testing.T, w int, tally *keptTally) {
	pathTarget := 90.0
	if w >= 24_000 {
		pathTarget = 95
	}
	for src, s := range tally.bySource {
		assert.GreaterOrEqual(t, sharePct(s[factPaths].factsKept, s[factPaths].facts), pathTarget, "window %d, %s: paths", w, src)
		assert.GreaterOrEqual(t, sharePct(s[factExceptions].factsKept, s[factExceptions].facts), 95.0, "window %d, %s: exceptions", w, src)
		assert.GreaterOrEqual(t, sharePct(s[factIdentifiers].factsKept, s[factIdentifiers].facts), 95.0, "window %d, %s: identifiers", w, src)
	}
}

// joinedRun is the runs of one source joined into one.
type joinedRun struct {
	name string
	msgs []llms.MessageContent
}

// joinBySource joins the runs of each source (in the order of files) into
// one long run: the first run's system message, then every run's other
// messages, tool call ids prefixed with the run's index so that they stay
// unique. The runs are not modified.
func joinBySource(files []string, runs [][]llms.MessageContent) []joinedRun {
	var out []joinedRun
	index := map[string]int{}
	for k, f := range files {
		src := sourceOf(filepath.Base(f))
		i, ok := index[src]
		if !ok {
			i = len(out)
			index[src] = i
			out = append(out, joinedRun{name: src})
		}
		prefix := "r" + strconv.Itoa(k) + "_"
		for j, m := range runs[k] {
			if m.Role == llms.ChatMessageTypeSystem && (j > 0 || len(out[i].msgs) > 0) {
				continue
			}
			c := llms.MessageContent{Role: m.Role}
			for _, p := range m.Parts {
				switch v := p.(type) {
				case llms.ToolCall:
					v.ID = prefix + v.ID
					p = v
				case llms.ToolCallResponse:
					v.ToolCallID = prefix + v.ToolCallID
					p = v
				}
				c.Parts = append(c.Parts, p)
			}
			out[i].msgs = append(out[i].msgs, c)
		}
	}
	return out
}

// logKept logs the figures of one window: all sources, then each.
func logKept(t *testing.T, w int, label string, tally *keptTally) {
	line := func(label string, r [numFactKinds]keptCount) {
		var parts []string
		for _, k := range keptKinds {
			c := r[k]
			parts = append(parts, fmt.Sprintf("%s %d/%d (%.1f%%; checks %d/%d, %.1f%%)", k, c.factsKept, c.facts,
				sharePct(c.factsKept, c.facts), c.checksKept, c.checks, sharePct(c.checksKept, c.checks)))
		}
		t.Logf("window %d, %s: %s", w, label, strings.Join(parts, "; "))
	}
	line(label, tally.total(func(string) bool { return true }))
	srcs := make([]string, 0, len(tally.bySource))
	for s := range tally.bySource {
		srcs = append(srcs, s)
	}
	sort.Strings(srcs)
	for _, s := range srcs {
		line(s, *tally.bySource[s])
	}
	for i, m := range tally.missed {
		if i == 15 {
			t.Logf("  ... %d more", len(tally.missed)-i)
			break
		}
		t.Logf("  missed %s", m)
	}
}

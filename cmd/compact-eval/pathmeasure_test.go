package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/callpaths"
	"github.com/agentcompact/compact/internal/trajectory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// corpusDir is the corpus of TestSummaryKeepsPaths: the folders
// ../shared/eval/trajectories and ../shared/eval/frameworks beside the
// repository, as for the extractors' TestCorpusMeasure.
var corpusDir = flag.String("corpus", filepath.Join("..", "..", "..", "shared", "eval", "trajectories")+","+filepath.Join("..", "..", "..", "shared", "eval", "frameworks"),
	"folders of JSONL agent trajectories of TestSummaryKeepsPaths, comma separated (absent ones are skipped)")

// pathTally counts, over the compactions that summarized messages, the
// file paths named by the summarized calls and those the summary text
// shows.
type pathTally struct {
	compactions int
	named, kept int // the paths named by the calls summarized in the compaction
	// chainNamed and chainKept count the same over every call the active
	// summary stands for (the chain), not only the newly summarized ones.
	chainNamed, chainKept int
	// summaryTokens sums the token estimates of the summaries made.
	summaryTokens int
	missed        []string
}

// summarizedPaths returns the distinct paths (facts.go's definition)
// named by the tool calls of the messages of in whose state in res says
// summarized and, when was is given, was not summarized before.
func summarizedPaths(in []llms.MessageContent, res *compact.Result, was func(int) bool) []string {
	var out []string
	seen := map[string]bool{}
	for j, m := range in {
		if j >= len(res.States) || !res.States[j].Summarized() || was != nil && was(j) {
			continue
		}
		for _, p := range m.Parts {
			tc, ok := p.(llms.ToolCall)
			if !ok || tc.FunctionCall == nil {
				continue
			}
			for _, path := range callpaths.Call(tc.FunctionCall.Name, tc.FunctionCall.Arguments) {
				if !seen[path] {
					seen[path] = true
					out = append(out, path)
				}
			}
		}
	}
	return out
}

// measurePaths replays msgs through c, one Compact call per assistant
// turn, and adds to t what each compaction that summarized messages kept.
func measurePaths(ctx context.Context, t *testing.T, c *compact.Compactor, name string, msgs []llms.MessageContent, tally *pathTally) {
	s := compact.NewSession(name)
	var before []compact.MessageState
	for i := 1; i < len(msgs); i++ {
		if msgs[i].Role != llms.ChatMessageTypeAI {
			continue
		}
		in := msgs[:i:i]
		res, err := c.Compact(ctx, s, in)
		require.NoError(t, err, "%s at message %d", name, i)
		if res.Restarted {
			before = nil
		}
		was := func(j int) bool { return j < len(before) && before[j].Summarized() }
		fresh := summarizedPaths(in, res, was)
		newly := false
		for j := range in {
			if j < len(res.States) && res.States[j].Summarized() && !was(j) {
				newly = true
				break
			}
		}
		before = res.States
		if !newly || res.Summary == nil {
			continue
		}
		tally.compactions++
		tally.summaryTokens += res.Summary.TokenEstimate
		text := res.Summary.Summary
		for _, p := range fresh {
			tally.named++
			if strings.Contains(text, p) {
				tally.kept++
			} else {
				tally.missed = append(tally.missed, fmt.Sprintf("%s@%d %q", name, i, p))
			}
		}
		for _, p := range summarizedPaths(in, res, nil) {
			tally.chainNamed++
			if strings.Contains(text, p) {
				tally.chainKept++
			}
		}
	}
}

// TestSummaryKeepsPaths replays every trajectory of the corpus through the
// engine with the rule-based summarizer at windows of 8k, 16k and 32k
// tokens and checks, for every compaction that summarized messages, which
// file paths named by the summarized calls' arguments (the definition of
// the harness's path facts) the summary text shows. Run it with
//
//	go test ./cmd/compact-eval -run TestSummaryKeepsPaths -v
func TestSummaryKeepsPaths(t *testing.T) {
	var files []string
	for _, dir := range strings.Split(*corpusDir, ",") {
		if fs, err := trajectory.Files(strings.TrimSpace(dir)); err == nil {
			files = append(files, fs...)
		}
	}
	var err error
	if len(files) == 0 {
		t.Skipf("no trajectories in %s (set -corpus)", *corpusDir)
	}
	runs := make([][]llms.MessageContent, len(files))
	for k, f := range files {
		runs[k], err = trajectory.ReadFile(f)
		require.NoError(t, err)
	}
	ctx := context.Background()
	for _, w := range []int{8000, 16000, 32000} {
		c, err := compact.New(compact.WithContextWindow(w))
		require.NoError(t, err)
		var tally pathTally
		for k, f := range files {
			measurePaths(ctx, t, c, filepath.Base(f), runs[k], &tally)
		}
		share := sharePct(tally.kept, tally.named)
		t.Logf("window %d: %d trajectories, %d compactions that summarized (summary %.1f tokens on average), paths of the summarized calls: %d, in the summary: %d (%.1f%%); over the whole chain: %d, %d (%.1f%%)",
			w, len(files), tally.compactions, float64(tally.summaryTokens)/float64(max(tally.compactions, 1)),
			tally.named, tally.kept, share, tally.chainNamed, tally.chainKept, sharePct(tally.chainKept, tally.chainNamed))
		for i, m := range tally.missed {
			if i == 10 {
				t.Logf("  ... %d more", len(tally.missed)-i)
				break
			}
			t.Logf("  missed %s", m)
		}
		assert.GreaterOrEqual(t, share, 99.0, "window %d: share of the summarized calls' paths in the summary", w)
	}
}

// sharePct is a as a percentage of b, 100 when b is 0.
func sharePct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

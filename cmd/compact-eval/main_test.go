package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testdataDir holds four real trajectories (see testdata/LICENSES.md).
const testdataDir = "../../testdata/trajectories"

func TestHarnessOnTestdata(t *testing.T) {
	out := t.TempDir()
	cfg, err := parseFlags([]string{"-dir", testdataDir, "-windows", "16000", "-out", out, "-llm", "scripted"}, &bytes.Buffer{})
	require.NoError(t, err)
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), cfg, &stdout, &stderr))

	assert.Contains(t, stderr.String(), "100%", "the progress bar reaches the end")
	for _, s := range defaultStrategies {
		assert.Contains(t, stdout.String(), s)
	}

	ev, err := evaluate(context.Background(), cfg, nil)
	require.NoError(t, err)
	require.Len(t, ev.files, 4)
	require.Len(t, ev.rows, len(defaultStrategies))
	require.Len(t, ev.results, 4*len(defaultStrategies))
	none, ok := findRow(ev.rows, 16000, stratNone)
	require.True(t, ok)
	assert.Equal(t, ev.calls, none.calls)
	assert.Equal(t, 1.0, none.stableShare())
	compactedAny := false
	for _, r := range ev.rows {
		assert.Equal(t, 4, r.runs, r.strategy)
		assert.Positive(t, r.billed, r.strategy)
		assert.LessOrEqual(t, r.billed, none.billed, r.strategy)
		for _, k := range []factKind{factPaths, factExits, factInstructions} {
			assert.Positive(t, r.present[k], "%s: %s", r.strategy, k)
			assert.False(t, math.IsNaN(r.retention[k]), "%s: %s", r.strategy, k)
			assert.InDelta(t, 0.5, r.retention[k], 0.5, "%s: %s in [0, 1]", r.strategy, k)
		}
		if !isOurs(r.strategy) {
			assert.False(t, r.recall.measured, "%s: no recall", r.strategy)
			assert.True(t, math.IsNaN(r.recallByRef()) && math.IsNaN(r.refShare()), r.strategy)
			continue
		}
		assert.True(t, r.recall.measured, r.strategy)
		assert.GreaterOrEqual(t, r.recall.checks, 4, "%s: at least the last call of each run", r.strategy)
		assert.Zero(t, r.recall.failed, "%s: %v", r.strategy, r.recall.failures)
		assert.Equal(t, r.recall.originals, r.recall.byRef, r.strategy)
		assert.Equal(t, r.recall.searchable, r.recall.bySearch, r.strategy)
		assert.Zero(t, r.budgetViolations, r.strategy)
		assert.Zero(t, r.pairViolations, r.strategy)
		assert.Zero(t, r.failed, "%s: %s", r.strategy, r.firstErr)
		assert.Less(t, r.billed, none.billed, r.strategy)
		if r.compactions > 0 {
			compactedAny = true
			assert.Positive(t, r.recall.originals, r.strategy)
			assert.Positive(t, r.recall.searchable, r.strategy)
			assert.Positive(t, r.recall.refTokens, r.strategy)
			assert.Less(t, r.refShare(), 0.05, r.strategy)
		}
		if r.strategy == stratOursLLM {
			assert.Positive(t, r.sumCalls, "the scripted summarizer was called")
			assert.Positive(t, r.sumIn)
		}
	}
	assert.True(t, compactedAny, "the window is small enough to compact")
	assert.Positive(t, none.budgetViolations, "the baseline overflows 16k on the longest run")

	report, err := os.ReadFile(filepath.Join(out, "report.md"))
	require.NoError(t, err)
	assert.Contains(t, stdout.String(), "recall (ours, all windows): by ref 100.0% of")
	for _, want := range []string{"Recall of the compacted originals", "- **Recall**", "**Ref tokens**", "| none | n/a |", "## Method", "`middleware.Wrap` around a recording model", "| ours-rule |", "tokens.png", "retention.png", "## Definitions", "## Summary (16k window, all 4 runs)", "## Peers", "peers.png", "mini-gemini3pro__django__django-10973"} {
		assert.Contains(t, string(report), want)
	}
	for _, png := range []string{"tokens.png", "retention.png", "peers.png"} {
		b, err := os.ReadFile(filepath.Join(out, png))
		require.NoError(t, err)
		assert.True(t, bytes.HasPrefix(b, []byte("\x89PNG")), png)
	}
	f, err := os.Open(filepath.Join(out, "runs.csv"))
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	assert.Len(t, recs, 1+4*len(defaultStrategies))
}

func TestEvaluateErrors(t *testing.T) {
	cfg, err := parseFlags([]string{"-dir", filepath.Join(t.TempDir(), "missing")}, &bytes.Buffer{})
	require.NoError(t, err)
	_, err = evaluate(context.Background(), cfg, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-dir")

	cfg.dir = t.TempDir()
	_, err = evaluate(context.Background(), cfg, nil)
	assert.ErrorContains(t, err, "no *.jsonl")

	cfg.dir = testdataDir
	cfg.plotRun = "nope.jsonl"
	_, err = evaluate(context.Background(), cfg, nil)
	assert.ErrorContains(t, err, "-plot-run")

	cfg.plotRun = ""
	cfg.strategies = []string{"bogus"}
	_, err = evaluate(context.Background(), cfg, nil)
	assert.ErrorContains(t, err, "bogus")

	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	require.NoError(t, os.WriteFile(bad, []byte("{not json\n"), 0o644))
	cfg.dir, cfg.strategies = filepath.Dir(bad), defaultStrategies
	_, err = evaluate(context.Background(), cfg, nil)
	assert.ErrorContains(t, err, "bad.jsonl")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg.dir = testdataDir
	_, err = evaluate(ctx, cfg, nil)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestParseFlags(t *testing.T) {
	cfg, err := parseFlags(nil, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join("..", "shared", "eval", "trajectories"), filepath.Join("..", "shared", "eval", "frameworks")}, cfg.dirs())
	assert.Equal(t, []int{16000, 32000, 128000}, cfg.windows)
	assert.Equal(t, defaultStrategies, cfg.strategies)
	assert.Equal(t, 2, cfg.workers)
	assert.Equal(t, viaMiddleware, cfg.via)
	assert.True(t, cfg.progress)

	cfg, err = parseFlags([]string{"-windows", "8_000, 64000", "-strategies", "none, ours-rule", "-quiet"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, []int{8000, 64000}, cfg.windows)
	assert.Equal(t, []string{"none", "ours-rule"}, cfg.strategies)
	assert.False(t, cfg.progress)
	assert.True(t, strings.HasPrefix(cfg.command, "go run ./cmd/compact-eval -windows"))

	for _, args := range [][]string{{"-windows", "x"}, {"-windows", "-5"}, {"-windows", ","}, {"-strategies", ""}, {"-workers", "0"}, {"-via", "x"}, {"extra"}, {"-nope"}} {
		_, err := parseFlags(args, &bytes.Buffer{})
		assert.Error(t, err, "%q", args)
	}
}

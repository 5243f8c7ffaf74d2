package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/vg/draw"
)

func plotEvaluation() *evaluation {
	ev := &evaluation{cfg: config{windows: []int{16000, 32000}, strategies: []string{"none", "ours-rule"}},
		plotRun: "a.jsonl", plotWindow: 32000}
	for _, w := range ev.cfg.windows {
		for _, s := range ev.cfg.strategies {
			res := runResult{file: "a.jsonl", strategy: s, window: w, budget: w / 2,
				ret: retention{present: [numFactKinds]int{4, 1, 1, 2}, visible: [numFactKinds]int{4, 1, 0, 2}}}
			for i := range 20 {
				res.calls = append(res.calls, callRecord{sent: 1000 * (i + 1) % (w / 2)})
			}
			res.calls[3].failed = true
			ev.results = append(ev.results, res)
		}
	}
	ev.rows = aggregate(ev.results, ev.cfg.windows, ev.cfg.strategies, defaultPrices)
	return ev
}

func TestWritePlots(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, writePlots(plotEvaluation(), dir))
	for _, name := range []string{"tokens.png", "retention.png"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.Equal(t, "\x89PNG", string(b[:4]), name)
		assert.Greater(t, len(b), 5000, "%s has content", name)
	}
	err := writePlots(plotEvaluation(), filepath.Join(dir, "missing", "folder"))
	assert.ErrorContains(t, err, "tokens plot")
}

func TestStrategyColor(t *testing.T) {
	assert.Equal(t, strategyColor(0), strategyColor(len(palette)), "colours cycle")
	assert.NotEqual(t, strategyColor(0), strategyColor(1))
}

func TestWindowShape(t *testing.T) {
	const shapes = 6
	seen := map[draw.GlyphDrawer]int{}
	for i := range shapes {
		s := windowShape(i)
		require.NotNil(t, s)
		if j, dup := seen[s]; dup {
			t.Errorf("windows %d and %d share the shape %T", j, i, s)
		}
		seen[s] = i
		assert.Equal(t, s, windowShape(i+shapes), "shapes cycle")
	}
}

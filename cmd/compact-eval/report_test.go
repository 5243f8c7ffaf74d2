package main

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFormatting(t *testing.T) {
	assert.Equal(t, "0", fmtInt(0))
	assert.Equal(t, "999", fmtInt(999))
	assert.Equal(t, "1,000", fmtInt(1000))
	assert.Equal(t, "22,468,828", fmtInt(22468828))
	assert.Equal(t, "-1,234", fmtInt(-1234))
	assert.Equal(t, "n/a", pct(math.NaN()))
	assert.Equal(t, "62.5%", pct(0.625))
	assert.Equal(t, "-62.5%", signedPct(0.625))
	assert.Equal(t, "+10.0%", signedPct(-0.1))
	assert.Equal(t, "0.0%", signedPct(0))
	assert.Equal(t, "32k", windowLabel(32000))
	assert.Equal(t, "12345", windowLabel(12345))
}

func TestTargetLines(t *testing.T) {
	mk := func(s string, billed int64, red, ret float64, stable int) row {
		r := row{strategy: s, window: targetWindow, billed: billed, reduction: red, stable: stable, stableOf: 100}
		for k := range r.retention {
			r.retention[k] = ret
		}
		return r
	}
	ev := &evaluation{
		cfg: config{strategies: []string{"none", "oldest-first", "mask-last-10", "ours-rule", "ours-mask"}},
		rows: []row{
			mk("none", 100, 0, 1, 100),
			mk("oldest-first", 50, 0.5, 0.8, 80),
			mk("mask-last-10", 70, 0.3, 0.7, 30),
			mk("ours-rule", 35, 0.65, 0.99, 96),
			mk("ours-mask", 60, 0.4, 0.99, 90),
		},
	}
	lines := targetLines(ev)
	if assert.Len(t, lines, 2) {
		assert.NotContains(t, lines[0], "MISSED", lines[0])
		assert.Contains(t, lines[1], "input tokens -40.0% vs none;")
		assert.NotContains(t, lines[1], "target -60%", "the -60% token target no longer applies")
		assert.Contains(t, lines[1], "prefix-stable 90.0% (>= 95%): **MISSED**")
		assert.Contains(t, lines[1], "vs oldest-first: mean retention 99.0% vs 80.0% at 60 vs 50 tokens: **MISSED**")
		assert.Contains(t, lines[1], "vs mask-last-10: mean retention 99.0% vs 70.0% at 60 vs 70 tokens: met")
	}
	var b strings.Builder
	printTables(&b, ev)
	assert.Contains(t, b.String(), "== targets at 32k")
	assert.NotContains(t, b.String(), "**")
}

func TestStrategyDoc(t *testing.T) {
	for _, s := range append(defaultStrategies, "mask-last-3", "ours-rule:trigger=0.5:reset=0.2") {
		assert.NotEmpty(t, strategyDoc(s), s)
	}
	assert.Contains(t, strategyDoc("mask-last-3"), "last 3")
	assert.Contains(t, strategyDoc("ours-rule:trigger=0.5:reset=0.2"), "tuned: `trigger=0.5:reset=0.2`")
	assert.Empty(t, strategyDoc("other"))
	assert.Empty(t, strategyDoc("ours-other"), "an unknown ours, untuned: no endless recursion")
}

// TestCostTargetsOnTheCodingAgentFolder: the cost targets are measured on
// trajectories/ when it was evaluated (as the issue defines them), and the
// frontier is written per folder.
func TestCostTargetsOnTheCodingAgentFolder(t *testing.T) {
	mk := func(s string, cost float64) row {
		r := row{strategy: s, window: targetWindow, stable: 99, stableOf: 100}
		r.cost[0] = cost
		for k := range r.retention {
			r.retention[k] = 1
		}
		return r
	}
	all := []row{mk("none", 10), mk("ours-rule", 9)}
	ev := &evaluation{cfg: config{windows: []int{targetWindow}}, rows: all}
	lines := costTargetLines(ev)
	require.Len(t, lines, 1)
	assert.Contains(t, lines[0], "costs $9.00, 0.90 of none (target <= 0.70): **MISSED**")

	ev.bySource = []sourceRows{
		{source: targetFolder + "/", folder: true, rows: []row{mk("none", 10), mk("ours-rule", 6)}},
		{source: "frameworks/", folder: true, rows: []row{mk("none", 10), mk("ours-rule", 9.5)}},
	}
	lines = costTargetLines(ev)
	require.Len(t, lines, 1)
	assert.Contains(t, lines[0], "32k on `trajectories/`: `ours-rule` (the defaults) costs $6.00, 0.60 of none (target <= 0.70): met")
	assert.NotContains(t, lines[0], "no strategy can exceed", "no bound computed")
	scopes := frontierScopes(ev)
	require.Len(t, scopes, 2)
	assert.Equal(t, ", `frameworks/`", scopes[1].label)
	assert.Equal(t, "frameworks", scopes[1].folder)

	// The bound of the target folder stands beside the stability constraint.
	ev.bounds = map[int]map[string]stabilityBound{targetWindow: {
		targetFolder: {compactions: 1, calls: 100}, "frameworks": {compactions: 1, calls: 100}}}
	lines = costTargetLines(ev)
	require.Len(t, lines, 1)
	assert.Contains(t, lines[0], "met (prefix-stable 99.0%; no strategy can exceed 99.0% here: ")
	assert.Contains(t, lines[0], "still compacts 1 times in 100 calls; the defaults' context changes 1 times")
	var b strings.Builder
	writeFrontierTable(&b, []row{mk("none", 10), mk("ours-rule", 6), mk("ours-rule:trigger=1.0:reset=0.2", 7), mk("ours-rule:trigger=0.9:reset=0.2", 8)},
		targetWindow, "", stabilityBound{compactions: 7, calls: 100})
	assert.Contains(t, b.String(), "Prefix-stable calls can be at most 93.0% of these runs' calls whatever the configuration (at least 7 compactions in 100 calls")
}

package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func peerRow(s string, cost, ret float64) row {
	r := row{strategy: s, window: targetWindow, runs: 2, compactions: 2, costOpenAI: cost, costAnthropic: cost, stable: 9, stableOf: 10}
	for k := range r.retention {
		r.retention[k] = ret
	}
	return r
}

func TestPeerVerdict(t *testing.T) {
	d := peerRow(stratOursRule, 10, 0.99)
	c := peerCosts[0]
	ok, words := peerVerdict(d, peerRow("codex-cli", 10, 0.99), c)
	assert.False(t, ok, "as cheap at equal retention")
	assert.Contains(t, words, "**MISSED**")
	ok, words = peerVerdict(d, peerRow("codex-cli", 9, 0.97), c)
	assert.False(t, ok, "cheaper, only 2 points less")
	assert.Contains(t, words, "keeps only 2.0 points less")
	ok, words = peerVerdict(d, peerRow("codex-cli", 9, 0.95), c)
	assert.True(t, ok, "cheaper, 4 points less")
	assert.Contains(t, words, "but keeps 4.0 points less")
	ok, _ = peerVerdict(d, peerRow("codex-cli", 11, 1), c)
	assert.True(t, ok, "costs more")
}

func TestPeerTargetsAndWins(t *testing.T) {
	ev := &evaluation{cfg: config{windows: []int{targetWindow}, strategies: []string{stratNone, stratOursRule, "codex-cli", "eino-reduction"}},
		rows: []row{peerRow(stratNone, 20, 1), peerRow(stratOursRule, 10, 0.99), peerRow("codex-cli", 9, 0.94), peerRow("eino-reduction", 12, 0.7)}}
	lines := peerTargetLines(ev)
	require.Len(t, lines, 6, "two peers and the moonshot, for each cost")
	assert.Contains(t, lines[2], "moonshot: ours costs 1.11 of the cheapest peer (`codex-cli`")
	assert.Contains(t, lines[2], "**MISSED**")
	wins := peerWins(ev)
	require.Len(t, wins, 1)
	assert.Equal(t, "codex-cli", wins[0].p.strategy)
	why := peerWhy(wins)
	assert.Contains(t, why, "`codex-cli` wins at 32k all runs")
	assert.Contains(t, why, "at least 5.0 points under ours")
	assert.Contains(t, why, "up to 10.0% less")
	var b strings.Builder
	writeSummary(&b, ev)
	assert.Contains(t, b.String(), "`codex-cli` (peer)")
	assert.Contains(t, b.String(), "4 of 6 checks met")
}

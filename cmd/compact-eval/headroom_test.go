package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHeadroom(t *testing.T) {
	// Budget 1,000: trigger 800, reset 700.
	ev := &evaluation{cfg: config{windows: []int{2000, 4000}}, results: []runResult{
		{strategy: stratNone, window: 2000, budget: 1000, calls: []callRecord{{origTokens: 400}, {origTokens: 900}, {origTokens: 1700}}},
		{strategy: "other", window: 2000, budget: 1000, calls: []callRecord{{origTokens: 5}}},
	}}
	h, ok := computeHeadroom(ev, 2000)
	require.True(t, ok)
	assert.Equal(t, 3, h.calls)
	assert.Equal(t, 1, h.overBudget)
	assert.Equal(t, 1, h.underTrigger)
	assert.InDelta(t, 400.0/3000, h.underTriggerTokens, 1e-9)
	assert.InDelta(t, 1-2300.0/3000, h.capBudget, 1e-9)
	assert.InDelta(t, 1-2000.0/3000, h.capTrig, 1e-9)
	assert.InDelta(t, 1-1800.0/3000, h.capReset, 1e-9)
	assert.InDelta(t, 400, h.avgNeeded, 1e-9)
	assert.InDelta(t, (1200.0-400)/2, h.aboveTriggerAllowed, 1e-9)
	_, ok = computeHeadroom(ev, 4000)
	assert.False(t, ok, "no none run at this window")

	var b strings.Builder
	writeHeadroom(&b, ev)
	assert.Contains(t, b.String(), "| 2k | 3 | 1 | 1 | 13.3% | -23.3% | -33.3% | -40.0% | 400 | 400 |")
	assert.NotContains(t, b.String(), "| 4k |")
}

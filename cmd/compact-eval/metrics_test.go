package main

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAggregate(t *testing.T) {
	results := []runResult{
		{file: "a", strategy: "none", window: 100, budget: 90, calls: []callRecord{
			{sent: 1000, origTokens: 1000}, {sent: 2000, origTokens: 2000, cached: 1000, stable: true}},
			ret: retention{present: [numFactKinds]int{2, 0, 1, 4}, visible: [numFactKinds]int{2, 0, 1, 4}}},
		{file: "a", strategy: "x", window: 100, budget: 90, calls: []callRecord{
			{sent: 500, overBudget: true}, {sent: 500, cached: 0, compacted: true, pairErr: true, sumCalls: 1, sumIn: 100, sumOut: 10},
			{failed: true}},
			ret: retention{present: [numFactKinds]int{2, 0, 1, 4}, visible: [numFactKinds]int{1, 0, 1, 0}}, firstErr: "boom"},
		{file: "b", strategy: "x", window: 100, budget: 90, calls: []callRecord{{sent: 100}},
			ret: retention{present: [numFactKinds]int{8, 0, 0, 0}, visible: [numFactKinds]int{8, 0, 0, 0}}},
		{file: "b", strategy: "none", window: 100, calls: []callRecord{{sent: 100}}},
		{file: "c", strategy: "ignored", window: 100, calls: []callRecord{{sent: 1}}},
	}
	p := prices{input: 2, output: 10}
	rows := aggregate(results, []int{100}, []string{"none", "x"}, p)
	require.Len(t, rows, 2)
	none, x := rows[0], rows[1]

	assert.Equal(t, int64(3100), none.billed)
	assert.Equal(t, 0.0, none.reduction)
	assert.Equal(t, 1.0, none.stableShare())
	assert.InDelta(t, (2000+0.1*1000+100)*2/1e6, none.cost[0], 1e-12)
	assert.InDelta(t, 3100*2/1e6, none.costNoCache, 1e-12)

	assert.Equal(t, "x", x.strategy)
	assert.Equal(t, 2, x.runs)
	assert.Equal(t, 4, x.calls)
	assert.Equal(t, 1, x.failed)
	assert.Equal(t, "a: boom", x.firstErr)
	assert.Equal(t, int64(1100), x.billed)
	assert.InDelta(t, 1-1100.0/3100, x.reduction, 1e-12)
	assert.Equal(t, 500, x.peak)
	assert.Equal(t, 300.0, x.meanPeak)
	assert.Equal(t, 1, x.compactions)
	assert.Equal(t, 1, x.budgetViolations)
	assert.Equal(t, 1, x.pairViolations)
	assert.Equal(t, 0.0, x.stableShare(), "one later call, not stable (the failed one is skipped)")
	assert.Equal(t, 1, x.sumCalls)
	assert.InDelta(t, (1100*2+100*2+10*10)/1e6, x.costNoCache, 1e-12)
	// Paths: runs a (1/2) and b (8/8): mean 75%, pooled 90%.
	assert.InDelta(t, 0.75, x.retention[factPaths], 1e-12)
	assert.InDelta(t, 0.9, x.retMicro[factPaths], 1e-12)
	assert.True(t, math.IsNaN(x.retention[factExceptions]), "no run has an exception")
	assert.InDelta(t, 0.0, x.retention[factInstructions], 1e-12)
	assert.InDelta(t, (0.75+1+0)/3, x.meanRetention(), 1e-12)
}

func TestRowEmpty(t *testing.T) {
	r := row{}
	for k := range r.retention {
		r.retention[k] = math.NaN()
	}
	assert.True(t, math.IsNaN(r.meanRetention()))
	assert.True(t, math.IsNaN(r.stableShare()))
}

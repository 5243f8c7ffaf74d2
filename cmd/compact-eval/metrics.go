package main

import (
	"math"
)

// prices are the prices used for cost estimates, in dollars per million
// tokens.
type prices struct {
	input, output float64
}

// defaultPrices are gpt-4o's list prices.
var defaultPrices = prices{input: 2.50, output: 10.00}

// cacheFractions are the prices of cached input tokens, as fractions of
// the input price.
var cacheFractions = [3]float64{0.10, 0.25, 0.50}

// row is the aggregate of one strategy at one window over all runs.
type row struct {
	strategy      string
	window        int
	budget        int
	runs, calls   int
	billed        int64   // input tokens billed: sum of tokens sent over all calls
	reduction     float64 // 1 - billed/billed(none), NaN without a none row
	peak          int     // largest context sent
	meanPeak      float64 // mean over runs of each run's largest context
	compactions   int
	sumCalls      int
	sumIn, sumOut int64
	// retention is the mean over runs (that hold at least one fact of the
	// category) of the share of facts visible at the last call; NaN when
	// no run holds one. retMicro pools the facts of all runs.
	retention, retMicro [numFactKinds]float64
	retRuns             [numFactKinds]int
	present             [numFactKinds]int
	budgetViolations    int
	pairViolations      int
	failed              int
	stable, stableOf    int   // prefix-stable calls, out of the calls after each run's first
	cached              int64 // tokens shared with the previous call's prefix
	cost                [len(cacheFractions)]float64
	costNoCache         float64
	sumCached           int64   // summarizer prompt tokens a prefix cache serves
	costOpenAI          float64 // OpenAI-style automatic prefix caching (pricing.go)
	costAnthropic       float64 // Anthropic-style cache writes and reads (pricing.go)
	firstErr            string
	recall              recallStats // recall coverage and ref tokens (ours)
	// Used-later retention (usedlater.go): tokens needed and kept over
	// every call, and over the calls of the runs the strategy compacted.
	laterNeeded, laterKept   int64
	laterNeededC, laterKeptC int64
	laterMissedAI            int64 // missed tokens last seen in an assistant message
	compactedRuns            int   // runs with at least one compaction
	overWindow               int   // calls whose request exceeded the window (rejected)
	sumScale                 float64
}

// usedLater is the used-later retention over every call, NaN when no call
// needed a token.
func (r row) usedLater() float64 {
	if r.laterNeeded == 0 {
		return math.NaN()
	}
	return float64(r.laterKept) / float64(r.laterNeeded)
}

// usedLaterCompacted is the used-later retention over the runs the
// strategy compacted, NaN when there are none.
func (r row) usedLaterCompacted() float64 {
	if r.laterNeededC == 0 {
		return math.NaN()
	}
	return float64(r.laterKeptC) / float64(r.laterNeededC)
}

// meanRetention is the mean of the categories' retention that are defined.
func (r row) meanRetention() float64 {
	s, n := 0.0, 0
	for _, v := range r.retention {
		if !math.IsNaN(v) {
			s += v
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return s / float64(n)
}

// stableShare is the share of prefix-stable calls, NaN when no run has two calls.
func (r row) stableShare() float64 {
	if r.stableOf == 0 {
		return math.NaN()
	}
	return float64(r.stable) / float64(r.stableOf)
}

// aggregate folds the run results into one row per (window, strategy), in
// the order of windows and strategies given.
func aggregate(results []runResult, windows []int, strategies []string, p prices) []row {
	type key struct {
		w int
		s string
	}
	rows := map[key]*row{}
	for _, w := range windows {
		for _, s := range strategies {
			rows[key{w, s}] = &row{strategy: s, window: w, reduction: math.NaN()}
		}
	}
	sums := map[key]*retentionSums{}
	for _, res := range results {
		k := key{res.window, res.strategy}
		r, ok := rows[k]
		if !ok {
			continue
		}
		if sums[k] == nil {
			sums[k] = &retentionSums{}
		}
		r.addRun(res, p)
		sums[k].add(r, res)
	}
	var out []row
	for _, w := range windows {
		none := rows[key{w, stratNone}]
		for _, s := range strategies {
			k := key{w, s}
			r := rows[k]
			if sums[k] == nil {
				sums[k] = &retentionSums{}
			}
			r.finish(none, sums[k], p)
			out = append(out, *r)
		}
	}
	return out
}

// retentionSums accumulates, per fact kind, the runs' retention fractions
// (for the mean per run) and the facts visible (for the micro average).
type retentionSums struct {
	frac [numFactKinds]float64
	vis  [numFactKinds]int
}

func (s *retentionSums) add(r *row, res runResult) {
	for f := range numFactKinds {
		r.present[f] += res.ret.present[f]
		s.vis[f] += res.ret.visible[f]
		if res.ret.present[f] > 0 {
			r.retRuns[f]++
			s.frac[f] += float64(res.ret.visible[f]) / float64(res.ret.present[f])
		}
	}
}

// addRun adds the calls of one run to the row's counts and costs.
func (r *row) addRun(res runResult, p prices) {
	r.budget = res.budget
	r.sumScale = res.sumScale
	r.runs++
	r.recall.add(res.recall)
	if r.firstErr == "" && res.firstErr != "" {
		r.firstErr = res.file + ": " + res.firstErr
	}
	runPeak := 0
	var need, kept int64
	compacted := false
	for _, c := range res.calls {
		need += int64(c.needed)
		kept += int64(c.keptLater)
		r.laterMissedAI += int64(c.missedAI)
		compacted = compacted || c.compacted
		if c.overWindow {
			r.overWindow++
		}
	}
	r.laterNeeded += need
	r.laterKept += kept
	if compacted {
		r.compactedRuns++
		r.laterNeededC += need
		r.laterKeptC += kept
	}
	for i, c := range res.calls {
		r.calls++
		if c.failed {
			r.failed++
			continue
		}
		r.billed += int64(c.sent)
		runPeak = max(runPeak, c.sent)
		if c.compacted {
			r.compactions++
		}
		r.sumCalls += c.sumCalls
		r.sumIn += int64(c.sumIn)
		r.sumOut += int64(c.sumOut)
		if c.overBudget {
			r.budgetViolations++
		}
		if c.pairErr {
			r.pairViolations++
		}
		if i > 0 {
			r.stableOf++
			if c.stable {
				r.stable++
			}
		}
		r.cached += int64(c.cached)
		for f, frac := range cacheFractions {
			r.cost[f] += (float64(c.sent-c.cached) + frac*float64(c.cached)) * p.input / 1e6
		}
		r.costNoCache += float64(c.sent) * p.input / 1e6
		r.costOpenAI += openAICallCost(c, p)
		r.costAnthropic += anthropicCallCost(c, p)
		r.sumCached += int64(c.sumCached)
	}
	r.peak = max(r.peak, runPeak)
	r.meanPeak += float64(runPeak)
}

// finish turns the row's sums into means, bills the summarizer's calls
// (prompt as uncached input, reply as output) and sets the reduction
// against the row of no compaction.
func (r *row) finish(none *row, sums *retentionSums, p prices) {
	if r.runs > 0 {
		r.meanPeak /= float64(r.runs)
	}
	if r.sumScale > 0 {
		p = prices{input: p.input * r.sumScale, output: p.output * r.sumScale}
	}
	for f, frac := range cacheFractions {
		r.cost[f] += summarizerCost(r.sumIn, r.sumCached, r.sumOut, frac, p)
	}
	r.costNoCache += summarizerCost(r.sumIn, 0, r.sumOut, 1, p)
	r.costOpenAI += summarizerCost(r.sumIn, r.sumCached, r.sumOut, openAICachedFraction, p)
	r.costAnthropic += summarizerCost(r.sumIn, r.sumCached, r.sumOut, anthropicRead, p)
	for f := range numFactKinds {
		r.retention[f], r.retMicro[f] = math.NaN(), math.NaN()
		if r.retRuns[f] > 0 {
			r.retention[f] = sums.frac[f] / float64(r.retRuns[f])
		}
		if r.present[f] > 0 {
			r.retMicro[f] = float64(sums.vis[f]) / float64(r.present[f])
		}
	}
	if none != nil && none.billed > 0 {
		r.reduction = 1 - float64(r.billed)/float64(none.billed)
	}
}

// recallByRef is the share of compacted originals every check by ref
// brought back whole; NaN for a strategy that does not compact losslessly
// or compacted nothing.
func (r row) recallByRef() float64 {
	if !r.recall.measured || r.recall.originals == 0 {
		return math.NaN()
	}
	return float64(r.recall.byRef) / float64(r.recall.originals)
}

// recallBySearch is the share of searchable compacted originals every
// search for their line named; NaN as recallByRef, or with none searchable.
func (r row) recallBySearch() float64 {
	if !r.recall.measured || r.recall.searchable == 0 {
		return math.NaN()
	}
	return float64(r.recall.bySearch) / float64(r.recall.searchable)
}

// refShare is the share of the input tokens billed that refs and recall
// hints take; NaN for a strategy that does not compact losslessly.
func (r row) refShare() float64 {
	if !r.recall.measured || r.billed == 0 {
		return math.NaN()
	}
	return float64(r.recall.refTokens) / float64(r.billed)
}

package budget

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// ratioStats summarizes per-message ratios estimate/o200k.
type ratioStats struct {
	n                           int
	mean, min, p1, p5, p50, p95 float64
	max, under, total           float64
}

func summarize(est, exact []int) ratioStats {
	r := make([]float64, 0, len(est))
	se, sx := 0, 0
	under := 0
	for i := range est {
		if exact[i] == 0 {
			continue
		}
		r = append(r, float64(est[i])/float64(exact[i]))
		se += est[i]
		sx += exact[i]
		if est[i] < exact[i] {
			under++
		}
	}
	if len(r) == 0 {
		return ratioStats{}
	}
	sort.Float64s(r)
	sum := 0.0
	for _, v := range r {
		sum += v
	}
	n := len(r)
	return ratioStats{
		n: n, mean: sum / float64(n), min: r[0], p1: r[n/100], p5: r[n/20], p50: r[n/2],
		p95: r[n*95/100], max: r[n-1], under: float64(under) / float64(n), total: float64(se) / float64(sx),
	}
}

func (s ratioStats) row(name string) string {
	return fmt.Sprintf("| %-22s | %5d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %5.1f%% | %.3f |",
		name, s.n, s.mean, s.min, s.p1, s.p5, s.p50, s.p95, s.max, 100*s.under, s.total)
}

// measureEstimate returns per-message token counts of the message texts
// (overheads excluded) under o200k, EstimateTokens, chars/4 and bytes/3.
func measureEstimate(t *testing.T, trajs map[string][]llms.MessageContent) (o200k, est, chars4, bytes3 []int) {
	t.Helper()
	enc, err := loadEncoder(EncodingO200k)
	require.NoError(t, err)
	for _, msgs := range trajs {
		for _, m := range msgs {
			var x, e, c, b int
			for _, s := range messageTexts(m) {
				x += enc.count(s)
				e += EstimateTokens(s)
				c += utf8.RuneCountInString(s) / 4
				b += (len(s) + 2) / 3
			}
			o200k, est, chars4, bytes3 = append(o200k, x), append(est, e), append(chars4, c), append(bytes3, b)
		}
	}
	return o200k, est, chars4, bytes3
}

func ratioTable(o200k, est, chars4, bytes3 []int) (string, ratioStats) {
	var sb strings.Builder
	sb.WriteString("| counter                | msgs  | mean  | min   | p1    | p5    | p50   | p95   | max   | under  | total |\n")
	sb.WriteString("|------------------------|-------|-------|-------|-------|-------|-------|-------|-------|--------|-------|\n")
	st := summarize(est, o200k)
	sb.WriteString(st.row("EstimateTokens") + "\n")
	sb.WriteString(summarize(chars4, o200k).row("chars/4") + "\n")
	sb.WriteString(summarize(bytes3, o200k).row("bytes/3") + "\n")
	return sb.String(), st
}

// TestEstimateAgainstO200k measures EstimateTokens against o200k_base on
// every message of the trajectory corpus (-corpus or BUDGET_CORPUS; skipped
// when absent) and prints the table quoted in doc.go:
//
//	go test -run TestEstimateAgainstO200k -v ./budget/
func TestEstimateAgainstO200k(t *testing.T) {
	if _, err := os.Stat(*corpusDir); err != nil {
		t.Skipf("corpus folder %s absent (set -corpus or BUDGET_CORPUS): %v", *corpusDir, err)
	}
	trajs := loadDir(t, *corpusDir)
	require.NotEmpty(t, trajs, "no *.jsonl in %s", *corpusDir)
	table, st := ratioTable(measureEstimate(t, trajs))
	t.Logf("per-message ratio to o200k_base, %d trajectories in %s:\n%s", len(trajs), *corpusDir, table)
	assert.GreaterOrEqual(t, st.p5, 1.0, "p5 of estimate/o200k")
	assert.LessOrEqual(t, st.under, 0.02, "share of messages undercounted")
}

// TestEstimateTestdata checks the estimate's margin on the trajectory
// excerpts shipped in testdata/, so it runs on any clone.
func TestEstimateTestdata(t *testing.T) {
	trajs := loadDir(t, "testdata")
	require.Len(t, trajs, 3)
	table, st := ratioTable(measureEstimate(t, trajs))
	t.Logf("testdata:\n%s", table)
	assert.Greater(t, st.mean, 1.1)
	assert.Less(t, st.mean, 1.6)
	assert.GreaterOrEqual(t, st.p5, 1.0)
	assert.Greater(t, st.total, 1.0)
}

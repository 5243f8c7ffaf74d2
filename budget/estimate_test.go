package budget

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
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
// every message of the trajectory corpus (-corpus or BUDGET_CORPUS, one
// folder or a comma-separated list measured together; skipped when a folder
// is absent) and prints the table quoted in doc.go:
//
//	go test -run TestEstimateAgainstO200k -v ./budget/
//	go test -run TestEstimateAgainstO200k -v ./budget/ -corpus dir1,dir2
func TestEstimateAgainstO200k(t *testing.T) {
	trajs := loadCorpus(t)
	table, st := ratioTable(measureEstimate(t, trajs))
	t.Logf("per-message ratio to o200k_base, %d trajectories in %s:\n%s",
		len(trajs), strings.Join(corpusDirs(), ", "), table)
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

// TestEstimateTextKinds checks the estimate against o200k_base on kinds of
// text the corpus lacks: prose in several scripts, data formats, symbols.
// Each must be at least o200k and, apart from degenerate runs, at most 3x.
// Hex and base64 of random bytes are opaque-identifier runs (see idRun).
func TestEstimateTextKinds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 3000)
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	kinds := []struct {
		name     string
		text     string
		min, max float64
	}{
		{"english", "The committee reviewed the proposal in detail and decided that the project should move forward next quarter, provided that the budget is approved. ", 1, 2},
		{"german", "Die Kommission hat den Vorschlag ausführlich geprüft und beschlossen, dass das Projekt fortgesetzt wird. ", 1, 2},
		{"russian", "Сегодня мы обсудили ход проекта и решили продолжить работу в следующем квартале. ", 1, 2},
		{"arabic", "ناقشنا اليوم تقدم المشروع وقررنا المتابعة في الربع القادم. ", 1, 2},
		{"chinese", "我们今天讨论了这个项目的进展情况，并决定下个季度继续推进。", 1, 2},
		{"japanese", "今日はプロジェクトの進捗について話し合い、来四半期も続けることにしました。", 1, 2},
		{"korean", "오늘 우리는 프로젝트 진행 상황을 논의하고 다음 분기에도 계속하기로 했습니다. ", 1, 2.5},
		{"hindi", "आज हमने परियोजना की प्रगति पर चर्चा की और अगली तिमाही में जारी रखने का निर्णय लिया। ", 1, 3},
		{"emoji", "🎉👍🏽🚀✨🔥 ", 1, 2},
		{"go", "func (c *Counter) Count(text string) int {\n\tif text == \"\" {\n\t\treturn 0\n\t}\n\treturn len(text) / 4\n}\n", 1, 2},
		{"json", `{"id": 12345, "name": "example", "tags": ["a", "b"], "active": true, "score": 0.875}, `, 1, 2},
		{"numbers", "3.14159265358979 2718281828 1,234,567 ", 1, 2},
		{"uuid", "550e8400-e29b-41d4-a716-446655440000 ", 1, 2},
		{"hex", hex.EncodeToString(random[:1000]), 1, 2},
		{"base64", base64.StdEncoding.EncodeToString(random), 1, 2},
		{"spaces", strings.Repeat(" ", 800), 1, 10},
		{"dots", strings.Repeat(".", 500), 1, 10},
	}
	enc, err := loadEncoder(EncodingO200k)
	require.NoError(t, err)
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			text := k.text
			for len(text) < 2000 {
				text += k.text
			}
			exact, est := enc.count(text), EstimateTokens(text)
			ratio := float64(est) / float64(exact)
			t.Logf("o200k %d, estimate %d, ratio %.2f", exact, est, ratio)
			assert.GreaterOrEqual(t, ratio, k.min)
			assert.LessOrEqual(t, ratio, k.max)
		})
	}
}

func TestEstimateEdgeCases(t *testing.T) {
	assert.Zero(t, EstimateTokens(""))
	for _, s := range []string{" ", "\n", "a", "A", "1", ".", "é", "日", "🎉", "\xff", "\xe6\x97", " \xff ", "a\x00b"} {
		assert.Positive(t, EstimateTokens(s), "%q", s)
	}
	// Monotone in repetition: more text never estimates fewer tokens.
	for _, s := range splitSamples {
		assert.LessOrEqual(t, EstimateTokens(s), EstimateTokens(s+s), "%q", s)
	}
}

// FuzzEstimateTokens checks that the estimate never panics, is 0 only for
// empty text, and never exceeds the margin times one token per byte.
func FuzzEstimateTokens(f *testing.F) {
	for _, s := range splitSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := EstimateTokens(s)
		if s == "" {
			require.Zero(t, n)
			return
		}
		require.Positive(t, n)
		require.LessOrEqual(t, n, ceilDiv(len(s)*defaultEst.marginPct, 100), "%q", s)
	})
}

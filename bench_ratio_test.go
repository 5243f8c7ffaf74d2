package compact

import (
	"context"
	"testing"

	"github.com/agentcompact/compact/budget"
)

// BenchmarkCompactRatio interleaves, per iteration, one full tokenization
// of a 1,000-message history with a fresh counter, one untriggered Compact
// call on a warm session, and one triggered rule-based compaction of the
// same history (~260k tokens, fresh compactor, cold counts), and reports
// their costs relative to the tokenization, in thread CPU time where the
// platform has it (so that load on a shared machine cancels out):
// untriggered-%  (target <= 5) and triggered-x (target <= 2).
func BenchmarkCompactRatio(b *testing.B) {
	msgs := longHistory(b, 1_000)
	ctx := context.Background()
	warm, err := New(WithContextWindow(10_000_000))
	if err != nil {
		b.Fatal(err)
	}
	s := NewSession("warm")
	if _, err := warm.Compact(ctx, s, msgs); err != nil {
		b.Fatal(err)
	}
	if _, err := budget.NewCounter("gpt-4o"); err != nil {
		b.Fatal(err)
	}
	var full, untrig, trig float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		stop := cpuTimer()
		c, _ := budget.NewCounter("gpt-4o")
		tokens := c.CountMessages(msgs)
		full += stop()

		stop = cpuTimer()
		if res, err := warm.Compact(ctx, s, msgs); err != nil || res.Compacted {
			b.Fatal(err)
		}
		untrig += stop()

		stop = cpuTimer()
		coldCompact(b, ctx, msgs)
		trig += stop()
		if i == 0 {
			b.ReportMetric(float64(tokens), "history-tokens")
		}
	}
	b.ReportMetric(100*untrig/full, "untriggered-%")
	b.ReportMetric(trig/full, "triggered-x")
	b.ReportMetric(full/float64(b.N)/1e6, "tokenize-cpu-ms")
}

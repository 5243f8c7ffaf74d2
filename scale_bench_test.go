package compact

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms"
)

// BenchmarkScaleManyCalls compacts one assistant message with n tool calls
// and their results (each result a few hundred bytes), at 1x and 10x, in a
// window a little smaller than it: the round is the preserved tail and
// cannot be split (I2), so stage 3 cuts most of the results. Linear in n means the 10x case takes
// about ten times as long (40,000 calls took 21 s, against 15 ms for 4,000,
// when each cut scanned every message).
func BenchmarkScaleManyCalls(b *testing.B) {
	for _, n := range []int{2_000, 20_000} {
		msgs := manyCalls(n)
		body := strings.Repeat("line of file content\n", 12)
		for i := 2; i < len(msgs)-1; i++ {
			r := msgs[i].Parts[0].(llms.ToolCallResponse)
			r.Content = fmt.Sprintf("%d\n%s", i, body)
			msgs[i] = llms.MessageContent{Role: msgs[i].Role, Parts: []llms.ContentPart{r}}
		}
		b.Run(fmt.Sprintf("calls=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			ctx := context.Background()
			for i := 0; i < b.N; i++ {
				c, err := New(WithModel("gpt-4o"), WithContextWindow(70*n+4_096))
				if err != nil {
					b.Fatal(err)
				}
				res, err := c.Compact(ctx, NewSession("bench"), msgs)
				if err != nil || !res.Compacted {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScaleHistory runs one rule-based compaction of a history of
// 1,000 and 10,000 messages (cold counts, the window a tenth of the
// history): every stage over 1x and 10x the messages and bytes.
func BenchmarkScaleHistory(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		msgs := longHistory(b, n)
		b.Run(fmt.Sprintf("msgs=%d", n), func(b *testing.B) {
			b.SetBytes(historyBytes(msgs))
			b.ReportAllocs()
			ctx := context.Background()
			for i := 0; i < b.N; i++ {
				c, err := New(WithModel("gpt-4o"), WithContextWindow(30*n))
				if err != nil {
					b.Fatal(err)
				}
				res, err := c.Compact(ctx, NewSession("bench"), msgs)
				if err != nil || !res.Compacted {
					b.Fatal(err)
				}
			}
		})
	}
}

package memory

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"testing"
	"time"

	compact "github.com/agentcompact/compact"
	lcmemory "github.com/tmc/langchaingo/memory"
	"github.com/tmc/langchaingo/schema"
)

// turnsInput is the input of turn i of BenchmarkTurns: a coding chat's
// request, about 60 tokens.
func turnsInput(i int) string {
	return fmt.Sprintf("turn %d: look at handler_%d.go and check the error path. %s", i, i, strings.Repeat("detail ", 40))
}

// BenchmarkTurns runs a whole conversation of 2,000 turns (each a
// LoadMemoryVariables with the turn's input, then SaveContext), through
// this package's Memory with the defaults (memory.New(c), a 128k window,
// retrieval on) and through langchaingo's ConversationTokenBuffer at the
// same token limit: one op is the whole conversation. The metrics
// last200/mid200 say whether a turn's cost grows with the conversation:
// the time of the last 200 turns over that of turns 800-1,000 (1.0 is
// flat). Compare ns/op of the two rows for the speed against langchaingo.
func BenchmarkTurns(b *testing.B) {
	log.SetOutput(io.Discard) // llms.CountTokens logs a warning on every call
	b.Cleanup(func() { log.SetOutput(os.Stderr) })
	const turns, limit = 2000, 128_000
	for _, row := range []string{"ours", "langchaingo-tokenbuffer"} {
		b.Run(row, func(b *testing.B) {
			b.ReportAllocs()
			var mid, last time.Duration
			for i := 0; i < b.N; i++ {
				var mem schema.Memory
				if row == "ours" {
					c, err := compact.New(compact.WithContextWindow(limit))
					if err != nil {
						b.Fatal(err)
					}
					mem = New(c)
				} else {
					mem = lcmemory.NewConversationTokenBuffer(&scriptedModel{}, limit)
				}
				start := time.Now()
				for t := range turns {
					if t == 800 || t == turns-200 {
						start = time.Now()
					}
					in := map[string]any{"input": turnsInput(t)}
					if _, err := mem.LoadMemoryVariables(context.Background(), in); err != nil {
						b.Fatal(err)
					}
					if err := mem.SaveContext(context.Background(), in, map[string]any{"output": fmt.Sprintf("Checked handler_%d.go: the error path returns early.", t)}); err != nil {
						b.Fatal(err)
					}
					switch t {
					case 999:
						mid += time.Since(start)
					case turns - 1:
						last += time.Since(start)
					}
				}
			}
			b.ReportMetric(float64(last)/float64(mid), "last200/mid200")
		})
	}
}

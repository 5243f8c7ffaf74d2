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

// runTurn runs turn t of BenchmarkTurns' conversation through mem (a
// LoadMemoryVariables with the turn's input, then SaveContext) and returns
// the history the load returned, "" when it is not a string.
func runTurn(b *testing.B, mem schema.Memory, t int) string {
	in := map[string]any{"input": turnsInput(t)}
	vars, err := mem.LoadMemoryVariables(context.Background(), in)
	if err != nil {
		b.Fatal(err)
	}
	if err := mem.SaveContext(context.Background(), in, map[string]any{"output": fmt.Sprintf("Checked handler_%d.go: the error path returns early.", t)}); err != nil {
		b.Fatal(err)
	}
	h, _ := vars["history"].(string)
	return h
}

// BenchmarkTurns runs a whole conversation of 2,000 turns (each a
// LoadMemoryVariables with the turn's input, then SaveContext), through
// this package's Memory with the defaults (memory.New(c), a 128k window,
// retrieval on) and through langchaingo's ConversationTokenBuffer at the
// same token limit: one op is the whole conversation. Compare ns/op of the
// two rows for the speed against langchaingo.
//
// The metric last200/mid200 is the time of the last 200 turns over that
// of turns 800-1,000. It does not say whether a turn's cost grows with the
// conversation: a turn costs what its prompt's size does (the history
// returned is the window), and the window fills until about turn 1,450
// (128k tokens of 75-token turns), so the last turns return a prompt 1.7
// times the size of turns 800-1,000's and hold the compactions. A memory
// that compacts deep (the release's) returns a prompt that grows again
// after each compaction, and the ratio then depends on where in that cycle
// the two ranges fall. The row "ours-steady" answers the question: 4,000
// turns, and last1000/prev1000 is the time of turns 3,000-4,000 over that
// of turns 2,000-3,000, both with a full window (1.0: a turn costs the
// same however long the conversation).
func BenchmarkTurns(b *testing.B) {
	log.SetOutput(io.Discard) // llms.CountTokens logs a warning on every call
	b.Cleanup(func() { log.SetOutput(os.Stderr) })
	const limit = 128_000
	for _, row := range []string{"ours", "langchaingo-tokenbuffer", "ours-steady"} {
		turns, from, to := 2000, 800, 1000 // the range the last 200 turns are compared with
		if row == "ours-steady" {
			turns, from, to = 4000, 2000, 3000
		}
		b.Run(row, func(b *testing.B) {
			b.ReportAllocs()
			var mid, last time.Duration
			for i := 0; i < b.N; i++ {
				var mem schema.Memory
				if row == "langchaingo-tokenbuffer" {
					mem = lcmemory.NewConversationTokenBuffer(&scriptedModel{}, limit)
				} else {
					c, err := compact.New(compact.WithContextWindow(limit))
					if err != nil {
						b.Fatal(err)
					}
					mem = New(c)
				}
				var start time.Time
				for t := range turns {
					if t == from || t == turns-(to-from) {
						start = time.Now()
					}
					runTurn(b, mem, t)
					switch t {
					case to - 1:
						mid += time.Since(start)
					case turns - 1:
						last += time.Since(start)
					}
				}
			}
			name := "last200/mid200"
			if row == "ours-steady" {
				name = "last1000/prev1000"
			}
			b.ReportMetric(float64(last)/float64(mid), name)
		})
	}
}

// BenchmarkTurnsByBlock runs 4,000 turns of BenchmarkTurns' conversation
// through memory.New(c) at 128k and logs, for each block of 200 turns, the
// time of a turn and the size of the history it returns (the prompt): a
// turn's cost follows its prompt's size, which grows while the window
// fills and then holds (docs/measurements.md, Speed). It measures a
// conversation, not an op: run it with -benchtime 1x -v (without -v go
// test shows 10 lines of a benchmark's log). It uses the API the
// release had, so docs/bench/run.sh's copy of this file runs it there too.
func BenchmarkTurnsByBlock(b *testing.B) {
	log.SetOutput(io.Discard)
	b.Cleanup(func() { log.SetOutput(os.Stderr) })
	const turns, block, limit = 4000, 200, 128_000
	var took [turns / block]time.Duration
	var prompt [turns / block]int
	for i := 0; i < b.N; i++ {
		c, err := compact.New(compact.WithContextWindow(limit))
		if err != nil {
			b.Fatal(err)
		}
		mem := New(c)
		for t := range turns {
			start := time.Now()
			h := runTurn(b, mem, t)
			took[t/block] += time.Since(start)
			prompt[t/block] += len(h)
		}
	}
	n := b.N * block
	var tab strings.Builder
	for k := range took {
		fmt.Fprintf(&tab, "\nturns %4d-%4d: %6.0f µs a turn, prompt %3d kB", k*block, (k+1)*block, float64(took[k].Microseconds())/float64(n), prompt[k]/n/1000)
	}
	b.Log(tab.String())
}

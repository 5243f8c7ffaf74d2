package memory

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"sync"
	"testing"
	"time"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
	lcmemory "github.com/tmc/langchaingo/memory"
)

// compactionTimer adds up the engine's compactions (their count and
// Event.Duration) as its observer sees them.
type compactionTimer struct {
	mu                sync.Mutex
	spent, total      time.Duration
	calls, totalCalls int
}

func (s *compactionTimer) observe(ev compact.Event) {
	s.mu.Lock()
	s.spent += ev.Duration
	s.calls++
	s.mu.Unlock()
}

// reset forgets what was measured since the last fold (untimed work).
func (s *compactionTimer) reset() {
	s.mu.Lock()
	s.spent, s.calls = 0, 0
	s.mu.Unlock()
}

// fold adds what was measured since the last reset to the totals.
func (s *compactionTimer) fold() {
	s.mu.Lock()
	s.total += s.spent
	s.totalCalls += s.calls
	s.spent, s.calls = 0, 0
	s.mu.Unlock()
}

// benchTurn is one turn as a chain makes it: LoadMemoryVariables with the
// turn's input, then SaveContext. An input too large for the budget (a few
// corpus texts at the 2,000-token limit) is loaded without the input.
func benchTurn(b *testing.B, mem interface {
	SaveContext(context.Context, map[string]any, map[string]any) error
	LoadMemoryVariables(context.Context, map[string]any) (map[string]any, error)
}, in, out string) {
	ctx := context.Background()
	inputs := map[string]any{"input": in}
	_, err := mem.LoadMemoryVariables(ctx, inputs)
	if errors.Is(err, ErrInputTooLarge) {
		_, err = mem.LoadMemoryVariables(ctx, nil)
	}
	if err != nil {
		b.Fatal(err)
	}
	if err := mem.SaveContext(ctx, inputs, map[string]any{"output": out}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkTurn measures one turn (LoadMemoryVariables with the turn's
// input, then SaveContext, string history) of a conversation that already
// holds N turns of real text (from the testdata trajectories), for this
// package's Memory (exact o200k token counts, compaction with the engine's
// defaults) and for langchaingo's ConversationTokenBuffer at the same token
// limit (it counts with llms.CountTokens, which falls back to len(runes)/4
// offline). The conversation is restored to N turns every N/10 timed turns,
// so the figures stand for N to 1.1 N turns; a restored Memory is loaded
// once with the next input before the clock runs again, as a running
// process has it (its history indexed, its term counts and the engine's
// memo built): a restore is not a restart to time.
//
// Rows: "ours" is the engine with its defaults, the rule-based digest
// included (the compactions/op and compaction-ns/op metrics: the
// compactions a turn runs and their Event.Duration); "ours-fixedsummary"
// uses a summarizer that costs nothing, to separate the Memory's and the
// engine's cost from the digest's.
func BenchmarkTurn(b *testing.B) {
	ins, outs := corpusTexts(b)
	text := func(i int) (string, string) { return ins[i%len(ins)], outs[(i*7)%len(outs)] }
	log.SetOutput(io.Discard) // llms.CountTokens logs a warning on every call
	b.Cleanup(func() { log.SetOutput(os.Stderr) })
	fixed := compact.SummarizerFunc(func(context.Context, compact.SummarizeRequest) (compact.SummaryRecord, error) {
		return compact.SummaryRecord{Summary: "The user and the assistant discussed the earlier steps of the task.", Mode: compact.ModeRule}, nil
	})
	for _, limit := range []int{2000, 8000, 32000} {
		for _, n := range []int{100, 500, 2000} {
			seg := max(10, n/10)
			for _, variant := range []string{"ours", "ours-fixedsummary"} {
				b.Run(fmt.Sprintf("%s/limit=%d/turns=%d", variant, limit, n), func(b *testing.B) {
					timing := &compactionTimer{}
					opts := []compact.Option{compact.WithContextWindow(limit), compact.WithReservedOutput(0), compact.WithObserver(timing.observe)}
					if variant == "ours-fixedsummary" {
						opts = append(opts, compact.WithCustomSummarizer(fixed))
					}
					c, err := compact.New(opts...)
					if err != nil {
						b.Fatal(err)
					}
					ms := store.NewMemory()
					h := store.NewChatHistory()
					m := New(c, WithChatHistory(h), WithStore(ms))
					for i := 0; i < n; i++ {
						in, out := text(i)
						benchTurn(b, m, in, out)
					}
					msgs, _ := h.Messages(context.Background())
					st, _ := ms.Load(context.Background(), DefaultSessionID)
					restore := func() *Memory {
						s := store.NewMemory()
						if st.Version > 0 {
							st2 := st
							st2.Version = 0
							if _, err := s.Save(context.Background(), st2, 0); err != nil {
								b.Fatal(err)
							}
						}
						m := New(c, WithChatHistory(store.NewChatHistory(msgs...)), WithStore(s))
						// A load with the next turn's input warms what a
						// running process holds (the history's search index,
						// the term counts, the engine's memo): the restore
						// keeps N fixed, it is not a restart to time.
						next, _ := text(n)
						if _, err := m.LoadMemoryVariables(context.Background(), map[string]any{"input": next}); err != nil && !errors.Is(err, ErrInputTooLarge) {
							b.Fatal(err)
						}
						return m
					}
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if i%seg == 0 {
							b.StopTimer()
							m = restore()
							timing.reset()
							b.StartTimer()
						}
						in, out := text(n + i%seg)
						benchTurn(b, m, in, out)
						if i%seg == seg-1 || i == b.N-1 {
							timing.fold()
						}
					}
					b.StopTimer()
					if variant == "ours" {
						b.ReportMetric(float64(timing.total.Nanoseconds())/float64(b.N), "compaction-ns/op")
						b.ReportMetric(float64(timing.totalCalls)/float64(b.N), "compactions/op")
					}
				})
			}
			b.Run(fmt.Sprintf("langchaingo/limit=%d/turns=%d", limit, n), func(b *testing.B) {
				model := &scriptedModel{}
				h := lcmemory.NewChatMessageHistory()
				m := lcmemory.NewConversationTokenBuffer(model, limit, lcmemory.WithChatHistory(h))
				for i := 0; i < n; i++ {
					in, out := text(i)
					benchTurn(b, m, in, out)
				}
				msgs, _ := h.Messages(context.Background())
				msgs = append([]llms.ChatMessage(nil), msgs...)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if i%seg == 0 {
						b.StopTimer()
						h := lcmemory.NewChatMessageHistory(lcmemory.WithPreviousMessages(append([]llms.ChatMessage(nil), msgs...)))
						m = lcmemory.NewConversationTokenBuffer(model, limit, lcmemory.WithChatHistory(h))
						b.StartTimer()
					}
					in, out := text(n + i%seg)
					benchTurn(b, m, in, out)
				}
			})
		}
	}
}

package middleware

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/internal/trajectory"
	"github.com/tmc/langchaingo/llms"
)

// noop answers instantly, so a benchmark measures the wrapper alone.
type noop struct{}

var okResponse = textResponse("ok")

func (noop) GenerateContent(context.Context, []llms.MessageContent, ...llms.CallOption) (*llms.ContentResponse, error) {
	return okResponse, nil
}
func (noop) Call(context.Context, string, ...llms.CallOption) (string, error) { return "ok", nil }

// history1000 returns a 1,000-message agent history made of the rounds of
// the real trajectories in ../testdata/trajectories, cycled, with every
// message made distinct (so no count is served twice from a cache).
func history1000(b *testing.B) []llms.MessageContent {
	b.Helper()
	files, err := filepath.Glob("../testdata/trajectories/*.jsonl")
	if err != nil || len(files) == 0 {
		b.Skip("no trajectories in ../testdata/trajectories")
	}
	var pool [][]llms.MessageContent
	for _, f := range files {
		msgs, err := trajectory.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		pool = append(pool, msgs)
	}
	out := append([]llms.MessageContent(nil), pool[0][:2]...) // system prompt and task
	for cycle := 0; len(out) < 1000; cycle++ {
		for _, msgs := range pool {
			for _, m := range msgs[2:] {
				if len(out) == 1000 {
					break
				}
				out = append(out, tagged(m, cycle))
			}
		}
	}
	if err := compact.CheckToolPairs(out[:len(out)-trailingRound(out)]); err != nil {
		b.Fatalf("history: %v", err)
	}
	return out[:len(out)-trailingRound(out)]
}

// trailingRound is the number of messages of an unfinished tool round at the end.
func trailingRound(msgs []llms.MessageContent) int {
	for k := 1; k <= len(msgs); k++ {
		if compact.CheckToolPairs(msgs[:len(msgs)-k+1]) == nil {
			return k - 1
		}
	}
	return 0
}

// tagged returns m with a per-cycle suffix on its text and call ids.
func tagged(m llms.MessageContent, cycle int) llms.MessageContent {
	out := llms.MessageContent{Role: m.Role, Parts: make([]llms.ContentPart, len(m.Parts))}
	for i, p := range m.Parts {
		switch p := p.(type) {
		case llms.TextContent:
			p.Text += fmt.Sprintf(" [%d]", cycle)
			out.Parts[i] = p
		case llms.ToolCall:
			p.ID = fmt.Sprintf("%s-%d", p.ID, cycle)
			out.Parts[i] = p
		case llms.ToolCallResponse:
			p.ToolCallID = fmt.Sprintf("%s-%d", p.ToolCallID, cycle)
			p.Content += fmt.Sprintf(" [%d]", cycle)
			out.Parts[i] = p
		default:
			out.Parts[i] = p
		}
	}
	return out
}

// BenchmarkFullTokenization counts the 1,000-message history with a fresh
// counter (no cache): the cost the wrapper's per-call overhead is compared to.
func BenchmarkFullTokenization(b *testing.B) {
	h := history1000(b)
	b.ReportAllocs()
	total := 0
	for b.Loop() {
		c, err := budget.NewCounter("gpt-4o")
		if err != nil {
			b.Fatal(err)
		}
		total = c.CountMessages(h)
	}
	b.ReportMetric(float64(total), "tokens")
	b.ReportMetric(float64(len(h)), "messages")
}

// BenchmarkWrap measures one call of an agent on the 1,000-message history.
// no-compaction: a window large enough that nothing is compacted; after the
// first call the wrapper's work is the engine's prefix memo (hash and cached
// count per message). compaction: an agent run that grows to 1,000 messages
// two by two in an 8,000-token window, so compactions happen along the way;
// allocs/op are per call.
func BenchmarkWrap(b *testing.B) {
	h := history1000(b)
	b.Run("no-compaction", func(b *testing.B) {
		c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(10_000_000))
		if err != nil {
			b.Fatal(err)
		}
		m := Wrap(noop{}, c)
		ctx := WithSession(context.Background(), "bench")
		if _, err := m.GenerateContent(ctx, h); err != nil { // warm: first call counts everything
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := m.GenerateContent(ctx, h); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(h)), "messages")
	})
	b.Run("compaction", func(b *testing.B) {
		c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(8_000))
		if err != nil {
			b.Fatal(err)
		}
		compactions, calls, runs := 0, 0, 0
		m := Wrap(noop{}, c, WithObserver(func(i CallInfo) { compactions += len(i.Compactions) }))
		// The prefixes an agent sends: whole tool rounds, growing.
		var ends []int
		for k := 3; k <= len(h); k++ {
			if compact.CheckToolPairs(h[:k]) == nil {
				ends = append(ends, k)
			}
		}
		ctx := WithSession(context.Background(), "run-0")
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if i == len(ends) {
				i, runs = 0, runs+1
				ctx = WithSession(context.Background(), fmt.Sprintf("run-%d", runs))
			}
			if _, err := m.GenerateContent(ctx, h[:ends[i]]); err != nil {
				b.Fatal(err)
			}
			i++
			calls++
		}
		b.ReportMetric(float64(compactions)/float64(calls), "compactions/call")
	})
}

// BenchmarkWrapOverhead interleaves one wrapped call without compaction and
// one full tokenization of the same 1,000-message history with a fresh
// counter, and reports the call's time as a percentage of the tokenization
// (overhead-%), a ratio that machine load affects much less than the two
// separate benchmarks.
func BenchmarkWrapOverhead(b *testing.B) {
	h := history1000(b)
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(10_000_000))
	if err != nil {
		b.Fatal(err)
	}
	m := Wrap(noop{}, c)
	ctx := WithSession(context.Background(), "bench")
	if _, err := m.GenerateContent(ctx, h); err != nil {
		b.Fatal(err)
	}
	var wrap, full time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := m.GenerateContent(ctx, h); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		fresh, err := budget.NewCounter("gpt-4o")
		if err != nil {
			b.Fatal(err)
		}
		fresh.CountMessages(h)
		t2 := time.Now()
		wrap += t1.Sub(t0)
		full += t2.Sub(t1)
	}
	b.ReportMetric(100*float64(wrap)/float64(full), "overhead-%")
	b.ReportMetric(float64(wrap.Microseconds())/float64(b.N), "wrap-µs/call")
	b.ReportMetric(float64(full.Microseconds())/float64(b.N), "tokenize-µs")
}

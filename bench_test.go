package compact

import (
	"context"
	"fmt"
	"testing"

	"github.com/agentcompact/compact/budget"
	"github.com/tmc/langchaingo/llms"
)

// longHistory builds a history of about n messages from the test
// trajectories, each message made unique so that no count is shared.
func longHistory(b testing.TB, n int) []llms.MessageContent {
	var src []llms.MessageContent
	for _, name := range []string{"mini-gemini3pro__django__django-10973", "mini-gemini3pro__django__django-16429", "sweagent__demo-marshmallow-1867-fc"} {
		msgs := loadTestTrajectory(b, name)
		src = append(src, msgs[1:]...) // one system prompt only
	}
	out := []llms.MessageContent{loadTestTrajectory(b, "mini-gemini3pro__django__django-10973")[0]}
	for copyN := 0; len(out) < n; copyN++ {
		for i, m := range src {
			if len(out) >= n && m.Role != llms.ChatMessageTypeTool {
				break
			}
			parts := make([]llms.ContentPart, len(m.Parts))
			for k, p := range m.Parts {
				switch p := p.(type) {
				case llms.TextContent:
					p.Text += fmt.Sprintf(" [%d.%d]", copyN, i)
					parts[k] = p
				case llms.ToolCall:
					p.ID = fmt.Sprintf("%s_%d", p.ID, copyN)
					parts[k] = p
				case llms.ToolCallResponse:
					p.ToolCallID = fmt.Sprintf("%s_%d", p.ToolCallID, copyN)
					p.Content += fmt.Sprintf(" [%d.%d]", copyN, i)
					parts[k] = p
				default:
					parts[k] = p
				}
			}
			out = append(out, llms.MessageContent{Role: m.Role, Parts: parts})
		}
	}
	return out
}

func historyBytes(msgs []llms.MessageContent) int64 {
	var n int64
	for _, m := range msgs {
		for _, p := range m.Parts {
			switch p := p.(type) {
			case llms.TextContent:
				n += int64(len(p.Text))
			case llms.ToolCall:
				n += int64(len(p.FunctionCall.Arguments))
			case llms.ToolCallResponse:
				n += int64(len(p.Content))
			}
		}
	}
	return n
}

// BenchmarkFullTokenization counts a 1,000-message history with a fresh
// counter (no cached counts): the reference cost of the Compact targets.
func BenchmarkFullTokenization(b *testing.B) {
	msgs := longHistory(b, 1_000)
	b.SetBytes(historyBytes(msgs))
	if _, err := budget.NewCounter("gpt-4o"); err != nil { // build the encoder once
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, _ := budget.NewCounter("gpt-4o")
		_ = c.CountMessages(msgs)
	}
}

// BenchmarkCompactUntriggered calls Compact on a 1,000-message session below
// the trigger ratio, after a first call: the per-call cost of an agent step.
func BenchmarkCompactUntriggered(b *testing.B) {
	msgs := longHistory(b, 1_000)
	c, err := New(WithContextWindow(10_000_000))
	if err != nil {
		b.Fatal(err)
	}
	s := NewSession("bench")
	ctx := context.Background()
	if _, err := c.Compact(ctx, s, msgs); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(msgs)), "msgs")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := c.Compact(ctx, s, msgs)
		if err != nil || res.Compacted {
			b.Fatal(err, res.Compacted)
		}
	}
}

// BenchmarkCompactTriggered runs one rule-based compaction of a history of
// about 200k tokens with a fresh compactor (cold counts), as the first call
// of a session that is over its 128k window.
func BenchmarkCompactTriggered(b *testing.B) {
	msgs := longHistory(b, 1_000)
	for c, _ := budget.NewCounter("gpt-4o"); c.CountMessages(msgs) < 200_000; {
		msgs = longHistory(b, len(msgs)+100)
	}
	b.SetBytes(historyBytes(msgs))
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		coldCompact(b, ctx, msgs)
	}
}

// coldCompact runs one compaction of msgs with a fresh gpt-4o compactor
// (cold counts) and fails b unless it compacted.
func coldCompact(b *testing.B, ctx context.Context, msgs []llms.MessageContent) {
	b.Helper()
	c, err := New(WithModel("gpt-4o"))
	if err != nil {
		b.Fatal(err)
	}
	res, err := c.Compact(ctx, NewSession("bench"), msgs)
	if err != nil || !res.Compacted {
		b.Fatal(err)
	}
}

package compact

import (
	"fmt"
	"testing"

	"github.com/tmc/langchaingo/llms"
)

// manyCalls is one assistant message with n tool calls, then their n
// results, then a user message (the repro of issue 24, item 7).
func manyCalls(n int) []llms.MessageContent {
	call := llms.MessageContent{Role: llms.ChatMessageTypeAI}
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "task")}
	var results []llms.MessageContent
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("c%d", i)
		call.Parts = append(call.Parts, llms.ToolCall{ID: id, Type: "function",
			FunctionCall: &llms.FunctionCall{Name: "read_file", Arguments: fmt.Sprintf(`{"path":"f%d.go"}`, i)}})
		results = append(results, llms.MessageContent{Role: llms.ChatMessageTypeTool,
			Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id, Name: "read_file", Content: "content"}}})
	}
	msgs = append(msgs, call)
	msgs = append(msgs, results...)
	return append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, "next"))
}

// BenchmarkRepairManyCalls repairs one message of 10^4 and one of 10^5
// tool calls with their results: linear, the second takes about ten times
// as long as the first (it took 12.5 s, quadratic, before).
func BenchmarkRepairManyCalls(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		msgs := manyCalls(n)
		b.Run(fmt.Sprintf("calls=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if out, rep := Repair(msgs); len(out) != len(msgs) || len(rep) != 0 {
					b.Fatalf("%d messages, repairs %v", len(out), rep[:min(3, len(rep))])
				}
			}
		})
	}
}

// TestRepairManyCallsAnswersEach checks the indexed matching on a large
// message with duplicated and unknown ids: every call answered once, in
// order, the rest orphans or synthetic results.
func TestRepairManyCallsAnswersEach(t *testing.T) {
	msgs := manyCalls(1000)
	// a duplicate answer to c5 and one to an unknown id, at the block's end
	msgs = append(msgs[:len(msgs)-1],
		llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{ToolCallID: "c5", Content: "again"},
			llms.ToolCallResponse{ToolCallID: "zz", Content: "who"}}},
		llms.TextParts(llms.ChatMessageTypeHuman, "next"))
	out, rep := Repair(msgs)
	if len(rep) != 2 {
		t.Fatalf("repairs %v, want two orphans", rep)
	}
	if err := CheckToolPairs(out); err != nil {
		t.Fatal(err)
	}
}

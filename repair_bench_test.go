package compact

import (
	"fmt"
	"strings"
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
// tool calls with their results, in the calls' order and reversed (the
// indexed path): linear, the second size takes about ten times as long as
// the first (10^5 calls took 12.5 s or more, quadratic, before).
func BenchmarkRepairManyCalls(b *testing.B) {
	for _, tc := range []struct {
		n        int
		reversed bool
	}{{10_000, false}, {100_000, false}, {10_000, true}, {100_000, true}} {
		msgs := manyCalls(tc.n)
		name := fmt.Sprintf("calls=%d", tc.n)
		if tc.reversed {
			res := msgs[2 : len(msgs)-1]
			for i, j := 0, len(res)-1; i < j; i, j = i+1, j-1 {
				res[i], res[j] = res[j], res[i]
			}
			name += "/reversed"
		}
		b.Run(name, func(b *testing.B) {
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

// TestRepairResultsOutOfOrder checks the indexed path of the matching:
// results in reverse order, and duplicated ids answered in order.
func TestRepairResultsOutOfOrder(t *testing.T) {
	msgs := manyCalls(500)
	res := msgs[2 : len(msgs)-1]
	for i, j := 0, len(res)-1; i < j; i, j = i+1, j-1 {
		res[i], res[j] = res[j], res[i]
	}
	if _, rep := Repair(msgs); len(rep) != 0 {
		t.Errorf("reversed results: repairs %v", rep[:min(3, len(rep))])
	}
	call := func(id string) llms.ContentPart {
		return llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: "f"}}
	}
	result := func(id, out string) llms.MessageContent {
		return llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id, Content: out}}}
	}
	dup := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "task"),
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{call("a"), call("b"), call("a")}},
		result("a", "1"), result("a", "2"), result("b", "3"), result("b", "4"),
		llms.TextParts(llms.ChatMessageTypeHuman, "next"),
	}
	out, rep := Repair(dup)
	if len(rep) != 1 || !strings.Contains(rep[0], `"b"`) {
		t.Errorf("duplicated ids: repairs %v, want the second b an orphan", rep)
	}
	if err := CheckToolPairs(out); err != nil {
		t.Error(err)
	}
}

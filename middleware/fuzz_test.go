package middleware

import (
	"context"
	"errors"
	"fmt"
	"github.com/agentcompact/compact/internal/msg"
	"slices"
	"strings"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/tmc/langchaingo/llms"
)

// fuzzMessages decodes data into a message list: system prompts, user and
// assistant text, tool calls with their results (sometimes orphaned or
// missing), and text-agent scratchpads. It also picks a window.
func fuzzMessages(data []byte) ([]llms.MessageContent, int) {
	pos := 0
	next := func() int {
		if pos >= len(data) {
			return 0
		}
		pos++
		return int(data[pos-1])
	}
	words := []string{"alpha", "func", "error", "path/to/file.go", "Observation:", "Action:", "Action Input:", "Thought:", "\n", "\n\n", "é", "{", "}", "[✓", "Summary", "🙂", "x"}
	textOf := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(words[next()%len(words)])
			b.WriteByte(' ')
		}
		return b.String()
	}
	window := []int{600, 1500, 4000, 20_000}[next()%4]
	var msgs []llms.MessageContent
	var open []string
	callN := 0
	for pos < len(data) && len(msgs) < 200 {
		size := next() * (1 + next()%8)
		switch op := next() % 9; op {
		case 0:
			msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeSystem, textOf(size%50)))
		case 1, 2:
			msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, textOf(size)))
		case 3:
			msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeAI, textOf(size%100)))
		case 4, 5: // a tool call round, results for some calls
			n := 1 + next()%3
			var parts []llms.ContentPart
			open = open[:0]
			for i := 0; i < n; i++ {
				callN++
				id := fmt.Sprintf("c%d", callN)
				open = append(open, id)
				parts = append(parts, llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{
					Name: []string{"read_file", "grep", "bash", "unknown"}[next()%4], Arguments: `{"path":"a.go"}`}})
			}
			msgs = append(msgs, llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: parts})
			for _, id := range open {
				if next()%7 != 0 {
					msgs = append(msgs, llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
						llms.ToolCallResponse{ToolCallID: id, Name: "read_file", Content: textOf(size)}}})
				}
			}
		case 6: // an orphan result
			msgs = append(msgs, llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: fmt.Sprintf("orphan%d", next()), Content: textOf(size % 30)}}})
		case 7: // a text agent's prompt as the last message
			var b strings.Builder
			b.WriteString("Answer.\n\nQuestion: " + textOf(5) + "\n")
			for s := 0; s < 1+next()%12; s++ {
				fmt.Fprintf(&b, "\nThought: %s\nAction: %s\nAction Input: %s\nObservation: %s\n", textOf(3),
					[]string{"read_file", "grep", "search"}[next()%3], textOf(1), textOf(size))
			}
			msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, b.String()))
			return msgs, window
		case 8:
			msgs = append(msgs, llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{
				llms.ImageURLContent{URL: "https://example.com/i.png"}, llms.TextPart(textOf(size % 20)), nil}})
		}
	}
	return msgs, window
}

// FuzzGenerateContent sends random message lists through Wrap and checks
// the invariants on what the wrapped model receives: no panic, the input
// untouched, the budget (I1), tool pairs (I2), the system prompt first and
// verbatim (I3), prefix stability between compactions (I7), and no error
// but ErrBudgetTooSmall.
func FuzzGenerateContent(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte("\x01\x00\x00\x10\x20\x01\x50\x04\x04\x05\x03\x02\x40\x05\x05\x01\xff\x04\x02\x02"))
	f.Add([]byte(strings.Repeat("\x03\x90\x04\x04\x01\x02\x03", 30)))
	f.Add([]byte("\x00\x10\x00\x07\x05\x05\x05\x05\x05\x05\x05\x05\x07\x07"))
	f.Add([]byte(strings.Repeat("\x02\xf0\x05\x07\x09", 20)))
	f.Fuzz(fuzzGenerateContent)
}

// fuzzGenerateContent is the body of FuzzGenerateContent.
func fuzzGenerateContent(t *testing.T, data []byte) {
	msgs, window := fuzzMessages(data)
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(window))
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	var infos []CallInfo
	m := Wrap(rec, c, WithObserver(func(i CallInfo) { infos = append(infos, i) }))
	before := deepCopy(msgs)
	ctx := WithSession(context.Background(), "fuzz")
	_, err = m.GenerateContent(ctx, msgs)
	if !equalMessages(before, msgs) {
		t.Fatal("input mutated")
	}
	if err != nil {
		if !errors.Is(err, compact.ErrBudgetTooSmall) && !(len(msgs) == 0 && errors.Is(err, compact.ErrInvalidInput)) {
			t.Fatalf("unexpected error: %v", err)
		}
		if len(rec.received()) != 0 {
			t.Fatal("sent despite the error")
		}
		return
	}
	sent := rec.received()[0]
	info := infos[0]
	checkInvariants(t, c, info, msgs, sent)

	// A second call with one more user message: prefix-stable unless it compacts.
	more := append(deepCopy(msgs), llms.TextParts(llms.ChatMessageTypeHuman, "and then?"))
	if _, err = m.GenerateContent(ctx, more); err != nil {
		if !errors.Is(err, compact.ErrBudgetTooSmall) {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	sent2 := rec.received()[1]
	info2 := infos[1]
	checkInvariants(t, c, info2, more, sent2)
	if len(info2.Compactions) == 0 && !info.TextAgent && compact.CheckToolPairs(msgs) == nil && leadingSystemOnly(msgs) {
		if len(sent2) != len(sent)+1 || !equalMessages(sent, sent2[:len(sent)]) {
			t.Fatalf("I7: second output is not the first plus the new message (%d then %d messages)", len(sent), len(sent2))
		}
	}
}

func checkInvariants(t *testing.T, c *compact.Compactor, info CallInfo, built, sent []llms.MessageContent) {
	t.Helper()
	if n := c.CountTokens(sent); n > info.Budget {
		t.Fatalf("I1: sent %d tokens, budget %d (text agent %v)", n, info.Budget, info.TextAgent)
	}
	if err := compact.CheckToolPairs(sent); err != nil {
		t.Fatalf("I2: %v", err)
	}
	for i := 0; i < len(built) && built[i].Role == llms.ChatMessageTypeSystem; i++ {
		if i >= len(sent) || !equalMessages(built[i:i+1], sent[i:i+1]) {
			t.Fatalf("I3: system message %d changed", i)
		}
	}
	if info.TextAgent && sent[len(sent)-1].Role != llms.ChatMessageTypeHuman {
		t.Fatal("a text agent's prompt must stay one user message")
	}
}

// leadingSystemOnly reports whether system messages appear only at the start.
func leadingSystemOnly(msgs []llms.MessageContent) bool {
	lead := true
	for _, m := range msgs {
		if m.Role != llms.ChatMessageTypeSystem {
			lead = false
		} else if !lead {
			return false
		}
	}
	return true
}

func equalMessages(a, b []llms.MessageContent) bool {
	// By content: a cut's re-encoded tool call arguments are a new
	// *FunctionCall with the same value on every call.
	return slices.EqualFunc(a, b, msg.Equal)
}

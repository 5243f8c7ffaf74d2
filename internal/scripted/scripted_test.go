package scripted

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/prompts"
	"github.com/agentcompact/compact/summary"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

func testCounter(t testing.TB) *budget.TokenCounter {
	t.Helper()
	c, err := budget.NewCounter("gpt-4o")
	require.NoError(t, err, "the embedded o200k_base encoding")
	return c
}

// conversation is a small agent run without its system prompt: the task,
// then three tool rounds (a read, a failed test run, an open).
func conversation() []llms.MessageContent {
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "Fix the bug in the parser. You must not modify the tests.\nThanks")}
	rounds := []struct{ tool, args, output string }{
		{"bash", `{"command": "cat src/parser.py"}`, "<returncode>0</returncode>\n<output>\ndef parse():\n    raise ValueError('x')\n</output>"},
		{"bash", `{"command": "python3 -m pytest tests/test_parser.py"}`,
			"<returncode>1</returncode>\n<output>\nTraceback (most recent call last):\n  File \"a.py\", line 1\nparser.errors.ParseError: bad token\n</output>"},
		{"open", `{"command": "open lib/x.py", "path": "lib/x.py"}`, "[File: lib/x.py]"},
	}
	for i, r := range rounds {
		id := fmt.Sprintf("c%d", i+1)
		msgs = append(msgs,
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
				llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: r.tool, Arguments: r.args}}}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: id, Name: r.tool, Content: r.output}}})
	}
	return msgs
}

func TestModelReply(t *testing.T) {
	c := testCounter(t)
	m := Model{Counter: c}
	_, err := m.GenerateContent(context.Background(), nil)
	assert.ErrorContains(t, err, "no request in the context")

	msgs := conversation()
	req := &summary.Request{Messages: msgs, MaxTokens: 100}
	ctx := WithRequest(context.Background(), req)
	// The transcript shows messages 5 to 7 only: the first four were trimmed.
	prompt := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman,
		"<transcript>\n<message index=5 role=tool>\n</message>\n<message index=6 role=assistant>\n</message>\n</transcript>")}
	resp, err := m.GenerateContent(ctx, prompt, llms.WithMaxTokens(157))
	require.NoError(t, err)
	reply := resp.Choices[0].Content
	assert.LessOrEqual(t, c.Count(reply), 157)
	sum, err := prompts.ParseSummary(reply)
	require.NoError(t, err)
	assert.NotContains(t, reply, "src/parser.py", "a message the transcript does not show")
	assert.NotContains(t, sum.Context.Participants, "user", "the user message was trimmed")

	_, err = m.GenerateContent(ctx, prompt, llms.WithMaxTokens(5))
	assert.ErrorContains(t, err, "no reply fits")

	ctx = WithRequest(context.Background(), &summary.Request{Messages: msgs, MaxTokens: 400})
	out, err := m.Call(ctx, "<message index=1 role=user>", llms.WithMaxTokens(532))
	require.NoError(t, err)
	assert.Contains(t, out, "src/parser.py")
}

func TestModelCounter(t *testing.T) {
	msgs := conversation()
	prompt := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "<message index=1 role=user>")}
	_, err := Model{}.GenerateContent(WithRequest(context.Background(), &summary.Request{Messages: msgs, MaxTokens: 400}), prompt)
	assert.ErrorContains(t, err, "no token counter")

	c := testCounter(t)
	req := &summary.Request{Messages: msgs, MaxTokens: 400, Count: c.Count}
	resp, err := Model{}.GenerateContent(WithRequest(context.Background(), req), prompt)
	require.NoError(t, err, "the request's Count stands in")
	assert.Contains(t, resp.Choices[0].Content, "src/parser.py")
}

func TestNewSummarizer(t *testing.T) {
	c := testCounter(t)
	s := NewSummarizer(Model{Counter: c})
	msgs := conversation()
	var calls []summary.Call
	req := summary.Request{Messages: msgs, Depth: 1, MaxTokens: 200, MaxInputTokens: 8000, Count: c.Count,
		OnCall: func(_ context.Context, call summary.Call) { calls = append(calls, call) }}
	rec, err := s.Summarize(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, summary.ModeLLM, rec.Mode)
	assert.LessOrEqual(t, c.Count(rec.Summary), 200)
	for _, want := range []string{"src/parser.py", "ParseError"} {
		assert.Contains(t, rec.Summary+strings.Join(rec.Context.DomainEntities, " "), want)
	}
	require.Len(t, calls, 1)
	assert.NoError(t, calls[0].Err)
}

// TestModelNamesPastTheList: the entities the context list has no room
// for (past prompts.MaxItems) are written in the narrative.
func TestModelNamesPastTheList(t *testing.T) {
	c := testCounter(t)
	var text strings.Builder
	for i := 0; i < 2*prompts.MaxItems; i++ {
		fmt.Fprintf(&text, "I will check helper_%03d. ", i)
	}
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Fix the bug."),
		llms.TextParts(llms.ChatMessageTypeAI, text.String()),
	}
	req := &summary.Request{Messages: msgs, MaxTokens: 2_000, Count: c.Count}
	prompt := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "<message index=1 role=user>")}
	resp, err := Model{Counter: c}.GenerateContent(WithRequest(context.Background(), req), prompt)
	require.NoError(t, err)
	sum, err := prompts.ParseSummary(resp.Choices[0].Content)
	require.NoError(t, err)
	assert.Len(t, sum.Context.DomainEntities, prompts.MaxItems, "the list is full")
	assert.Contains(t, sum.Summary, "helper_000", "the oldest name, past the list, in the narrative")
	assert.NotContains(t, sum.Context.DomainEntities, "helper_000")
}

func TestWithoutCarriedLists(t *testing.T) {
	text := "Fixed the parser.\nCommands: go test (exit 1)\nDecisions:\n- keep the API\n- no new deps\nUnresolved:\n- why slow?\nEntities: Parse, lexer_state"
	all := summary.Context{Decisions: []string{"keep the API"}, Unresolved: []string{"why slow?"}, DomainEntities: []string{"Parse"}}
	assert.Equal(t, "Fixed the parser.\nCommands: go test (exit 1)", withoutCarriedLists(text, all), "the lists the context carries go")
	assert.Equal(t, "Fixed the parser.\nCommands: go test (exit 1)\nUnresolved:\n- why slow?\nEntities: Parse, lexer_state",
		withoutCarriedLists(text, summary.Context{Decisions: []string{"keep the API"}}), "a list the context does not carry stays")
	assert.Equal(t, "Entities: only a narrative line", withoutCarriedLists("Entities: only a narrative line", all), "the first line is narrative")
}

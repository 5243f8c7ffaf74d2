package extractors

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// agentRun builds a small agent conversation the way langchaingo holds it:
// tool results carry no tool name, only the call id.
func agentRun() []llms.MessageContent {
	call := func(id, name, args string) llms.MessageContent {
		return llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
			llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: name, Arguments: args}},
		}}
	}
	result := func(id, out string) llms.MessageContent {
		return llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id, Content: out}}}
	}
	return []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Fix the parser. Remember to keep the public API stable. We will use Go 1.22 only. Why does Parse fail on empty input?"),
		call("c1", "read_file", `{"path": "parser/parse.go"}`),
		result("c1", "package parser\n\nfunc Parse(s string) error { return nil }\n"),
		call("c2", "BASH", `{"command": "go test ./parser/"}`),
		result("c2", "--- FAIL: TestParseEmpty (0.00s)\nFAIL\nFAIL\texample.com/parser\t0.01s\nexit status 1\n"),
		call("c3", "write_file", `{"path": "parser/parse.go", "content": "package parser\n"}`),
		result("c3", "ok"),
		call("c4", "bash", `{"command": "python3 check.py"}`),
		result("c4", "<returncode>1</returncode>\n<output>\nTraceback (most recent call last):\n  File \"check.py\", line 3, in <module>\nValueError: empty input\n</output>"),
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.TextContent{Text: "Done."}}},
	}
}

func TestDigest(t *testing.T) {
	msgs := agentRun()
	orig := append([]llms.MessageContent(nil), msgs...)
	d := Default().Digest(msgs, Digest{})
	assert.Equal(t, orig, msgs, "msgs not modified")
	assert.Equal(t, 10, d.Messages)
	assert.Equal(t, 4, d.ToolCalls)
	assert.Equal(t, []string{"parser/parse.go"}, d.FilesRead)
	assert.Equal(t, []string{"parser/parse.go"}, d.FilesModified)
	require.Len(t, d.Commands, 2)
	assert.Equal(t, "python3 check.py (exit 1)", d.Commands[0], "most recent first")
	assert.Equal(t, "go test ./parser/ (exit 1)", d.Commands[1], "the tool name is resolved from the call id, whatever its case")
	assert.Equal(t, []string{"ValueError at check.py:3: empty input", "Failed tests: TestParseEmpty, example.com/parser"}, d.Errors)
	assert.Equal(t, []string{"We will use Go 1.22 only.", "Remember to keep the public API stable."}, d.Instructions)
	assert.Equal(t, []string{"Why does Parse fail on empty input?"}, d.Questions)
	assert.Contains(t, d.Entities, "ValueError")
	assert.Contains(t, d.Entities, "parser/parse.go")
	assert.Contains(t, d.Entities, "Parse")
}

func TestDigestCarriesForward(t *testing.T) {
	prev := Digest{Messages: 5, ToolCalls: 2, FilesRead: []string{"old.go", "parser/parse.go"}, Instructions: []string{"Never touch vendor/."},
		Entities: []string{"OldThing"}, Errors: []string{"KeyError at a.py:1"}, Previous: "Earlier we set up the repo."}
	d := Default().Digest(agentRun(), prev)
	assert.Equal(t, 15, d.Messages)
	assert.Equal(t, 6, d.ToolCalls)
	assert.Equal(t, []string{"parser/parse.go", "old.go"}, d.FilesRead, "new first, deduplicated")
	assert.Equal(t, "Never touch vendor/.", d.Instructions[len(d.Instructions)-1])
	assert.Contains(t, d.Entities, "OldThing")
	assert.Equal(t, "KeyError at a.py:1", d.Errors[len(d.Errors)-1])
	assert.Equal(t, "Earlier we set up the repo.", d.Previous)
	assert.Equal(t, []string{"old.go", "parser/parse.go"}, prev.FilesRead, "prev not modified")
}

func TestDigestUnansweredCallAndRedaction(t *testing.T) {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Use the key AKIAIOSFODNN7EXAMPLE, don't print it."),
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{&llms.ToolCall{ID: "x", FunctionCall: &llms.FunctionCall{Name: "bash", Arguments: `{"command": "curl https://u:hunter22@h/x"}`}}}},
	}
	d := Default().Digest(msgs, Digest{})
	assert.Equal(t, []string{"curl https://u:[REDACTED:password]@h/x (no result)"}, d.Commands)
	out := d.Render(300, nil)
	assert.NotContains(t, out, "AKIAIOSFODNN7EXAMPLE")
	assert.NotContains(t, out, "hunter22")
	assert.Contains(t, out, "[REDACTED:aws-key]")
}

func TestCallsByID(t *testing.T) {
	calls := CallsByID(agentRun())
	assert.Len(t, calls, 4)
	assert.Equal(t, Call{ID: "c2", Name: "BASH", Arguments: `{"command": "go test ./parser/"}`}, calls["c2"])
	c := ResolveCall(llms.ToolCallResponse{ToolCallID: "c1"}, calls)
	assert.Equal(t, "read_file", c.Name)
	c = ResolveCall(llms.ToolCallResponse{ToolCallID: "zz", Name: "own"}, calls)
	assert.Equal(t, Call{ID: "zz", Name: "own"}, c)
}

func TestRender(t *testing.T) {
	d := Digest{Messages: 40, ToolCalls: 18,
		Instructions:  []string{"Remember to keep the API stable."},
		Errors:        []string{"ValueError at foo.py:12: bad"},
		Commands:      []string{"pytest tests/test_x.py (exit 1)", "ls (ok)"},
		FilesModified: []string{"a.go", "b.go"},
		FilesRead:     []string{"c.go", "d.go", "e.go"},
		Questions:     []string{"Why does it fail?"},
		Entities:      []string{"ValueError", "a.go"},
		Previous:      "We started by reading the parser and found the empty-input bug in Parse.",
	}
	full := d.Render(1000, nil)
	assert.Equal(t, "Summary of 40 earlier messages (18 tool calls).\n"+
		"Previous summary: We started by reading the parser and found the empty-input bug in Parse.\n"+
		"Instructions: Remember to keep the API stable.\n"+
		"Errors: ValueError at foo.py:12: bad\n"+
		"Open questions: Why does it fail?\n"+
		"Files modified: a.go, b.go\n"+
		"Commands: pytest tests/test_x.py (exit 1); ls (ok)\n"+
		"Files read: c.go, d.go, e.go\n"+
		"Entities: ValueError, a.go", full)
	// Under a tight budget the low-priority categories go first.
	tight := d.Render(55, nil)
	assert.LessOrEqual(t, estimateTokens(tight), 55)
	assert.Contains(t, tight, "Instructions: Remember")
	assert.Contains(t, tight, "ValueError at foo.py:12")
	assert.NotContains(t, tight, "Entities")
	assert.NotContains(t, tight, "Files read")
	assert.Empty(t, d.Render(3, nil), "not even the header fits")
	assert.Empty(t, d.Render(0, nil))
	// Never over budget, whatever the counter.
	words := func(s string) int { return len(strings.Fields(s)) }
	for budget := 1; budget < 120; budget += 7 {
		out := d.Render(budget, words)
		assert.LessOrEqual(t, words(out), budget)
	}
}

func TestRenderLongPrevious(t *testing.T) {
	d := Digest{Messages: 3, Previous: strings.Repeat("word ", 2000)}
	out := d.Render(100, nil)
	assert.LessOrEqual(t, estimateTokens(out), 100)
	assert.Contains(t, out, "Previous summary: word word")
	assert.Contains(t, out, "…")
}

func TestKeyPoints(t *testing.T) {
	d := Digest{FilesModified: []string{"a.go", "b.go"}, Errors: []string{"ValueError at foo.py:12"}, Entities: []string{"x"}}
	assert.Equal(t, []string{"Errors: ValueError at foo.py:12", "Files modified: a.go, b.go"}, d.KeyPoints())
	many := Digest{FilesRead: strings.Split("a b c d e f g h i j k l m n", " ")}
	assert.Equal(t, []string{"Files read: a, b, c, d, e, f, g, h, i, j, k, l, +2 more"}, many.KeyPoints())
	assert.Empty(t, Digest{}.KeyPoints())
}

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

func call(id, name, args string) llms.MessageContent {
	return llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
		llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: name, Arguments: args}}}}
}

func result(id, name, content string) llms.MessageContent {
	return llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
		llms.ToolCallResponse{ToolCallID: id, Name: name, Content: content}}}
}

// conversation is a small agent run with one fact of each kind.
func conversation() []llms.MessageContent {
	return []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are an agent."),
		llms.TextParts(llms.ChatMessageTypeHuman, "Fix the bug in the parser. You must not modify the tests.\nThanks"),
		call("c1", "bash", `{"command": "cat src/parser.py"}`),
		result("c1", "bash", "<returncode>0</returncode>\n<output>\ndef parse():\n    raise ValueError('x')\n</output>"),
		call("c2", "bash", `{"command": "python3 -m pytest tests/test_parser.py"}`),
		result("c2", "bash", "<returncode>1</returncode>\n<output>\nTraceback (most recent call last):\n  File \"a.py\", line 1\nparser.errors.ParseError: bad token\n</output>"),
		call("c3", "open", `{"command": "open lib/x.py", "path": "lib/x.py", "open_file": "--weird"}`),
		result("c3", "open", "[File: lib/x.py]"),
	}
}

func TestExtractFacts(t *testing.T) {
	got := extractFacts(conversation())
	want := []fact{
		{kind: factInstructions, key: "You must not modify the tests."},
		{kind: factPaths, key: "src/parser.py"},
		{kind: factPaths, key: "tests/test_parser.py"},
		{kind: factExits, key: "c2", code: "1", cmd: "python3 -m pytest tests/test_parser.py"},
		{kind: factExceptions, key: "ParseError"},
		{kind: factPaths, key: "lib/x.py"},
	}
	assert.Equal(t, want, got)
}

func TestExceptionNames(t *testing.T) {
	tests := []struct {
		name   string
		out    string
		failed bool
		want   []string
	}{
		{"traceback", "Traceback (most recent call last):\n  x\nKeyError: 'a'\n", false, []string{"KeyError"}},
		{"bare name", "Traceback (most recent call last):\nStopError\n", false, []string{"StopError"}},
		{"source read", "class A:\n    raise ValueError\nValueError: in a docstring\n", false, nil},
		{"failed command", "<output>\nCommandError: no such app\n", true, []string{"CommandError"}},
		{"pytest E", "E   AssertionError: 1 != 2\n", false, []string{"AssertionError"}},
		{"pytest summary", "FAILED tests/a.py::test_x - django.core.exceptions.ValidationError: x\n", false, []string{"ValidationError"}},
		{"plain Error", "Traceback (most recent call last):\nError: x\n", false, nil},
		{"indented", "Traceback (most recent call last):\n    TypeError: x\n", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, exceptionNames(tt.out, tt.failed))
		})
	}
}

func TestInstructions(t *testing.T) {
	got := instructions("Please fix it right now. short must.\nYou should keep the API stable!  Another sentence here without keyword.\n" +
		"- Always use non-interactive flags for every single command you run in this shell, and never anything else")
	assert.Equal(t, []string{
		"Please fix it right now.",
		"You should keep the API stable!",
		"- Always use non-interactive flags for every single command ",
	}, got)
}

func TestVisible(t *testing.T) {
	exit := fact{kind: factExits, key: "c2", code: "1", cmd: "python3 -m pytest tests/test_parser.py"}
	tests := []struct {
		name string
		f    fact
		sent []llms.MessageContent
		want bool
	}{
		{"path in args", fact{kind: factPaths, key: "src/parser.py"}, []llms.MessageContent{call("c1", "bash", `{"command": "cat src/parser.py"}`)}, true},
		{"path absent", fact{kind: factPaths, key: "src/parser.py"}, []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "src/parser.go")}, false},
		{"instruction across lines", fact{kind: factInstructions, key: "You must not modify the tests."},
			[]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "You must not\n   modify the tests.")}, true},
		{"exit in output", exit, []llms.MessageContent{result("c2", "bash", "<returncode>1</returncode>")}, true},
		{"exit in masked output", exit, []llms.MessageContent{result("c2", "bash", "[❌ bash: pytest | exit 1]")}, true},
		{"exit masked away", exit, []llms.MessageContent{result("c2", "bash", "Old environment output: (3 lines omitted)"),
			llms.TextParts(llms.ChatMessageTypeHuman, "python3 -m pytest tests/test_parser.py (exit 1)")}, false},
		{"exit in summary", exit, []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman,
			"Commands: ls (ok); python3 -m pytest tests/test_parser.py -x (exit 1); cat a")}, true},
		{"exit other status first", exit, []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman,
			"Commands: python3 -m pytest tests/test_parser.py (exit 2); b (exit 1)")}, false},
		{"exit on next line", exit, []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman,
			"python3 -m pytest tests/test_parser.py\nexit 1")}, false},
		{"exit without command", fact{kind: factExits, key: "c9", code: "1"}, []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "exit 1")}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, newSentView(tt.sent).visible(tt.f))
		})
	}
}

func TestMeasureRetention(t *testing.T) {
	orig := conversation()
	all := measureRetention(orig, orig)
	assert.Equal(t, all.present, all.visible, "everything sent: everything visible")
	assert.Equal(t, [numFactKinds]int{3, 1, 1, 1, 0}, all.present)

	// Only the system prompt and the last round: the first call's path, the
	// instruction, the exception and the exit status are gone.
	tail := append([]llms.MessageContent{orig[0]}, orig[6:]...)
	r := measureRetention(orig, tail)
	assert.Equal(t, [numFactKinds]int{1, 0, 0, 0, 0}, r.visible)
	require.Equal(t, all.present, r.present)
}

func TestJSONIdentifiers(t *testing.T) {
	out := `{"reservation_id": "QX4Z2K", "user_id": "mia_li_3668", "flights": [{"flight_number": "HAT136", "price": 152}],
		"payment_history": [{"payment_id": "credit_card_4421486", "amount": 305}], "orderId": 123456, "reservation_ids": ["AB1", "CD2"],
		"status": "active", "id": 7, "note_id": "has space", "Identity": "NOTANID"}`
	assert.Equal(t, []string{"HAT136", "123456", "credit_card_4421486", "QX4Z2K", "AB1", "CD2", "mia_li_3668"}, jsonIdentifiers(out))
	assert.Nil(t, jsonIdentifiers("Error: not enough seats on flight HAT229"), "text is not JSON")
	assert.Nil(t, jsonIdentifiers(`{"id": "abc"`), "invalid JSON")
	assert.Equal(t, []string{"r1a", "r2b"}, jsonIdentifiers(`[{"id": "r1a"}, {"id": "r2b"}]`))

	conv := []llms.MessageContent{
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: "c1", FunctionCall: &llms.FunctionCall{Name: "get_reservation_details", Arguments: `{}`}}}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "c1", Content: `{"reservation_id": "QX4Z2K", "user_id": "mia_li_3668"}`}}},
	}
	r := measureRetention(conv, []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "[get_reservation_details: reservation QX4Z2K]")})
	assert.Equal(t, 2, r.present[factIdentifiers])
	assert.Equal(t, 1, r.visible[factIdentifiers])
}

package msg

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tmc/langchaingo/llms"
)

// TestHashStable pins the hash of fixed messages: persisted state (session
// JSON, SQLite files) holds ids derived from it, so it must never change.
func TestHashStable(t *testing.T) {
	for _, tc := range []struct {
		m    llms.MessageContent
		want string
	}{
		{llms.TextParts(llms.ChatMessageTypeHuman, "hello"), "304d68fa2a8268e0"},
		{llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{ToolCallID: "c1", Name: "bash", Content: "ok"}}}, "3bdede8cd5562f1f"},
	} {
		got := Hash(tc.m)
		assert.Equal(t, tc.want, got)
	}
}

func TestEqual(t *testing.T) {
	call := llms.ToolCall{ID: "1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "f", Arguments: "{}"}}
	a := llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.TextPart("x"), call}}
	b := Clone(a)
	assert.True(t, Equal(a, b))
	fc := *call.FunctionCall
	fc.Arguments = `{"a":1}`
	call2 := call
	call2.FunctionCall = &fc
	b.Parts[1] = call2
	assert.False(t, Equal(a, b))
	assert.True(t, HasToolCall(a))
	assert.False(t, HasToolCall(llms.TextParts(llms.ChatMessageTypeAI, "x")))
}

func TestEqualTable(t *testing.T) {
	a := callMsg("c1", "bash", `{"command": "ls"}`)
	tests := []struct {
		name string
		x, y llms.MessageContent
		want bool
	}{
		{"same", a, callMsg("c1", "bash", `{"command": "ls"}`), true},
		{"other args", a, callMsg("c1", "bash", `{"command": "ls -l"}`), false},
		{"other role", llms.TextParts(llms.ChatMessageTypeHuman, "x"), llms.TextParts(llms.ChatMessageTypeAI, "x"), false},
		{"text", llms.TextParts(llms.ChatMessageTypeHuman, "x"), llms.TextParts(llms.ChatMessageTypeHuman, "x"), true},
		{"result", resultMsg("c1", "bash", "out"), resultMsg("c1", "bash", "out2"), false},
		{"part count", llms.TextParts(llms.ChatMessageTypeHuman, "x", "y"), llms.TextParts(llms.ChatMessageTypeHuman, "x"), false},
		{"nil call", llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: "a"}}}, a, false},
		{"image", llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.ImageURLContent{URL: "u"}}},
			llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.ImageURLContent{URL: "u"}}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Equal(tt.x, tt.y))
		})
	}
}

func callMsg(id, name, args string) llms.MessageContent {
	return llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
		llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: name, Arguments: args}}}}
}

func resultMsg(id, name, out string) llms.MessageContent {
	return llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
		llms.ToolCallResponse{ToolCallID: id, Name: name, Content: out}}}
}

// BenchmarkHash: hashing builds its encoding in a cached buffer; the one
// allocation per call is the returned string (1 alloc/op). An assertion on
// AllocsPerRun was flaky under -race, whose sync.Pool drops a share of Puts.
func BenchmarkHash(b *testing.B) {
	m := llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
		llms.ToolCallResponse{ToolCallID: "c1", Name: "bash", Content: strings.Repeat("output line\n", 500)}}}
	b.ReportAllocs()
	for b.Loop() {
		Hash(m)
	}
}

func TestHeadBytes(t *testing.T) {
	assert.Equal(t, "ab", HeadBytes("abc", 2))
	assert.Equal(t, "a", HeadBytes("aé", 2), "never splits a rune")
	assert.Equal(t, "abc", HeadBytes("abc", 10))
	assert.Equal(t, "", HeadBytes("abc", 0))
	assert.Equal(t, "", HeadBytes("abc", -1))
	assert.Equal(t, "", HeadBytes("é", 1))
}

func TestTextFault(t *testing.T) {
	assert.Equal(t, "", TextFault("plain text, été"))
	assert.Equal(t, "invalid UTF-8", TextFault("a\xffb"))
	assert.Equal(t, "a NUL byte", TextFault("a\x00b"))
	assert.Equal(t, "invalid UTF-8", TextFault("\xff\x00"), "invalid UTF-8 is named first")
}

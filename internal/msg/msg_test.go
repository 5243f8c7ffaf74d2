package msg

import (
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

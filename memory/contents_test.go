package memory

import (
	"testing"

	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/memory/internal/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestContentConversion: Contents gives the engine's form of a history
// (nil messages skipped, a tool result named by its call), and
// chat.FromContent converts it back.
func TestContentConversion(t *testing.T) {
	msgs := []llms.ChatMessage{
		llms.HumanChatMessage{Content: "find x"},
		llms.AIChatMessage{ToolCalls: []llms.ToolCall{{ID: "c1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "grep", Arguments: "{}"}}}},
		llms.ToolChatMessage{ID: "c1", Content: "x.go:1"},
		llms.AIChatMessage{Content: "old", FunctionCall: &llms.FunctionCall{Name: "f", Arguments: "{}"}},
		llms.GenericChatMessage{Role: "critic", Content: "hm"},
	}
	got := Contents(append(msgs, nil))
	require.Len(t, got, 5, "nil messages are skipped")
	assert.Equal(t, llms.TextParts(llms.ChatMessageTypeHuman, "find x"), got[0])
	assert.Equal(t, []llms.ContentPart{msgs[1].(llms.AIChatMessage).ToolCalls[0]}, got[1].Parts, "no empty text part next to tool calls")
	assert.Equal(t, llms.ToolCallResponse{ToolCallID: "c1", Name: "grep", Content: "x.go:1"}, got[2].Parts[0], "the tool's name comes from its call")
	assert.Equal(t, llms.TextParts(llms.ChatMessageTypeAI, `old {"name":"f","arguments":"{}"}`), got[3])
	assert.Equal(t, llms.ChatMessageTypeGeneric, got[4].Role)

	// Back from the engine's form.
	assert.Equal(t, []llms.ChatMessage{llms.ToolChatMessage{ID: "a", Content: "1"}, llms.ToolChatMessage{ID: "b", Content: "2"}},
		chat.FromContent(llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{ToolCallID: "a", Content: "1"}, llms.ToolCallResponse{ToolCallID: "b", Content: "2"}}}))
	assert.Equal(t, []llms.ChatMessage{msgs[1]}, chat.FromContent(got[1]))
	assert.Equal(t, []llms.ChatMessage{llms.HumanChatMessage{Content: "a\nb"}},
		chat.FromContent(llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.TextPart("a"), llms.TextPart("b")}}))
	assert.True(t, msg.Equal(got[2], Contents(msgs)[2]))
	assert.False(t, msg.Equal(got[0], got[3]))
}

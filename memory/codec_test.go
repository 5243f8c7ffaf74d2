package memory

import (
	"testing"

	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestSameMessageAfterRoundTrip checks that sameMessage sees a message and
// its store.MarshalMessage round trip (as a persisted history returns it)
// as the same.
func TestSameMessageAfterRoundTrip(t *testing.T) {
	ai := llms.AIChatMessage{Content: "let me check", ReasoningContent: "thinking",
		ToolCalls: []llms.ToolCall{{ID: "call_1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "grep", Arguments: `{"q":"x"}`}}}}
	for _, m := range []llms.ChatMessage{ai, &ai, llms.ToolChatMessage{ID: "call_1", Content: "found"},
		llms.GenericChatMessage{Role: "critic", Name: "c", Content: "meh"}, store.OtherMessage{Type: "custom", Content: "note"}} {
		b, err := store.MarshalMessage(m)
		require.NoError(t, err)
		got, err := store.UnmarshalMessage(b)
		require.NoError(t, err)
		assert.True(t, sameMessage(m, got), "%T", m)
	}
}

func TestSameMessage(t *testing.T) {
	a := llms.AIChatMessage{Content: "x", ToolCalls: []llms.ToolCall{{ID: "1", FunctionCall: &llms.FunctionCall{Name: "f", Arguments: "{}"}}}}
	b := a
	b.ToolCalls = []llms.ToolCall{{ID: "1", FunctionCall: &llms.FunctionCall{Name: "f", Arguments: `{"a":1}`}}}
	assert.True(t, sameMessage(a, a))
	assert.False(t, sameMessage(a, b))
	assert.False(t, sameMessage(a, llms.AIChatMessage{Content: "x"}))
	assert.False(t, sameMessage(llms.HumanChatMessage{Content: "x"}, llms.AIChatMessage{Content: "x"}))
	assert.False(t, sameMessage(llms.ToolChatMessage{ID: "1"}, llms.ToolChatMessage{ID: "2"}))
	assert.True(t, sameMessage(nil, (*llms.AIChatMessage)(nil)))
	assert.False(t, sameMessage(nil, a))
}

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
		fromContent(llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{ToolCallID: "a", Content: "1"}, llms.ToolCallResponse{ToolCallID: "b", Content: "2"}}}))
	assert.Equal(t, []llms.ChatMessage{msgs[1]}, fromContent(got[1]))
	assert.Equal(t, []llms.ChatMessage{llms.HumanChatMessage{Content: "a\nb"}},
		fromContent(llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.TextPart("a"), llms.TextPart("b")}}))
	assert.True(t, msg.Equal(got[2], Contents(msgs)[2]))
	assert.False(t, msg.Equal(got[0], got[3]))
}

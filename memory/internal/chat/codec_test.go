package chat

import (
	"testing"

	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestSameAfterRoundTrip checks that sameMessage sees a message and
// its store.MarshalMessage round trip (as a persisted history returns it)
// as the same.
func TestSameAfterRoundTrip(t *testing.T) {
	ai := llms.AIChatMessage{Content: "let me check", ReasoningContent: "thinking",
		ToolCalls: []llms.ToolCall{{ID: "call_1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "grep", Arguments: `{"q":"x"}`}}}}
	for _, m := range []llms.ChatMessage{ai, &ai, llms.ToolChatMessage{ID: "call_1", Content: "found"},
		llms.GenericChatMessage{Role: "critic", Name: "c", Content: "meh"}, store.OtherMessage{Type: "custom", Content: "note"}} {
		b, err := store.MarshalMessage(m)
		require.NoError(t, err)
		got, err := store.UnmarshalMessage(b)
		require.NoError(t, err)
		assert.True(t, Same(m, got), "%T", m)
	}
}

func TestSame(t *testing.T) {
	a := llms.AIChatMessage{Content: "x", ToolCalls: []llms.ToolCall{{ID: "1", FunctionCall: &llms.FunctionCall{Name: "f", Arguments: "{}"}}}}
	b := a
	b.ToolCalls = []llms.ToolCall{{ID: "1", FunctionCall: &llms.FunctionCall{Name: "f", Arguments: `{"a":1}`}}}
	assert.True(t, Same(a, a))
	assert.False(t, Same(a, b))
	assert.False(t, Same(a, llms.AIChatMessage{Content: "x"}))
	assert.False(t, Same(llms.HumanChatMessage{Content: "x"}, llms.AIChatMessage{Content: "x"}))
	assert.False(t, Same(llms.ToolChatMessage{ID: "1"}, llms.ToolChatMessage{ID: "2"}))
	assert.True(t, Same(nil, (*llms.AIChatMessage)(nil)))
	assert.False(t, Same(nil, a))
}

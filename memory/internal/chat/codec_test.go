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

// TestAppendLines: the text returned is JoinLines', whether the builder is
// extended in place, forked (a second tail after the same text) or new;
// strings returned earlier keep their content.
func TestAppendLines(t *testing.T) {
	a, b := AppendLines("", nil, "Human: hi")
	if a != "Human: hi" {
		t.Fatalf("got %q", a)
	}
	a2, b2 := AppendLines(a, b, "AI: hello")
	if a2 != "Human: hi\nAI: hello" || b2 != b {
		t.Fatalf("in place: got %q, same builder %v", a2, b2 == b)
	}
	fork, bf := AppendLines(a, b, "AI: other") // b has grown past a: a new builder
	if fork != "Human: hi\nAI: other" || bf == b {
		t.Fatalf("fork: got %q, new builder %v", fork, bf != b)
	}
	if a != "Human: hi" || a2 != "Human: hi\nAI: hello" {
		t.Fatalf("earlier strings changed: %q %q", a, a2)
	}
	same, bs := AppendLines(a2, b2, "")
	if same != a2 || bs != b2 {
		t.Fatal("an empty tail changes nothing")
	}
	other, bo := AppendLines("Human: x", b2, "AI: y") // text not from b2
	if other != JoinLines("Human: x", "AI: y") || bo == b2 {
		t.Fatalf("foreign text: got %q", other)
	}
}

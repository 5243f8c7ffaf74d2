package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

func TestMessageCodecRoundTrip(t *testing.T) {
	ai := llms.AIChatMessage{Content: "let me check", ReasoningContent: "thinking",
		ToolCalls: []llms.ToolCall{{ID: "call_1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "grep", Arguments: `{"q":"x"}`}}}}
	cases := []struct {
		name string
		in   llms.ChatMessage
		want llms.ChatMessage
	}{
		{"human", llms.HumanChatMessage{Content: "hi"}, nil},
		{"ai with tool calls", ai, nil},
		{"ai legacy function call", llms.AIChatMessage{FunctionCall: &llms.FunctionCall{Name: "f", Arguments: "{}"}}, nil},
		{"system", llms.SystemChatMessage{Content: "rules"}, nil},
		{"generic", llms.GenericChatMessage{Role: "critic", Name: "c", Content: "meh"}, nil},
		{"function", llms.FunctionChatMessage{Name: "f", Content: "1"}, nil},
		{"tool", llms.ToolChatMessage{ID: "call_1", Content: "found"}, nil},
		{"empty content", llms.HumanChatMessage{}, nil},
		{"pointer", &ai, ai},
		{"other", customMessage{"note"}, OtherMessage{Type: "custom", Content: "note"}},
		{"other pointer", &OtherMessage{Type: "x", Content: "y"}, OtherMessage{Type: "x", Content: "y"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := MarshalMessage(tc.in)
			require.NoError(t, err)
			got, err := UnmarshalMessage(b)
			require.NoError(t, err)
			want := tc.want
			if want == nil {
				want = tc.in
			}
			assert.Equal(t, want, got)
			again, err := MarshalMessage(got)
			require.NoError(t, err)
			assert.Equal(t, string(b), string(again), "the encoding is stable")
			assert.Equal(t, ToWire(tc.in), ToWire(got))
			assert.Equal(t, want, FromWire(ToWire(tc.in)))
		})
	}
}

type customMessage struct{ text string }

func (m customMessage) GetType() llms.ChatMessageType { return "custom" }
func (m customMessage) GetContent() string            { return m.text }

func TestMessageCodecErrors(t *testing.T) {
	for _, m := range []llms.ChatMessage{nil, (*llms.HumanChatMessage)(nil), (*OtherMessage)(nil), (*customMessage)(nil)} {
		_, err := MarshalMessage(m)
		require.Error(t, err, "%T", m)
		assert.True(t, IsNilMessage(m))
		assert.Equal(t, WireMessage{}, ToWire(m))
	}
	for _, bad := range []string{"", "{", `{"content":"no type"}`, `[]`} {
		_, err := UnmarshalMessage([]byte(bad))
		require.Error(t, err, bad)
	}
}

// TestMessageCodecInvalidUTF8 pins what the SQLite history documents: each
// byte that is not UTF-8 comes back as U+FFFD.
func TestMessageCodecInvalidUTF8(t *testing.T) {
	b, err := MarshalMessage(llms.HumanChatMessage{Content: "a\xff\xfeb\xe2\x82"})
	require.NoError(t, err)
	got, err := UnmarshalMessage(b)
	require.NoError(t, err)
	assert.Equal(t, llms.HumanChatMessage{Content: "a\uFFFD\uFFFDb\uFFFD\uFFFD"}, got)
}

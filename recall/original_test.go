package recall_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
)

func TestOriginalOf(t *testing.T) {
	fc := func(name, args string) *llms.FunctionCall { return &llms.FunctionCall{Name: name, Arguments: args} }
	tests := []struct {
		name string
		m    llms.MessageContent
		want store.Original
	}{
		{"tool output", llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{ToolCallID: "c1", Name: "read_file", Content: "line 1\nline 2\n"},
		}}, store.Original{Role: llms.ChatMessageTypeTool, Name: "read_file", Text: "line 1\nline 2\n"}},
		{"tool outputs, unnamed first, pointer", llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{ToolCallID: "c1", Content: "a"},
			&llms.ToolCallResponse{ToolCallID: "c2", Name: "grep", Content: "b"},
		}}, store.Original{Role: llms.ChatMessageTypeTool, Name: "grep", Text: "a\nb"}},
		{"unnamed tool output (langchaingo's functions agent)", llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{ToolCallID: "c1", Content: "out"},
		}}, store.Original{Role: llms.ChatMessageTypeTool, Text: "out"}},
		{"user", llms.TextParts(llms.ChatMessageTypeHuman, "fix ", "the bug"), store.Original{Role: llms.ChatMessageTypeHuman, Text: "fix \nthe bug"}},
		{"system", llms.TextParts(llms.ChatMessageTypeSystem, "You are an agent."), store.Original{Role: llms.ChatMessageTypeSystem, Text: "You are an agent."}},
		{"assistant with calls", llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
			llms.TextContent{Text: "Reading both."},
			llms.ToolCall{ID: "c1", Type: "function", FunctionCall: fc("read_file", `{"path": "a.go"}`)},
			&llms.ToolCall{ID: "c2", Type: "function", FunctionCall: fc("grep", `{"pattern": "x("}`)},
			llms.ToolCall{ID: "c3"}, // no function: nothing to show
		}}, store.Original{Role: llms.ChatMessageTypeAI, Name: "read_file", Text: "Reading both.\nread_file({\"path\": \"a.go\"})\ngrep({\"pattern\": \"x(\"})"}},
		{"media", llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{
			llms.TextContent{Text: "look"},
			llms.ImageURLContent{URL: "https://example.com/a.png"},
			&llms.ImageURLContent{URL: "data:image/png;base64,AAAA"},
			llms.BinaryContent{MIMEType: "application/pdf", Data: []byte("%PDF-1.7")},
			&llms.BinaryContent{MIMEType: "audio/wav", Data: []byte("RIFF")},
		}}, store.Original{Role: llms.ChatMessageTypeHuman, Text: "look\n[image: https://example.com/a.png]\n[image: inline data, 26 bytes]\n[binary application/pdf, 8 bytes]\n[binary audio/wav, 4 bytes]"}},
		{"nil parts", llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{
			nil, (*llms.TextContent)(nil), (*llms.ToolCall)(nil), (*llms.ToolCallResponse)(nil), (*llms.ImageURLContent)(nil), (*llms.BinaryContent)(nil), llms.TextContent{Text: "kept"},
		}}, store.Original{Role: llms.ChatMessageTypeHuman, Text: "kept"}},
		{"no parts", llms.MessageContent{Role: llms.ChatMessageTypeAI}, store.Original{Role: llms.ChatMessageTypeAI}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := append([]llms.ContentPart(nil), tc.m.Parts...)
			got := recall.OriginalOf("k3f2a9qx", "msg-1", tc.m)
			tc.want.Ref, tc.want.MessageID = "k3f2a9qx", "msg-1"
			assert.Equal(t, tc.want, got)
			assert.Equal(t, before, tc.m.Parts, "the message is not modified")
		})
	}
}

// TestOriginalOfMultilineArguments: a tool call whose arguments hold a
// multi-line string (a file written in one call) is shown line by line,
// keys in the order written; other arguments stand as written.
func TestOriginalOfMultilineArguments(t *testing.T) {
	call := func(args string) llms.MessageContent {
		return llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
			llms.ToolCall{ID: "c", Type: "function", FunctionCall: &llms.FunctionCall{Name: "bash", Arguments: args}}}}
	}
	o := recall.OriginalOf("r1", "", call(`{"z": 1, "command": "cat <<'EOF' > a.py\nprint(1)\nEOF", "cwd": "/repo"}`))
	assert.Equal(t, "bash(\nz: 1\ncommand: cat <<'EOF' > a.py\nprint(1)\nEOF\ncwd: /repo\n)", o.Text)
	for _, args := range []string{`{"command": "ls"}`, `not json\n`, `{"a": "x\n"} trailing`, `["a\nb"]`} {
		assert.Equal(t, "bash("+args+")", recall.OriginalOf("r1", "", call(args)).Text, args)
	}
}

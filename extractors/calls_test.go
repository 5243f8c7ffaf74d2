package extractors

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tmc/langchaingo/llms"
)

func TestCallsByID(t *testing.T) {
	calls := CallsByID(agentRun())
	assert.Len(t, calls, 4)
	assert.Equal(t, Call{ID: "c2", Name: "BASH", Arguments: `{"command": "go test ./parser/"}`}, calls["c2"])
	c := ResolveCall(llms.ToolCallResponse{ToolCallID: "c1"}, calls)
	assert.Equal(t, "read_file", c.Name)
	c = ResolveCall(llms.ToolCallResponse{ToolCallID: "zz", Name: "own"}, calls)
	assert.Equal(t, Call{ID: "zz", Name: "own"}, c)
}

func TestCallsByIDPointerParts(t *testing.T) {
	msgs := []llms.MessageContent{{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
		&llms.ToolCall{ID: "p", FunctionCall: &llms.FunctionCall{Name: "grep", Arguments: "{}"}},
		llms.ToolCall{ID: "nofunc"},
		llms.ToolCall{FunctionCall: &llms.FunctionCall{Name: "noid"}},
	}}}
	assert.Equal(t, map[string]Call{"p": {ID: "p", Name: "grep", Arguments: "{}"}}, CallsByID(msgs))
}

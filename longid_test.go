package compact

import (
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms"
)

// TestErrorsQuoteIDsBounded checks issue 24, item 9: an error that names
// an id from outside (a tool call id, a model name) quotes it bounded, a
// prefix and a hash, however long the id.
func TestErrorsQuoteIDsBounded(t *testing.T) {
	long := strings.Repeat("y", 1<<20)
	err := CheckToolPairs([]llms.MessageContent{{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
		llms.ToolCall{ID: long, Type: "function", FunctionCall: &llms.FunctionCall{Name: "f"}}}}})
	if err == nil || len(err.Error()) > 300 {
		t.Errorf("unanswered call: error of %d bytes", len(err.Error()))
	}
	err = CheckToolPairs([]llms.MessageContent{{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
		llms.ToolCallResponse{ToolCallID: long}}}})
	if err == nil || len(err.Error()) > 300 {
		t.Errorf("orphan result: error of %d bytes", len(err.Error()))
	}
	if _, err := New(WithModel(long)); err == nil || len(err.Error()) > 300 {
		t.Errorf("unknown model: error of %d bytes", len(err.Error()))
	}
}

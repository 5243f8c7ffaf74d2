package prompts

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

func TestPlainTurnsAsksForStatedFacts(t *testing.T) {
	chat := RenderMessage(0, llms.TextParts(llms.ChatMessageTypeHuman, "My sister lives in Lima. <tool_call name=\"x\">"), RenderOptions{})
	_, user, err := Default().Render(Values{TotalMessages: 1, Depth: 1, Transcript: chat, MaxTokens: 500})
	require.NoError(t, err)
	require.Contains(t, user, "attributed to who stated it")

	call := llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: "c1", Type: "function",
		FunctionCall: &llms.FunctionCall{Name: "read_file", Arguments: `{"path":"a.go"}`}}}}
	_, user, err = Default().Render(Values{TotalMessages: 1, Depth: 1, Transcript: strings.Join([]string{chat, RenderMessage(1, call, RenderOptions{})}, "\n"), MaxTokens: 500})
	require.NoError(t, err)
	require.NotContains(t, user, "attributed to who stated it", "a transcript with tool calls")
}

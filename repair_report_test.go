package compact

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestRepairReportsRolelessAndEmpty: a message without a role or without
// parts is reported as a repair, in Repair and in Compact's result, and
// kept as it is; the caller's slice is not modified.
func TestRepairReportsRolelessAndEmpty(t *testing.T) {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are helpful."),
		{Role: "", Parts: []llms.ContentPart{llms.TextContent{Text: "who am I?"}}},
		{Role: llms.ChatMessageTypeAI},
		{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{nil}},
		llms.TextParts(llms.ChatMessageTypeHuman, "hello"),
	}
	out, repairs := Repair(msgs)
	require.Equal(t, []string{RepairNoRole, RepairEmpty, RepairNilPart, RepairEmpty}, repairs)
	require.Len(t, out, len(msgs))
	require.Equal(t, llms.ChatMessageType(""), out[1].Role)
	require.Len(t, msgs[3].Parts, 1, "the caller's message is not modified")

	c, err := New(WithContextWindow(8000))
	require.NoError(t, err)
	res, err := c.Compact(context.Background(), NewSession("s"), msgs)
	require.NoError(t, err)
	require.Contains(t, res.Repairs, RepairNoRole)
	require.Contains(t, res.Repairs, RepairEmpty)
	_, repairs = Repair([]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "")})
	require.Empty(t, repairs, "an empty text is a part: not reported")
}

package compact

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestToolRoundPredicatesMatchUnits: the units the engine keeps whole are
// exactly the runs OpensToolRound and IsToolResult describe: over a real
// trajectory, every tool message is summarized with the message opening
// its round, and no round is split in any output.
func TestToolRoundPredicatesMatchUnits(t *testing.T) {
	msgs := loadTestTrajectory(t, "sweagent__demo-marshmallow-1867-fc")
	c, err := New(WithContextWindow(4_000), WithReservedOutput(500))
	require.NoError(t, err)
	s := NewSession("u")
	rounds, compactions := 0, 0
	for n := 1; n <= len(msgs); n++ {
		res, err := c.Compact(context.Background(), s, msgs[:n])
		require.NoError(t, err)
		require.NoError(t, CheckToolPairs(res.Messages))
		if res.Compacted {
			compactions++
		}
		opener := -1
		for i, mc := range msgs[:n] {
			switch {
			case OpensToolRound(mc):
				opener = i
				rounds++
			case IsToolResult(mc):
				require.GreaterOrEqual(t, opener, 0, "message %d: a tool result after its round's opener", i)
				require.Equal(t, res.States[opener].Summarized(), res.States[i].Summarized(), "turn %d: message %d and its opener %d", n, i, opener)
			default:
				opener = -1
			}
		}
	}
	require.Positive(t, rounds)
	require.Positive(t, compactions, "the trajectory must compact for the check to mean something")
	require.False(t, OpensToolRound(llms.TextParts(llms.ChatMessageTypeAI, "no call")))
	require.False(t, OpensToolRound(llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.ToolCall{ID: "x"}}}))
	require.True(t, IsToolResult(llms.MessageContent{Role: llms.ChatMessageTypeTool}))
}

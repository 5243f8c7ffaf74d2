package compact

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestPendingFits: whenever PendingFits says a pending message fits, a
// call given it with WithPending keeps it verbatim, over inputs of growing
// sizes beside a real trajectory; it says no once the input alone exceeds
// the budget, and a reserve only lowers what fits.
func TestPendingFits(t *testing.T) {
	ctx := context.Background()
	msgs := loadTestTrajectory(t, "sweagent__demo-marshmallow-1867-fc")
	c, err := New(WithContextWindow(6_000), WithReservedOutput(500))
	require.NoError(t, err)
	fits, not := 0, 0
	for n := 2; n <= len(msgs); n += 3 {
		for _, words := range []int{10, 400, 1_500, 3_000, 6_000} {
			pending := llms.TextParts(llms.ChatMessageTypeHuman, strings.Repeat("lorem ipsum ", words))
			ok := c.PendingFits(msgs[:n], 0, pending)
			if c.Counter().CountMessage(pending) > c.Budget() {
				require.False(t, ok, "an input over the budget never fits")
			}
			if !ok {
				not++
				continue
			}
			fits++
			require.True(t, c.PendingFits(msgs[:n], 0, pending))
			res, err := c.Compact(ctx, NewSession("p"), msgs[:n], WithPending(pending, ""))
			require.NoError(t, err, "%d messages, %d words", n, words)
			require.Equal(t, StateKept, res.PendingState, "%d messages, %d words", n, words)
			require.LessOrEqual(t, res.Tokens+c.Counter().CountMessage(pending), c.Budget())
			require.False(t, c.PendingFits(msgs[:n], c.Budget(), pending), "a reserve of the whole budget leaves no room")
		}
	}
	require.Positive(t, fits)
	require.Positive(t, not)
}

// TestPendingFitsCountsWhatIsPinned: the leading system messages, the task
// and the whole last tool round count; the messages between them do not.
func TestPendingFitsCountsWhatIsPinned(t *testing.T) {
	c, err := New(WithContextWindow(2_000), WithReservedOutput(0))
	require.NoError(t, err)
	big := func(role llms.ChatMessageType) llms.MessageContent {
		return llms.TextParts(role, strings.Repeat("pinned words ", 600))
	}
	pending := llms.TextParts(llms.ChatMessageTypeHuman, strings.Repeat("input ", 700))
	small := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "task"), llms.TextParts(llms.ChatMessageTypeAI, "ok")}
	require.True(t, c.PendingFits(small, 0, pending))
	middle := append([]llms.MessageContent{small[0]}, big(llms.ChatMessageTypeAI), big(llms.ChatMessageTypeHuman), small[1])
	require.True(t, c.PendingFits(middle, 0, pending), "the messages between the task and the last unit can go")
	require.False(t, c.PendingFits(append([]llms.MessageContent{big(llms.ChatMessageTypeSystem)}, small...), 0, pending), "a leading system message is pinned")
	require.False(t, c.PendingFits([]llms.MessageContent{big(llms.ChatMessageTypeHuman), small[1]}, 0, pending), "the task is pinned")
	call := llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
		llms.ToolCall{ID: "c1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "f", Arguments: strings.Repeat("x ", 1200)}}}}
	result := llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "c1", Name: "f", Content: "done"}}}
	require.False(t, c.PendingFits([]llms.MessageContent{small[0], small[1], call, result}, 0, pending), "the last tool round is pinned whole")
	require.True(t, c.PendingFits([]llms.MessageContent{small[0], call, result, small[1]}, 0, pending))
}

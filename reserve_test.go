package compact

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestReserveMatchesSystemMessage: a call reserving the tokens of a system
// message compacts exactly as a call given that message first, and its
// result is the other's without the message (Tokens and InputTokens
// without its tokens), turn by turn over a real trajectory.
func TestReserveMatchesSystemMessage(t *testing.T) {
	msgs := loadTestTrajectory(t, "sweagent__demo-marshmallow-1867-fc")
	c, err := New(WithContextWindow(6_000), WithReservedOutput(500))
	require.NoError(t, err)
	sys := llms.TextParts(llms.ChatMessageTypeSystem, strings.Repeat("reserve ", 300))
	r := c.Counter().CountMessage(sys)
	withMsg, withReserve := NewSession("s"), NewSession("s")
	compactions := 0
	for n := 1; n <= len(msgs); n++ {
		in := msgs[:n]
		ids := MessageIDs(in)
		a, err := c.Compact(context.Background(), withMsg, append([]llms.MessageContent{sys}, in...),
			WithMessageIDs(append([]string{"reserve"}, ids...)))
		require.NoError(t, err)
		b, err := c.Compact(context.Background(), withReserve, in, WithMessageIDs(ids), WithReserve(r))
		require.NoError(t, err)
		require.Equal(t, a.Compacted, b.Compacted, "turn %d", n)
		require.Equal(t, a.Messages[1:], b.Messages, "turn %d", n)
		require.Equal(t, a.States[1:], b.States, "turn %d", n)
		require.Equal(t, a.Refs[1:], b.Refs, "turn %d", n)
		require.Equal(t, a.Tokens-r, b.Tokens, "turn %d", n)
		require.Equal(t, a.InputTokens-r, b.InputTokens, "turn %d", n)
		require.Equal(t, c.CountTokens(b.Messages), b.Tokens, "turn %d", n)
		require.LessOrEqual(t, b.Tokens+r, b.Budget, "turn %d", n)
		if b.Compacted {
			compactions++
		}
	}
	require.Positive(t, compactions, "the trajectory must compact for the comparison to mean something")
}

// TestReserveEdges: a negative reserve is invalid input; a reserve over
// the budget fails with ErrBudgetTooSmall, empty input or not; an empty
// input with a reserve reports 0 tokens.
func TestReserveEdges(t *testing.T) {
	ctx := context.Background()
	c, err := New(WithContextWindow(2_000), WithReservedOutput(200))
	require.NoError(t, err)
	_, err = c.Compact(ctx, NewSession("neg"), nil, WithReserve(-1))
	require.ErrorIs(t, err, ErrInvalidInput)
	_, err = c.Compact(ctx, NewSession("over"), nil, WithReserve(c.Budget()))
	require.ErrorIs(t, err, ErrBudgetTooSmall)
	hi := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")}
	_, err = c.Compact(ctx, NewSession("over2"), hi, WithReserve(c.Budget()))
	require.ErrorIs(t, err, ErrBudgetTooSmall)
	require.Contains(t, err.Error(), "reserved (WithReserve)")
	res, err := c.Compact(ctx, NewSession("empty"), nil, WithReserve(100))
	require.NoError(t, err)
	require.Zero(t, res.Tokens)
	require.Empty(t, res.Messages)
	res, err = c.View(ctx, NewSession("view"), hi, WithReserve(100))
	require.NoError(t, err)
	require.Equal(t, c.CountTokens(hi), res.Tokens)
}

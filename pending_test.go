package compact

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestPendingMatchesAppended: a call given the next message with
// WithPending compacts exactly as a call given it appended to the input,
// and its result is the other's without it, turn by turn over a real
// trajectory; the session's state then names it under the same id.
func TestPendingMatchesAppended(t *testing.T) {
	msgs := loadTestTrajectory(t, "sweagent__demo-marshmallow-1867-fc")
	c, err := New(WithContextWindow(6_000), WithReservedOutput(500))
	require.NoError(t, err)
	next := llms.TextParts(llms.ChatMessageTypeHuman, "and now, what did the tests say?")
	appended, pending := NewSession("s"), NewSession("s")
	compactions := 0
	for n := 1; n <= len(msgs); n++ {
		in := msgs[:n]
		all := append(in[:n:n], next)
		ids := MessageIDs(all)
		a, err := c.Compact(context.Background(), appended, all, WithMessageIDs(ids))
		require.NoError(t, err)
		b, err := c.Compact(context.Background(), pending, in, WithMessageIDs(ids[:n]), WithPending(next, ids[n]))
		require.NoError(t, err)
		require.Equal(t, a.Compacted, b.Compacted, "turn %d", n)
		require.Equal(t, a.States[:n], b.States, "turn %d", n)
		require.Equal(t, a.Refs[:n], b.Refs, "turn %d", n)
		require.Equal(t, a.States[n], b.PendingState, "turn %d", n)
		require.Equal(t, a.Messages[:len(a.Messages)-1], b.Messages, "turn %d", n)
		require.Equal(t, c.CountTokens(b.Messages), b.Tokens, "turn %d", n)
		require.Equal(t, a.Tokens-c.Counter().CountMessage(next), b.Tokens, "turn %d", n)
		if b.Compacted {
			compactions++
		}
	}
	require.Positive(t, compactions, "the trajectory must compact for the comparison to mean something")
	require.Equal(t, appended.Covered(), pending.Covered(), "the sessions name the same messages")
	require.Equal(t, appended.Stats(), pending.Stats())
}

// TestPendingEdges: a derived id without WithMessageIDs, an invalid id,
// an id without WithMessageIDs, an empty input; the caller's slices stay
// as they were.
func TestPendingEdges(t *testing.T) {
	ctx := context.Background()
	c, err := New(WithContextWindow(2_000), WithReservedOutput(200))
	require.NoError(t, err)
	hi := llms.TextParts(llms.ChatMessageTypeHuman, "hi")
	in := make([]llms.MessageContent, 1, 4)
	in[0] = llms.TextParts(llms.ChatMessageTypeAI, "hello")
	res, err := c.Compact(ctx, NewSession("d"), in, WithPending(hi, ""))
	require.NoError(t, err)
	require.Len(t, res.States, 1)
	require.Equal(t, in, res.Messages)
	require.Equal(t, c.CountTokens(in), res.Tokens)
	require.Equal(t, in[:cap(in)][1], llms.MessageContent{}, "the caller's spare capacity is not written")
	_, err = c.Compact(ctx, NewSession("bad"), in, WithMessageIDs([]string{"a"}), WithPending(hi, "no spaces"))
	require.ErrorIs(t, err, ErrInvalidInput)
	_, err = c.Compact(ctx, NewSession("noids"), in, WithPending(hi, "b"))
	require.ErrorIs(t, err, ErrInvalidInput)
	res, err = c.View(ctx, NewSession("empty"), nil, WithPending(hi, "b"))
	require.NoError(t, err)
	require.Empty(t, res.Messages)
	require.Zero(t, res.Tokens)
}

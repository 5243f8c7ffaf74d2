package compact

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestMemoExtendsLastCall: a call that extends the last one (its ids and
// messages, plus new ones) reuses the last call's counts, yet an id of the
// prefix given again among the new messages is still an error, and a
// call that does not extend the last one is counted afresh.
func TestMemoExtendsLastCall(t *testing.T) {
	c, err := New(WithContextWindow(100_000))
	require.NoError(t, err)
	ctx := context.Background()
	s := NewSession("x")
	msgs := conversation(4, 50)
	ids := okIDs(len(msgs))
	first, err := c.Compact(ctx, s, msgs, WithMessageIDs(ids))
	require.NoError(t, err)

	more := append(append([]llms.MessageContent(nil), msgs...), llms.TextParts(llms.ChatMessageTypeHuman, "and one more question"))
	moreIDs := append(append([]string(nil), ids...), "new")
	second, err := c.Compact(ctx, s, more, WithMessageIDs(moreIDs))
	require.NoError(t, err)
	again, err := c.Compact(ctx, NewSession("x"), more, WithMessageIDs(moreIDs))
	require.NoError(t, err)
	assert.Greater(t, second.Tokens, first.Tokens)
	assert.Equal(t, again.Tokens, second.Tokens, "the prefix's counts reused, the new message counted")
	assert.Equal(t, again.Messages, second.Messages)

	dup := append(append([]string(nil), moreIDs...), ids[0])
	_, err = c.Compact(ctx, s, append(more, llms.TextParts(llms.ChatMessageTypeAI, "a reply")), WithMessageIDs(dup))
	require.ErrorIs(t, err, ErrInvalidInput, "an id of the prefix given again")
	bad := append(append([]string(nil), moreIDs...), "not an id")
	_, err = c.Compact(ctx, s, append(more, llms.TextParts(llms.ChatMessageTypeAI, "a reply")), WithMessageIDs(bad))
	require.ErrorIs(t, err, ErrInvalidInput, "a new id that is not one, after a prefix checked before")
	badFirst := append([]string(nil), moreIDs...)
	badFirst[2] = "bad/id"
	_, err = c.Compact(ctx, NewSession("y"), more, WithMessageIDs(badFirst))
	require.ErrorIs(t, err, ErrInvalidInput, "a first call checks every id")
	_, err = c.Compact(ctx, s, more, WithMessageIDs(badFirst))
	require.ErrorIs(t, err, ErrInvalidInput, "an id of the prefix changed to one that is not")

	// Not an extension (the first message's text differs, its id too):
	// every message is counted again, the result as from a fresh session.
	other := append([]llms.MessageContent(nil), more...)
	other[1] = llms.TextParts(other[1].Role, "a different first question, longer than the one before it was")
	otherIDs := append([]string(nil), moreIDs...)
	otherIDs[1] = "changed"
	got, err := c.Compact(ctx, s, other, WithMessageIDs(otherIDs))
	require.NoError(t, err)
	fresh, err := c.Compact(ctx, NewSession("x"), other, WithMessageIDs(otherIDs))
	require.NoError(t, err)
	assert.Equal(t, fresh.Tokens, got.Tokens)
}

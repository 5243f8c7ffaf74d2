package compact

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// summaryText returns the text of res's summary message, failing when
// there is none.
func summaryText(t *testing.T, res *Result) string {
	t.Helper()
	for _, m := range res.Messages {
		if s := textOf(m); strings.HasPrefix(s, SummaryPreamble) {
			return s
		}
	}
	t.Fatalf("no summary message in %d messages", len(res.Messages))
	return ""
}

func TestRecallHint(t *testing.T) {
	msgs := append(conversation(30, 300), llms.TextParts(llms.ChatMessageTypeHuman, "Please continue."))
	run := func(opts ...CallOption) (*Compactor, *Session, *Result) {
		c, err := New(WithContextWindow(4_000), WithReservedOutput(500))
		require.NoError(t, err)
		s := NewSession("t")
		res, err := c.Compact(context.Background(), s, msgs, opts...)
		require.NoError(t, err)
		require.True(t, res.Compacted)
		require.NoError(t, checkOutput(c, msgs, res))
		return c, s, res
	}
	t.Run("default: the hint", func(t *testing.T) {
		_, s, res := run()
		sum := summaryText(t, res)
		assert.True(t, strings.HasSuffix(sum, RecallHint), "%q", sum)
		assert.Equal(t, SummaryPreamble+s.Latest().Summary+RecallHint, sum)
	})
	t.Run("WithRecallHint(true)", func(t *testing.T) {
		_, _, res := run(WithRecallHint(true))
		assert.True(t, strings.HasSuffix(summaryText(t, res), RecallHint))
	})
	t.Run("WithRecallHint(false): none", func(t *testing.T) {
		c, s, res := run(WithRecallHint(false))
		sum := summaryText(t, res)
		assert.Equal(t, SummaryPreamble+s.Latest().Summary, sum, "the summary message is the preamble and the summary only")
		assert.NotContains(t, sum, RecallHint)
		assert.Equal(t, c.Counter().Count(sum), s.Latest().TokenEstimate, "the record's estimate is the message it renders")
		// The next call of the same session renders the stored summary
		// with the hint when asked, and without it when not.
		next := append(append([]llms.MessageContent{}, msgs...), llms.TextParts(llms.ChatMessageTypeAI, "ok"))
		with, err := c.Compact(context.Background(), s, next)
		require.NoError(t, err)
		assert.True(t, strings.HasSuffix(summaryText(t, with), RecallHint))
		without, err := c.View(context.Background(), s, next, WithRecallHint(false))
		require.NoError(t, err)
		assert.NotContains(t, summaryText(t, without), RecallHint)
	})
}

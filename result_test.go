package compact

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentcompact/compact/internal/msg"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestResultSummaryIndex: SummaryIndex names the summary message (Origin
// -1, the preamble, right after the leading system messages) whenever the
// output has one, also with a pending message, and is -1 otherwise.
func TestResultSummaryIndex(t *testing.T) {
	msgs := loadTestTrajectory(t, "sweagent__demo-marshmallow-1867-fc")
	c, err := New(WithContextWindow(5_000), WithReservedOutput(500))
	require.NoError(t, err)
	next := llms.TextParts(llms.ChatMessageTypeHuman, "what next?")
	for _, pending := range []bool{false, true} {
		s := NewSession("r")
		with := 0
		for n := 1; n <= len(msgs); n++ {
			var opts []CallOption
			if pending {
				opts = append(opts, WithPending(next, ""))
			}
			res, err := c.Compact(context.Background(), s, msgs[:n], opts...)
			require.NoError(t, err)
			if res.Summary == nil {
				require.Equal(t, -1, res.SummaryIndex, "turn %d", n)
				continue
			}
			with++
			k := res.SummaryIndex
			require.GreaterOrEqual(t, k, 0, "turn %d", n)
			require.Equal(t, -1, res.Origin[k])
			require.True(t, strings.HasPrefix(msg.Text(res.Messages[k]), SummaryPreamble))
			for i := 0; i < k; i++ {
				require.Equal(t, llms.ChatMessageTypeSystem, res.Messages[i].Role, "turn %d: only leading system messages before it", n)
			}
		}
		require.Positive(t, with, "the trajectory must compact for the check to mean something")
	}
}

// TestWithResultIntoReuses: calls that fill one Result reuse its arrays
// while they are large enough (a growing window reallocates them now and
// then, with room to spare), and return the Result given; without the
// option every call's slices are new.
func TestWithResultIntoReuses(t *testing.T) {
	c, err := New(WithContextWindow(1_000_000))
	require.NoError(t, err)
	ctx := context.Background()
	var msgs []llms.MessageContent
	var into Result
	arrays := map[*llms.MessageContent]bool{}
	fresh := map[*llms.MessageContent]bool{}
	s, plain := NewSession("a"), NewSession("b")
	for i := range 100 {
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprintf("message %d", i)))
		res, err := c.Compact(ctx, s, msgs, WithResultInto(&into))
		require.NoError(t, err)
		require.Same(t, &into, res)
		require.Len(t, res.Messages, i+1)
		arrays[&res.Messages[0]] = true
		res, err = c.Compact(ctx, plain, msgs)
		require.NoError(t, err)
		fresh[&res.Messages[0]] = true
	}
	require.Less(t, len(arrays), 25, "arrays of 100 calls")
	require.Len(t, fresh, 100, "without WithResultInto")
}

// TestWithResultIntoNil: a nil Result is the default, a new Result.
func TestWithResultIntoNil(t *testing.T) {
	c, err := New(WithContextWindow(8_000))
	require.NoError(t, err)
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hello")}
	res, err := c.Compact(context.Background(), NewSession("n"), msgs, WithResultInto(nil))
	require.NoError(t, err)
	require.Len(t, res.Messages, 1)
}

package compact

import (
	"context"
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

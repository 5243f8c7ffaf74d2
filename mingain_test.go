package compact

import (
	"context"
	"testing"

	"github.com/agentcompact/compact/internal/msg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMinGain: when what lies outside the preserved tail frees too little
// (large recent outputs), the minimum gain summarizes the tail's oldest
// rounds too, so that one compaction frees at least half the budget rather
// than one per call; without it (WithMinGain(0)) the tail stays whole.
func TestMinGain(t *testing.T) {
	ctx := context.Background()
	// 7 rounds of ~800-token outputs: the 6-message tail holds 3 of them.
	msgs := conversation(7, 800)
	for _, tc := range []struct {
		name     string
		minGain  float64
		wantTail bool // the last 6 messages are kept verbatim
	}{
		{"default", DefaultMinGain, false},
		{"off", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(WithContextWindow(6_000), WithReservedOutput(1_000), WithMinGain(tc.minGain))
			require.NoError(t, err)
			res, err := c.Compact(ctx, NewSession(tc.name), msgs)
			require.NoError(t, err)
			require.True(t, res.Compacted)
			require.NoError(t, CheckToolPairs(res.Messages))
			assert.LessOrEqual(t, res.Tokens, c.Budget())
			n := len(res.Messages)
			tailKept := n >= 6 && msg.Equal(res.Messages[n-6], msgs[len(msgs)-6])
			assert.Equal(t, tc.wantTail, tailKept)
			freed := c.counter.CountMessages(msgs) - res.Tokens
			if tc.minGain > 0 {
				assert.GreaterOrEqual(t, freed, int(tc.minGain*float64(c.Budget())), "frees at least the minimum gain")
			}
			assert.True(t, msg.Equal(res.Messages[n-1], msgs[len(msgs)-1]), "the floor of the tail stays verbatim")
		})
	}
}

func TestMinGainOption(t *testing.T) {
	for _, v := range []float64{-0.1, 1, 1.5} {
		_, err := New(WithContextWindow(8_000), WithMinGain(v))
		assert.ErrorIs(t, err, ErrInvalidOption, "%v", v)
		assert.ErrorContains(t, err, "WithMinGain")
	}
	_, err := New(WithContextWindow(8_000), WithMinGain(0))
	assert.NoError(t, err)
}

package compact

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStatsWithTokens: the token figures, including a context larger than
// the original (nothing saved) and an empty conversation (ratio 0); the
// other figures are kept.
func TestStatsWithTokens(t *testing.T) {
	s := Stats{MessagesTotal: 7, Compactions: 2}.WithTokens(1000, 250)
	require.Equal(t, Stats{MessagesTotal: 7, Compactions: 2, TokensOriginal: 1000, TokensActive: 250, TokensSaved: 750, CompressionRatio: 0.25}, s)
	s = s.WithTokens(100, 150)
	require.Equal(t, 0, s.TokensSaved)
	require.InDelta(t, 1.5, s.CompressionRatio, 1e-9)
	require.Zero(t, Stats{}.WithTokens(0, 0).CompressionRatio)
}

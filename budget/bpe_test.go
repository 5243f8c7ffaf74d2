package budget

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBPEHeapMatchesScan(t *testing.T) {
	enc, err := loadEncoder(EncodingO200k)
	require.NoError(t, err)
	for _, s := range []string{"ab", "abc", "hello", "zzzzzzzzzzqqqq", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"xK8mN2pQr5vSjTyL9hB3zWc", "===================", "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"} {
		if len(s) > bpeHeapMin {
			continue
		}
		assert.Equal(t, enc.ranks.countScan(s), enc.ranks.countHeap(s), "%q", s)
	}
}

// TestEveryByteIsAToken backs bpeRanks.isToken's shortcut for 1-byte
// pieces and checks the two-byte table against the map.
func TestEveryByteIsAToken(t *testing.T) {
	for _, name := range []string{EncodingO200k, EncodingCL100k} {
		enc, err := loadEncoder(name)
		require.NoError(t, err)
		for b := 0; b < 256; b++ {
			_, ok := enc.ranks.ranks[string([]byte{byte(b)})]
			require.True(t, ok, "%s byte %#x", name, b)
		}
		pairs := 0
		for tok, rank := range enc.ranks.ranks {
			if len(tok) == 2 {
				pairs++
				require.Equal(t, rank, enc.ranks.rank(tok))
			}
		}
		assert.Equal(t, pairs, countNonNegative(enc.ranks.pairs), name)
	}
}

func countNonNegative(xs []int32) int {
	n := 0
	for _, x := range xs {
		if x >= 0 {
			n++
		}
	}
	return n
}

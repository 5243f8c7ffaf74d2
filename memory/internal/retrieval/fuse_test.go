package retrieval

import (
	"testing"

	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/require"
)

// TestFuseHits: reciprocal rank fusion puts first what both rankings
// found, breaks ties in the lexical order, and without semantic hits
// returns the lexical ones as they are.
func TestFuseHits(t *testing.T) {
	hits := func(pos ...int) []store.Hit {
		out := make([]store.Hit, len(pos))
		for i, p := range pos {
			out[i] = store.Hit{Pos: p, Score: float64(100 - i)}
		}
		return out
	}
	positions := func(hs []store.Hit) []int {
		out := make([]int, len(hs))
		for i, h := range hs {
			out[i] = h.Pos
		}
		return out
	}
	for _, tc := range []struct {
		name     string
		lex, sem []store.Hit
		want     []int
	}{
		{"lexical only", hits(4, 2, 9), nil, []int{4, 2, 9}},
		{"semantic only", nil, hits(7, 3), []int{7, 3}},
		{"agreement first", hits(4, 2, 9), hits(9, 11), []int{9, 4, 2, 11}},
		{"tie: lexical order", hits(4, 2), hits(8, 6), []int{4, 8, 2, 6}},
		{"consistent beats middling", hits(1, 2, 3), hits(3, 2, 1), []int{1, 3, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lex := append([]store.Hit(nil), tc.lex...)
			got := Fuse(tc.lex, tc.sem)
			require.Equal(t, tc.want, positions(got))
			require.Equal(t, lex, tc.lex, "the lexical hits are not modified")
			for i := 1; i < len(got) && tc.sem != nil; i++ {
				require.GreaterOrEqual(t, got[i-1].Score, got[i].Score)
			}
		})
	}
}

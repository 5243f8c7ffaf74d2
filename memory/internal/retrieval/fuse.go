package retrieval

import (
	"cmp"
	"slices"

	"github.com/agentcompact/compact/store"
)

// rrfK is the constant of reciprocal rank fusion: a candidate at rank r
// (from 1) of a list scores 1/(rrfK+r). 60 is the value of Cormack et al.
// (2009), which damps the weight of the top ranks without ignoring them.
const rrfK = 60

// Fuse merges the lexical hits (gated, in the store's order) and the
// semantic ones by reciprocal rank fusion (see memory.WithEmbedder): a candidate at rank r (from 1) of a
// list scores 1/(60+r), summed over the lists it is in, best first; on a tie
// the lexical order first. Without semantic hits it returns lex as it is.
func Fuse(lex, sem []store.Hit) []store.Hit {
	if len(sem) == 0 {
		return lex
	}
	score := make(map[int]float64, len(lex)+len(sem))
	out := make([]store.Hit, 0, len(lex)+len(sem))
	for _, list := range [][]store.Hit{lex, sem} {
		for r, h := range list {
			if _, ok := score[h.Pos]; !ok {
				out = append(out, store.Hit{Pos: h.Pos})
			}
			score[h.Pos] += 1 / float64(rrfK+r+1)
		}
	}
	for i := range out {
		out[i].Score = score[out[i].Pos]
	}
	slices.SortStableFunc(out, func(a, b store.Hit) int { return cmp.Compare(b.Score, a.Score) })
	return out
}

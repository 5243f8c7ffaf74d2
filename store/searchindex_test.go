package store

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commonIndex indexes n messages that all hold the words "handler check
// error", each with its own number, and one (doc 7) that also holds
// "ledger".
func commonIndex(n int) *SearchIndex {
	x := NewSearchIndex()
	for i := range n {
		text := fmt.Sprintf("turn %d: check the error path of handler_%d", i, i)
		if i == 7 {
			text += " ledger mismatch"
		}
		x.Add(text)
	}
	return x
}

// TestBM25CommonTermsNotWalked: in a long history a term most messages
// hold finds nothing alone, and adds to the score of what a rare term
// found; in a short one every term is walked.
func TestBM25CommonTermsNotWalked(t *testing.T) {
	long := commonIndex(1000)
	assert.Empty(t, long.Search(SearchKeys("check error handler"), 5), "common terms alone carry no signal")
	hits := long.Search(SearchKeys("ledger error"), 5)
	require.Len(t, hits, 1)
	assert.Equal(t, 7, hits[0].Pos)
	alone := long.Search(SearchKeys("ledger"), 5)
	assert.Greater(t, hits[0].Score, alone[0].Score, "the common term still adds to a found document's score")
	num := long.Search(SearchKeys("handler_512"), 5)
	require.NotEmpty(t, num)
	assert.Equal(t, 512, num[0].Pos, "the rare part of an identifier finds its message")

	short := commonIndex(100)
	assert.Len(t, short.Search(SearchKeys("check error"), 5), 5, "a short history walks every term")
}

// BenchmarkBM25Search searches a history of 10^4 and 10^5 messages with a
// query of mostly common terms: with common terms looked up rather than
// walked, the cost follows the rare terms' postings, not the history.
func BenchmarkBM25Search(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		x := commonIndex(n)
		keys := SearchKeys("turn 42: check the error path of handler_42 ledger")
		b.Run(fmt.Sprintf("docs=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if len(x.Search(keys, 8)) == 0 {
					b.Fatal("no hit")
				}
			}
		})
	}
}

// TestTopHitsHeap checks the bounded selection of topHits against a full
// sort of the same hits, for every limit, with tied scores.
func TestTopHitsHeap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for round := 0; round < 200; round++ {
		n := rng.IntN(60)
		hits := make([]Hit, n)
		for i := range hits {
			hits[i] = Hit{Pos: i, Score: float64(rng.IntN(8))} // many ties
		}
		rng.Shuffle(n, func(i, j int) { hits[i], hits[j] = hits[j], hits[i] })
		want := append([]Hit(nil), hits...)
		sort.Slice(want, func(i, j int) bool {
			if want[i].Score != want[j].Score {
				return want[i].Score > want[j].Score
			}
			return want[i].Pos > want[j].Pos
		})
		for limit := 1; limit <= n+1; limit++ {
			got := topHits(append([]Hit(nil), hits...), limit)
			if !slices.Equal(got, want[:min(limit, n)]) {
				t.Fatalf("n=%d limit=%d: got %v, want %v", n, limit, got, want[:min(limit, n)])
			}
		}
	}
}

// TestSearchScratchReset checks that a search leaves no score behind for
// the next one: the same query twice gives the same hits.
func TestSearchScratchReset(t *testing.T) {
	x := NewSearchIndex()
	for _, s := range []string{"alpha beta", "beta gamma", "gamma delta", "alpha delta"} {
		x.Add(s)
	}
	first := x.Search(SearchKeys("alpha gamma"), 10)
	second := x.Search(SearchKeys("alpha gamma"), 10)
	if len(first) != 4 || !slices.Equal(first, second) {
		t.Fatalf("first %v, second %v", first, second)
	}
	if other := x.Search(SearchKeys("beta"), 10); len(other) != 2 {
		t.Fatalf("beta: %v", other)
	}
}

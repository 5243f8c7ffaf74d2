package store

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
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

// refSearch is Search without max-score pruning, document by document:
// every document a rare key holds, scored with every key it holds, the
// rare keys first and then the common ones (Search's order of addition,
// so that the sums are the same to the bit).
func refSearch(x *SearchIndex, keys []string, limit int) []Hit {
	avg := max(float64(x.total)/float64(len(x.lens)), 1)
	var rare, common []string
	for _, k := range keys {
		if df := len(x.postings[k]); df > 0 && CommonTerm(df, len(x.lens)) {
			common = append(common, k)
		} else if df > 0 {
			rare = append(rare, k)
		}
	}
	var hits []Hit
	for d := range int32(len(x.lens)) {
		score, held := 0.0, false
		for _, k := range append(rare, common...) {
			ps := x.postings[k]
			if i := postingOf(ps, d); i >= 0 && (held || !CommonTerm(len(ps), len(x.lens))) {
				score += bm25(bm25IDF(len(x.lens), len(ps)), int(ps[i].tf), int(x.lens[d]), avg)
				held = true
			}
		}
		if held {
			hits = append(hits, Hit{Pos: int(d), Score: score})
		}
	}
	sort.Slice(hits, func(i, j int) bool { return better(hits[i], hits[j]) })
	return hits[:min(limit, len(hits))]
}

// FuzzSearchMaxScore checks Search, which leaves out the documents that
// cannot rank (contenders), against scoring every found document, on
// histories of words drawn from a small vocabulary (so that some are
// common) with skewed frequencies.
func FuzzSearchMaxScore(f *testing.F) {
	f.Add(uint64(1), uint16(300), uint8(8), uint8(6))
	f.Add(uint64(2), uint16(1000), uint8(32), uint8(12))
	f.Add(uint64(3), uint16(600), uint8(1), uint8(3))
	f.Add(uint64(4), uint16(2000), uint8(5), uint8(20))
	f.Fuzz(func(t *testing.T, seed uint64, docs uint16, limit uint8, words uint8) {
		rng := rand.New(rand.NewPCG(seed, 3))
		n := int(docs%3000) + 1
		vocab := make([]string, 40)
		for i := range vocab {
			vocab[i] = fmt.Sprintf("w%cx", 'a'+i%26) + fmt.Sprint(i/26)
		}
		pick := func() string { // word i with weight 1/(i+1): a few are common
			return vocab[min(max(int(1/(rng.Float64()+1e-3)), 1), len(vocab))-1]
		}
		x := NewSearchIndex()
		add := func(n int) {
			for range n {
				var b []byte
				for range rng.IntN(int(words%24)+1) + 1 {
					b = append(b, pick()...)
					b = append(b, ' ')
				}
				x.Add(string(b))
			}
		}
		add(n)
		for round := range 6 {
			if round == 3 { // the index grows between searches, as a history's does
				add(n/8 + 1) // within the scratch arrays' spare capacity
			}
			var q []byte
			for range rng.IntN(6) + 1 {
				q = append(q, pick()...)
				q = append(q, ' ')
			}
			keys := SearchKeys(string(q))
			lim := int(limit%40) + 1
			want := refSearch(x, keys, lim)
			got := x.Search(keys, lim)
			if len(want) == 0 {
				require.Empty(t, got, "query %q", q)
				continue
			}
			require.Equal(t, want, got, "query %q over %d documents, limit %d", q, x.Len(), lim)
		}
	})
}

// TestContendersPrune: a rare key found in many documents with different
// counts, and a common key: the documents whose score cannot reach the
// limit-th best with the common key's bound are left out, and the result
// is still that of scoring every document.
func TestContendersPrune(t *testing.T) {
	x := NewSearchIndex()
	for i := range 1000 {
		text := "filler words here"
		if i%10 != 0 {
			text += " gamma"
		}
		if i%5 == 0 {
			text += strings.Repeat(" beta", 1+i%7)
		}
		x.Add(text)
	}
	keys := SearchKeys("beta gamma")
	got := x.Search(keys, 5)
	require.Equal(t, refSearch(x, keys, 5), got)
	var found []int32
	for _, p := range x.postings[keys[0]] {
		found = append(found, p.doc)
		x.acc[p.doc] = bm25(bm25IDF(x.Len(), len(x.postings[keys[0]])), int(p.tf), int(x.lens[p.doc]), float64(x.total)/float64(x.Len()))
	}
	cand := x.contenders(x.acc, found, [][]posting{x.postings[keys[1]]}, 5)
	assert.Less(t, len(cand), len(found), "some of the %d found documents cannot rank", len(found))
	assert.GreaterOrEqual(t, len(cand), 5)
	for _, d := range found {
		x.acc[d] = 0
	}
}

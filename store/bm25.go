package store

import (
	"math"
	"sort"
)

// BM25 parameters (the usual ones).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// bm25Index is an in-memory inverted index of a history's messages for
// BM25 ranking, appended to as the history grows.
type bm25Index struct {
	epoch    uint64
	lens     []int32 // words per document (message)
	total    int64
	postings map[string][]posting
}

// posting is one document's count of a word.
type posting struct {
	doc int32
	tf  int32
}

func newBM25Index(epoch uint64) *bm25Index {
	return &bm25Index{epoch: epoch, postings: map[string][]posting{}}
}

// add indexes text as the next document, under the words' keys
// (SearchKey).
func (x *bm25Index) add(text string) {
	doc := int32(len(x.lens))
	tf := map[string]int32{}
	n := int32(0)
	for _, w := range splitWords(text) {
		tf[SearchKey(w)]++
		n++
	}
	for w, c := range tf {
		x.postings[w] = append(x.postings[w], posting{doc: doc, tf: c})
	}
	x.lens = append(x.lens, n)
	x.total += int64(n)
}

// Terms are walked or only looked up by how common they are. A term held
// by more than commonShare of the documents (in a history of more than
// walkAll documents) carries little signal and its postings are long: it
// is not walked, only looked up (a binary search of its postings) for the
// documents a rarer term found, as max-score pruning does with its
// non-essential terms. A query of common terms alone finds nothing. So a
// search walks the postings of its rare terms only: its cost follows what
// it finds, not the history's length.
const (
	commonShare = 0.25
	walkAll     = 256
)

// CommonTerm reports whether a search key held by df of a history's n
// messages is too common to walk: more than a quarter of a history of more
// than 256 messages. Such a key adds to the score of what rarer keys find
// and finds nothing alone. The in-memory index applies it, and a caller
// that knows the frequencies drops such words from the query it gives a
// store's search (PostgreSQL, SQLite), so that no search walks them.
func CommonTerm(df, n int) bool { return n > walkAll && float64(df) > commonShare*float64(n) }

// search ranks the documents containing any of keys (SearchKeys) by BM25,
// best first (ties: the later document first), at most limit; common terms
// only add to the scores of documents a rare term found.
func (x *bm25Index) search(terms []string, limit int) []Hit {
	if len(x.lens) == 0 || limit <= 0 {
		return nil
	}
	n := float64(len(x.lens))
	avg := float64(x.total) / n
	if avg == 0 {
		avg = 1
	}
	score := func(p posting, idf float64) float64 {
		tf := float64(p.tf)
		norm := bm25K1 * (1 - bm25B + bm25B*float64(x.lens[p.doc])/avg)
		return idf * tf * (bm25K1 + 1) / (tf + norm)
	}
	idf := func(df int) float64 { return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5)) }
	scores := map[int32]float64{}
	var looked [][]posting
	for _, t := range terms {
		ps := x.postings[t]
		if len(ps) == 0 {
			continue
		}
		if CommonTerm(len(ps), len(x.lens)) {
			looked = append(looked, ps)
			continue
		}
		w := idf(len(ps))
		for _, p := range ps {
			scores[p.doc] += score(p, w)
		}
	}
	for _, ps := range looked {
		w := idf(len(ps))
		for d := range scores {
			k := sort.Search(len(ps), func(i int) bool { return ps[i].doc >= d })
			if k < len(ps) && ps[k].doc == d {
				scores[d] += score(ps[k], w)
			}
		}
	}
	return topHits(scores, limit)
}

// topHits returns the limit best of scores, best first (ties: the later
// document first).
func topHits(scores map[int32]float64, limit int) []Hit {
	hits := make([]Hit, 0, len(scores))
	for d, s := range scores {
		hits = append(hits, Hit{Pos: int(d), Score: s})
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Pos > hits[j].Pos
	})
	return hits[:min(limit, len(hits))]
}

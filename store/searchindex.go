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
// and finds nothing alone. [SearchIndex] applies it, and a caller that
// knows the frequencies drops such words from the query it gives a store's
// search (PostgreSQL, SQLite), so that no search walks them.
func CommonTerm(df, n int) bool { return n > walkAll && float64(df) > commonShare*float64(n) }

// SearchIndex is an in-memory inverted index of a history's messages for
// BM25 ranking over their words' English stems ([SearchKey]), appended to
// as the history grows: the search of [ChatHistory], and of a memory whose
// history cannot search. Adding a message costs its length; a search costs
// the postings of its rare keys ([CommonTerm]), not the history's length.
// The zero value is not ready: use [NewSearchIndex]. It is not safe for
// concurrent use.
type SearchIndex struct {
	lens     []int32 // words per document (message)
	total    int64
	postings map[string][]posting
	stems    StemCache
	acc      []float64 // a search's scratch: score per document, zero between searches
	found    []int32   // a search's scratch: the documents with a score
	cand     []int32   // a search's scratch: the found documents still in the running
	scored   []Hit     // a search's scratch: the found documents' scores so far (kthScore)
}

// posting is one document's count of a key.
type posting struct {
	doc int32
	tf  int32
}

// NewSearchIndex returns an empty index.
func NewSearchIndex() *SearchIndex {
	return &SearchIndex{postings: map[string][]posting{}}
}

// Len returns the number of documents (messages) added.
func (x *SearchIndex) Len() int { return len(x.lens) }

// Add indexes text as the next document, under its words' keys
// ([SearchKey]).
func (x *SearchIndex) Add(text string) {
	doc := int32(len(x.lens))
	tf := make(map[string]int32, 16)
	n := 0
	eachWord(text, func(w string) bool {
		tf[x.stems.Key(w)]++
		n++
		return true
	})
	for k, c := range tf {
		x.postings[k] = append(x.postings[k], posting{doc: doc, tf: c})
	}
	x.lens = append(x.lens, int32(n))
	x.total += int64(n)
}

// Search ranks the documents holding any of keys ([SearchKeys]) by BM25,
// best first (ties: the later document first), at most limit; common keys
// ([CommonTerm]) only add to the scores of documents a rarer key found.
func (x *SearchIndex) Search(keys []string, limit int) []Hit {
	if len(x.lens) == 0 || limit <= 0 {
		return nil
	}
	avg := float64(x.total) / float64(len(x.lens))
	if avg == 0 {
		avg = 1
	}
	if cap(x.acc) < len(x.lens) {
		x.acc = make([]float64, len(x.lens), len(x.lens)+len(x.lens)/4)
	}
	acc, found := x.acc[:len(x.lens)], x.found[:0]
	var looked [][]posting
	for _, k := range keys {
		ps := x.postings[k]
		if len(ps) == 0 {
			continue
		}
		if CommonTerm(len(ps), len(x.lens)) {
			looked = append(looked, ps)
			continue
		}
		idf := bm25IDF(len(x.lens), len(ps))
		for _, p := range ps {
			if acc[p.doc] == 0 { // a BM25 term is positive: 0 is "not found yet"
				found = append(found, p.doc)
			}
			acc[p.doc] += bm25(idf, int(p.tf), int(x.lens[p.doc]), avg)
		}
	}
	cand := x.contenders(acc, found, looked, limit)
	for _, ps := range looked {
		idf := bm25IDF(len(x.lens), len(ps))
		for _, d := range cand {
			if i := postingOf(ps, d); i >= 0 {
				acc[d] += bm25(idf, int(ps[i].tf), int(x.lens[d]), avg)
			}
		}
	}
	hits := make([]Hit, 0, len(cand))
	for _, d := range cand {
		hits = append(hits, Hit{Pos: int(d), Score: acc[d]})
	}
	for _, d := range found {
		acc[d] = 0
	}
	x.found = found[:0]
	return topHits(hits, limit)
}

// contenders returns the found documents that can still rank among the
// limit best (scores so far in acc) once the common keys (looked) add to
// their scores: max-score pruning. A common key adds less than its
// idf·(k1+1) (BM25's bound), so a document whose score with every bound
// added stays below the limit-th best score so far ends below at least
// limit documents whatever those keys add: it is left out, and the result
// is the same as scoring every document. found itself when nothing can be
// left out.
func (x *SearchIndex) contenders(acc []float64, found []int32, looked [][]posting, limit int) []int32 {
	if len(looked) == 0 || len(found) <= limit {
		return found
	}
	bound := 0.0
	for _, ps := range looked {
		bound += bm25IDF(len(x.lens), len(ps)) * (bm25K1 + 1)
	}
	bound = bound*(1+1e-9) + 1e-9 // above any rounding of the sums
	floor := x.kthScore(acc, found, limit)
	cand := x.cand[:0]
	for _, d := range found {
		if acc[d]+bound >= floor {
			cand = append(cand, d)
		}
	}
	x.cand = cand[:0]
	return cand
}

// kthScore returns the k-th highest score (acc) among the found
// documents (1 <= k <= len(found)): the worst of topHits' k best.
func (x *SearchIndex) kthScore(acc []float64, found []int32, k int) float64 {
	hits := x.scored[:0]
	for _, d := range found {
		hits = append(hits, Hit{Pos: int(d), Score: acc[d]})
	}
	x.scored = hits[:0]
	best := topHits(hits, k)
	return best[len(best)-1].Score
}

// postingOf returns the index of document d's posting in ps (sorted by
// document), or -1.
func postingOf(ps []posting, d int32) int {
	lo, hi := 0, len(ps)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ps[m].doc < d {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(ps) && ps[lo].doc == d {
		return lo
	}
	return -1
}

// topHits returns the limit best of hits, best first (ties: the later
// document first), reordering hits: a bounded heap of the limit best
// seen (the worst of them at its root) when the hits outnumber the
// limit, so a search that finds much of a long history costs
// len(hits)·log(limit), not a sort of every hit.
func topHits(hits []Hit, limit int) []Hit {
	if len(hits) > limit {
		h := hits[:limit]
		for i := limit/2 - 1; i >= 0; i-- {
			siftDown(h, i)
		}
		for _, c := range hits[limit:] {
			if better(c, h[0]) {
				h[0] = c
				siftDown(h, 0)
			}
		}
		hits = h
	}
	sort.Slice(hits, func(i, j int) bool { return better(hits[i], hits[j]) })
	return hits
}

// better orders hits best first: higher score, then the later document.
func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Pos > b.Pos
}

// siftDown restores the heap of h (the worst hit at the root) below i.
func siftDown(h []Hit, i int) {
	for {
		w := i
		if l := 2*i + 1; l < len(h) && better(h[w], h[l]) {
			w = l
		}
		if r := 2*i + 2; r < len(h) && better(h[w], h[r]) {
			w = r
		}
		if w == i {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}

// BM25Term returns one query term's BM25 score in one document (k1 1.2,
// b 0.75): the term is in df of the docs documents, tf times in this one,
// which holds docLen words where the documents hold avgLen on average. A
// document's score is the sum over the query's terms.
func BM25Term(docs, df, tf, docLen int, avgLen float64) float64 {
	return bm25(bm25IDF(docs, df), tf, docLen, avgLen)
}

// bm25IDF is BM25Term's inverse document frequency of a term held by df
// of docs documents: one per term of a search, not one per posting.
func bm25IDF(docs, df int) float64 {
	return math.Log(1 + (float64(docs)-float64(df)+0.5)/(float64(df)+0.5))
}

// bm25 is BM25Term with the term's idf given.
func bm25(idf float64, tf, docLen int, avgLen float64) float64 {
	t := float64(tf)
	norm := bm25K1 * (1 - bm25B + bm25B*float64(docLen)/avgLen)
	return idf * t * (bm25K1 + 1) / (t + norm)
}

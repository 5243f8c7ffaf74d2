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
	words := splitWords(text)
	tf := make(map[string]int32, len(words))
	for _, w := range words {
		tf[x.stems.Key(w)]++
	}
	for k, c := range tf {
		x.postings[k] = append(x.postings[k], posting{doc: doc, tf: c})
	}
	x.lens = append(x.lens, int32(len(words)))
	x.total += int64(len(words))
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
	scores := map[int32]float64{}
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
		for _, p := range ps {
			scores[p.doc] += BM25Term(len(x.lens), len(ps), int(p.tf), int(x.lens[p.doc]), avg)
		}
	}
	for _, ps := range looked {
		for d := range scores {
			i := sort.Search(len(ps), func(i int) bool { return ps[i].doc >= d })
			if i < len(ps) && ps[i].doc == d {
				scores[d] += BM25Term(len(x.lens), len(ps), int(ps[i].tf), int(x.lens[d]), avg)
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

// BM25Term returns one query term's BM25 score in one document (k1 1.2,
// b 0.75): the term is in df of the docs documents, tf times in this one,
// which holds docLen words where the documents hold avgLen on average. A
// document's score is the sum over the query's terms.
func BM25Term(docs, df, tf, docLen int, avgLen float64) float64 {
	n, t := float64(docs), float64(tf)
	idf := math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
	norm := bm25K1 * (1 - bm25B + bm25B*float64(docLen)/avgLen)
	return idf * t * (bm25K1 + 1) / (t + norm)
}

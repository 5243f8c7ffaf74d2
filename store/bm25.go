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

// search ranks the documents containing any of keys (SearchKeys) by BM25, best first
// (ties: the later document first), at most limit.
func (x *bm25Index) search(terms []string, limit int) []Hit {
	if len(x.lens) == 0 || limit <= 0 {
		return nil
	}
	n := float64(len(x.lens))
	avg := float64(x.total) / n
	if avg == 0 {
		avg = 1
	}
	scores := map[int32]float64{}
	for _, t := range terms {
		ps := x.postings[t]
		if len(ps) == 0 {
			continue
		}
		for _, p := range ps {
			scores[p.doc] += BM25Term(len(x.lens), len(ps), int(p.tf), int(x.lens[p.doc]), avg)
		}
	}
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

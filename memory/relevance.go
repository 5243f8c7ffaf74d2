package memory

import (
	"math"

	"github.com/agentcompact/compact/store"
)

// minRelevance is the least relevance (see relevanceLocked) of a hit's
// turn for retrieval to reserve room for it: 0.3 of what the best message
// the history could hold would score. A generic input ("let's keep
// chatting") matches some earlier turn on a common word; that match is not
// worth the recent turns its reserve would push out. Measured on
// ../shared/eval/chats (docs/eval/chats.md): 0.5 keeps more of the generic
// input's turns but loses questions whose key word (a name the user never
// wrote) is in no message; 0.3 meets both targets at 4k and 8k.
const minRelevance = 0.3

// termStats are the document frequencies of the words (their search keys,
// store.SearchKeys: English stems) of a Memory's
// history, counted once per message (incrementally, as it grows), for the
// relevance of retrieval hits.
type termStats struct {
	gen    uint64 // the Memory's state generation they were counted at
	n      int    // messages counted: the history's first n
	lastID string // the id of message n-1, to notice a replaced history
	df     map[string]int
}

// updateTermsLocked counts the words of the history's messages not counted
// yet (all of them again when the history was replaced). Requires m.mu.
func (m *Memory) updateTermsLocked() *termStats {
	ts := &m.rt.terms
	if ts.df == nil || ts.gen != m.gen || ts.n > m.win.Len() || (ts.n > 0 && m.win.ID(ts.n-1) != ts.lastID) {
		*ts = termStats{gen: m.gen, df: map[string]int{}}
	}
	for ; ts.n < m.win.Len(); ts.n++ {
		for _, w := range store.SearchKeys(textOf(m.win.Message(ts.n))) {
			ts.df[w]++
		}
	}
	if ts.n > 0 {
		ts.lastID = m.win.ID(ts.n - 1)
	}
	return ts
}

// relevanceLocked returns how well the messages at pos match the query
// terms, relative to the query's own score (BM25's term weights without
// its length normalization): the summed inverse document frequencies of
// the query terms the messages contain, over those of all query terms that
// occur in the history at all (a word no message holds cannot be matched).
// 0 when no query term occurs. Requires m.mu.
func (m *Memory) relevanceLocked(ts *termStats, terms []string, pos ...int) float64 {
	has := map[string]bool{}
	for _, p := range pos {
		if p >= 0 && p < m.win.Len() {
			for _, w := range store.SearchKeys(textOf(m.win.Message(p))) {
				has[w] = true
			}
		}
	}
	var self, got float64
	for _, t := range terms {
		df := ts.df[t]
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (float64(ts.n)-float64(df)+0.5)/(float64(df)+0.5))
		self += idf
		if has[t] {
			got += idf
		}
	}
	if self == 0 {
		return 0
	}
	return got / self
}

// relevantHitsLocked returns the hits whose turn (the hit and the
// messages next to it) reaches minRelevance, in their order. Requires m.mu.
func (m *Memory) relevantHitsLocked(query string, hits []store.Hit) []store.Hit {
	ts := m.updateTermsLocked()
	terms := store.SearchKeys(query)
	out := hits[:0:0]
	for _, h := range hits {
		if m.relevanceLocked(ts, terms, h.Pos-1, h.Pos, h.Pos+1) >= minRelevance {
			out = append(out, h)
		}
	}
	return out
}

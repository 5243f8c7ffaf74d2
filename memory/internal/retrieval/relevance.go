package retrieval

import (
	"math"
	"strings"

	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/store"
)

// minRelevance is the least relevance (see relevance) of a hit's
// turn for retrieval to reserve room for it: 0.3 of what the best message
// the history could hold would score. A generic input ("let's keep
// chatting") matches some earlier turn on a common word; that match is not
// worth the recent turns its reserve would push out. Measured on
// ../shared/eval/chats (docs/eval/chats.md): 0.5 keeps more of the generic
// input's turns but loses questions whose key word (a name the user never
// wrote) is in no message; 0.3 meets both targets at 4k and 8k.
const minRelevance = 0.3

// Terms are the document frequencies of the words (their search keys,
// store.SearchKeys: English stems) of a history, counted once per message
// (incrementally, as it grows), for the relevance of retrieval hits. The
// zero value is ready to use; it is guarded by the lock of the history it
// counts.
type Terms struct {
	n      int              // messages counted: the history's first n
	lastID string           // the id of message n-1, to notice a replaced history
	ids    map[string]int32 // a number per search key counted
	df     []int32          // by key number: the messages holding it
	keys   [][]int32        // per message counted, its search keys (distinct), by number
	bits   []uint64         // by key number: its bit in the query weighed (weigh), 0 between queries
	stems  store.StemCache
	// indexed: keep idx too (EnableIndex, index.go).
	indexed bool
	idx     *store.SearchIndex
}

// Reset forgets the counts: the owner replaced the history's messages
// (the next use counts them all again). Requires the lock of the history.
func (ts *Terms) Reset() { ts.ids = nil }

// update counts the words of the history's messages not counted yet (all
// of them again after [Terms.Reset], or when another message stands at the
// last position counted).
func (ts *Terms) update(win *conversation.Log) {
	if ts.ids == nil || ts.n > win.Len() || (ts.n > 0 && win.ID(ts.n-1) != ts.lastID) {
		*ts = Terms{ids: map[string]int32{}, indexed: ts.indexed, stems: ts.stems}
		if ts.indexed {
			ts.idx = store.NewSearchIndex()
		}
	}
	for ; ts.n < win.Len(); ts.n++ {
		text := msg.Text(win.Message(ts.n))
		keys := ts.stems.Keys(text)
		nums := make([]int32, len(keys))
		for i, w := range keys {
			id, ok := ts.ids[w]
			if !ok {
				id = int32(len(ts.df))
				ts.ids[w] = id
				ts.df, ts.bits = append(ts.df, 0), append(ts.bits, 0)
			}
			ts.df[id]++
			nums[i] = id
		}
		ts.keys = append(ts.keys, nums)
		if ts.idx != nil {
			ts.idx.Add(text)
		}
	}
	if ts.n > 0 {
		ts.lastID = win.ID(ts.n - 1)
	}
}

// dfOf returns the number of messages counted that hold search key k.
func (ts *Terms) dfOf(k string) int {
	if id, ok := ts.ids[k]; ok {
		return int(ts.df[id])
	}
	return 0
}

// query is a query's terms (search keys) weighed against the history
// ts counts: each term that occurs in it with its inverse document
// frequency (BM25's term weight), for relevance. Its bits are set in
// ts.bits until done.
type query struct {
	nums []int32   // the terms that occur, by number; term i has bit i
	idf  []float64 // by bit
	self float64   // the sum of idf: the query's own score
}

// weigh returns terms as a query over the history ts counts (at most 64
// terms are weighed; a query has at most 32), its bits set in ts.bits
// until done is called.
func (ts *Terms) weigh(terms []string) query {
	var q query
	for _, t := range terms {
		id, ok := ts.ids[t]
		if !ok || len(q.idf) == 64 || ts.bits[id] != 0 { // absent, or a repeat
			continue
		}
		df := ts.df[id]
		idf := math.Log(1 + (float64(ts.n)-float64(df)+0.5)/(float64(df)+0.5))
		ts.bits[id] = 1 << len(q.idf)
		q.nums = append(q.nums, id)
		q.idf = append(q.idf, idf)
		q.self += idf
	}
	return q
}

// done clears q's bits from ts.bits.
func (ts *Terms) done(q query) {
	for _, id := range q.nums {
		ts.bits[id] = 0
	}
}

// holds returns the set (as their bits in ts.bits) of the weighed query's
// terms the message at p holds; none for a position out of the history
// counted.
func (ts *Terms) holds(p int) uint64 {
	var set uint64
	if p >= 0 && p < len(ts.keys) {
		for _, id := range ts.keys[p] {
			set |= ts.bits[id]
		}
	}
	return set
}

// relevance returns how well the messages whose terms are set match q,
// relative to q's own score (BM25's term weights without its length
// normalization): the summed inverse document frequencies of the query
// terms the messages contain, over those of all query terms that occur in
// the history at all (a word no message holds cannot be matched). 0 when
// no query term occurs.
func (q query) relevance(set uint64) float64 {
	if q.self == 0 {
		return 0
	}
	var got float64
	for i, idf := range q.idf {
		if set&(1<<i) != 0 {
			got += idf
		}
	}
	return got / q.self
}

// Relevant returns the hits whose turn (the hit and the messages next to
// it) reaches a relevance of 0.3 to the query whose words ([store.SearchTerms])
// are words, in their order (hits is not modified), having first counted
// the words of the messages of win not counted yet. Requires the lock of
// win.
func (ts *Terms) Relevant(win *conversation.Log, words []string, hits []store.Hit) []store.Hit {
	ts.update(win)
	q := ts.weigh(ts.stems.TermKeys(words))
	defer ts.done(q)
	sets := make(map[int]uint64, 3*len(hits))
	set := func(p int) uint64 {
		s, ok := sets[p]
		if !ok {
			s = ts.holds(p)
			sets[p] = s
		}
		return s
	}
	out := hits[:0:0]
	for _, h := range hits {
		if q.relevance(set(h.Pos-1)|set(h.Pos)|set(h.Pos+1)) >= minRelevance {
			out = append(out, h)
		}
	}
	return out
}

// RareQuery returns the query words ([store.SearchTerms] of the input)
// whose search keys are not too common in the history
// ([store.CommonTerm], by the document frequencies ts counts),
// space-separated: the query a store's own search (PostgreSQL, SQLite) is
// given, so that it walks no term most of the history holds, as
// [store.SearchIndex] does not. "" when every word is common: then there
// is nothing worth a search. Requires the lock of win.
func (ts *Terms) RareQuery(win *conversation.Log, words []string) string {
	ts.update(win)
	kept := make([]string, 0, len(words))
	for _, w := range words {
		if !store.CommonTerm(ts.dfOf(ts.stems.Key(w)), ts.n) {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

package retrieval

import (
	"slices"
	"strings"
	"unicode"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/store"
)

// index is an inverted index of a history's messages for BM25 ranking:
// the search of a Memory whose history cannot search (see
// [Terms.EnableIndex]). It is appended to as the history grows, under the
// same walk as the document frequencies of [Terms].
type index struct {
	lens     []int32 // words per message
	total    int64
	postings map[string][]posting
	stems    map[string]string // word -> store.SearchKey(word), a cache
}

// posting is one message's count of a key.
type posting struct {
	doc int32
	tf  int32
}

// maxStemCache bounds the stem cache; past it the cache starts afresh.
const maxStemCache = 1 << 16

func newIndex() *index {
	return &index{postings: map[string][]posting{}, stems: map[string]string{}}
}

// add indexes text as the next message: every run of letters and digits,
// lower-cased, under its key (store.SearchKey), as store.ChatHistory's
// index does.
func (x *index) add(text string) {
	doc := int32(len(x.lens))
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	tf := make(map[string]int32, len(words))
	for _, w := range words {
		k, ok := x.stems[w]
		if !ok {
			if len(x.stems) >= maxStemCache {
				clear(x.stems)
			}
			k = store.SearchKey(w)
			x.stems[w] = k
		}
		tf[k]++
	}
	for k, c := range tf {
		x.postings[k] = append(x.postings[k], posting{doc: doc, tf: c})
	}
	x.lens = append(x.lens, int32(len(words)))
	x.total += int64(len(words))
}

// search ranks the messages holding any of keys by BM25, best first (on a
// tie the later message first), at most limit.
func (x *index) search(keys []string, limit int) []store.Hit {
	if len(x.lens) == 0 || limit <= 0 {
		return nil
	}
	avg := float64(x.total) / float64(len(x.lens))
	if avg == 0 {
		avg = 1
	}
	scores := map[int32]float64{}
	for _, k := range keys {
		ps := x.postings[k]
		if len(ps) == 0 {
			continue
		}
		for _, p := range ps {
			scores[p.doc] += store.BM25Term(len(x.lens), len(ps), int(p.tf), int(x.lens[p.doc]), avg)
		}
	}
	hits := make([]store.Hit, 0, len(scores))
	for d, s := range scores {
		hits = append(hits, store.Hit{Pos: int(d), Score: s})
	}
	slices.SortFunc(hits, func(a, b store.Hit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return b.Pos - a.Pos
	})
	return hits[:min(limit, len(hits))]
}

// EnableIndex makes ts keep, besides the document frequencies, a BM25
// index of the history's messages, for [Terms.Search]: the search of a
// history that has none of its own (a schema.ChatMessageHistory without
// store.Searcher, such as langchaingo's memory.NewChatMessageHistory).
// Call it before the first use of ts.
func (ts *Terms) EnableIndex() { ts.indexed = true }

// Search returns at most limit positions of the messages of win best
// matching query by BM25 over their English stems (store.SearchKeys), best
// first, as store.ChatHistory's search ranks them, having first indexed the
// messages of win not indexed yet (gen as for [Terms.Relevant]). Without
// [Terms.EnableIndex] it finds nothing. Requires the lock of win.
func (ts *Terms) Search(win *compact.History, gen uint64, query string, limit int) []store.Hit {
	if !ts.indexed {
		return nil
	}
	ts.update(win, gen)
	keys := store.SearchKeys(query)
	if len(keys) == 0 {
		return nil
	}
	return ts.idx.search(keys, limit)
}

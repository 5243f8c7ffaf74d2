package retrieval

import (
	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/store"
)

// EnableIndex makes ts keep, besides the document frequencies, a BM25
// index of the history's messages, for [Terms.Search]: the search of a
// history that has none of its own (a schema.ChatMessageHistory without
// store.Searcher, such as langchaingo's memory.NewChatMessageHistory).
// Call it before the first use of ts.
func (ts *Terms) EnableIndex() { ts.indexed = true }

// Search returns at most limit positions of the messages of win best
// matching the query whose words ([store.SearchTerms]) are words, by BM25
// over their English stems (store.SearchKeys), best first, as
// store.ChatHistory's search ranks them, having first indexed the messages
// of win not indexed yet. Without [Terms.EnableIndex] it finds nothing.
// Requires the lock of win.
func (ts *Terms) Search(win *conversation.Log, words []string, limit int) []store.Hit {
	if !ts.indexed {
		return nil
	}
	ts.update(win)
	keys := ts.stems.TermKeys(words)
	if len(keys) == 0 {
		return nil
	}
	return ts.idx.Search(keys, limit)
}

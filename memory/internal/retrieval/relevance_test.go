package retrieval

import (
	"fmt"
	"testing"

	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// chatTurn is turn i of a chat about the weather, trains and coffee, but
// for turn 3, which names Marisol in Valparaiso (memory's tests' chat).
func chatTurn(i int) (in, out string) {
	if i == 3 {
		return "By the way, my sister Marisol lives in Valparaiso and works as a marine biologist.", "Valparaiso sounds lovely!"
	}
	return fmt.Sprintf("Turn %d: tell me something about the weather and trains and coffee, please, in some detail.", i),
		fmt.Sprintf("Reply %d: the weather is mild, the trains run on time and the coffee is strong today.", i)
}

// chatHistory returns a history of the first n turns of chatTurn.
func chatHistory(n int) *conversation.Log {
	h := conversation.NewLog(0)
	for i := range n {
		in, out := chatTurn(i)
		h.Append(llms.TextParts(llms.ChatMessageTypeHuman, in))
		h.Append(llms.TextParts(llms.ChatMessageTypeAI, out))
	}
	return h
}

// TestRelevantHits: a hit whose turn holds the rare words of the input is
// relevant; one that shares only a common word with it is not; the word
// counts follow the history.
func TestRelevantHits(t *testing.T) {
	win := chatHistory(20) // turn 3 (positions 6, 7) names Marisol in Valparaiso
	require.Equal(t, 40, win.Len())
	var ts Terms
	hits := []store.Hit{{Pos: 6, Score: 2}, {Pos: 10, Score: 1}}
	got := ts.Relevant(win, store.SearchTerms("Does Marisol still work in Valparaiso with the trains?"), hits)
	assert.Equal(t, []store.Hit{{Pos: 6, Score: 2}}, got, "the Marisol turn, not a turn about trains")
	assert.Empty(t, ts.Relevant(win, store.SearchTerms("Let's keep chatting about nothing."), hits), "no word of the input in the history")
	assert.Equal(t, 40, ts.n)
	assert.Equal(t, 1, ts.dfOf("marisol"))
	assert.Equal(t, 38, ts.dfOf(store.SearchKey("trains")), "one count per message (by stem): both messages of the 19 other turns")
	assert.Len(t, hits, 2, "the caller's hits are not modified")
	for id, b := range ts.bits {
		require.Zero(t, b, "key %d: no query bit is left set between queries", id)
	}
}

// TestRelevanceCountsNewMessages: the word counts grow with the history,
// and start again after a Reset.
func TestRelevanceCountsNewMessages(t *testing.T) {
	win := chatHistory(5)
	var ts Terms
	ts.update(win)
	n := ts.n
	win.Append(llms.TextParts(llms.ChatMessageTypeHuman, "Marisol moved to Lima."))
	win.Append(llms.TextParts(llms.ChatMessageTypeAI, "Lima!"))
	ts.update(win)
	assert.Equal(t, n+2, ts.n)
	assert.Equal(t, 2, ts.dfOf("marisol"))
	ts.df[ts.ids["marisol"]] = 99
	ts.Reset()
	ts.update(win)
	assert.Equal(t, 2, ts.dfOf("marisol"), "after a Reset: counted again")
}

// TestRareQuery: a word most of a long history holds is left out of the
// query a store's search gets; a rare one stays; a query of common words
// alone is empty (no search); a short history keeps every word.
func TestRareQuery(t *testing.T) {
	var ts Terms
	long := chatHistory(300) // 600 messages: weather, trains, coffee in all
	assert.Equal(t, "marisol", ts.RareQuery(long, store.SearchTerms("what about Marisol and the weather?")))
	assert.Equal(t, "", ts.RareQuery(long, store.SearchTerms("the weather and the trains")))
	var short Terms
	assert.Equal(t, "weather trains", short.RareQuery(chatHistory(20), store.SearchTerms("the weather and the trains")))
}

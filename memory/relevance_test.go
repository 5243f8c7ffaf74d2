package memory

import (
	"context"
	"testing"

	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRelevantHits: a hit whose turn holds the rare words of the input is
// relevant; one that shares only a common word with it is not; the word
// counts follow the history as it grows.
func TestRelevantHits(t *testing.T) {
	m := New(testCompactor(t, 2000), WithRetrieval(false))
	fillChat(t, m, 20)                                                                  // turn 3 (positions 6, 7) names Marisol in Valparaiso
	_, err := m.LoadMemoryVariables(context.Background(), map[string]any{"input": "x"}) // reads the last turn
	require.NoError(t, err)
	m.mu.Lock()
	defer m.mu.Unlock()
	require.Equal(t, 40, len(m.msgs))
	hits := []store.Hit{{Pos: 6, Score: 2}, {Pos: 10, Score: 1}}
	got := m.relevantHitsLocked("Does Marisol still work in Valparaiso with the trains?", hits)
	assert.Equal(t, []store.Hit{{Pos: 6, Score: 2}}, got, "the Marisol turn, not a turn about trains")
	assert.Empty(t, m.relevantHitsLocked("Let's keep chatting about nothing.", hits), "no word of the input in the history")
	assert.Equal(t, 40, m.rt.terms.n)
	ts := m.updateTermsLocked()
	assert.Equal(t, 1, ts.df["marisol"])
	assert.Equal(t, 38, ts.df[store.SearchKey("trains")], "one count per message (by stem): both messages of the 19 other turns")
	assert.Len(t, hits, 2, "the caller's hits are not modified")
}

// TestRelevanceCountsNewMessages: the word counts grow with the history.
func TestRelevanceCountsNewMessages(t *testing.T) {
	m := New(testCompactor(t, 2000), WithRetrieval(false))
	fillChat(t, m, 5)
	ctx := context.Background()
	_, err := m.LoadMemoryVariables(ctx, map[string]any{"input": "x"})
	require.NoError(t, err)
	m.mu.Lock()
	n := m.updateTermsLocked().n
	m.mu.Unlock()
	require.NoError(t, m.SaveContext(ctx, map[string]any{"input": "Marisol moved to Lima."}, map[string]any{"output": "Lima!"}))
	_, err = m.LoadMemoryVariables(ctx, map[string]any{"input": "x"})
	require.NoError(t, err)
	m.mu.Lock()
	defer m.mu.Unlock()
	ts := m.updateTermsLocked()
	assert.Equal(t, n+2, ts.n)
	assert.Equal(t, 2, ts.df["marisol"])
}

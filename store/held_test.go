package store_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentcompact/compact/store"
)

// TestHeldOriginalsBudget: within a budget the oldest originals leave
// first and answer ErrEvicted; a ref keeps its first text; without a
// budget every original stays.
func TestHeldOriginalsBudget(t *testing.T) {
	const each = 1000 + 3 + 64 // text, ref "rNN", overhead
	h := store.NewHeldOriginals(10 * each)
	for i := range 50 {
		h.Put(store.Original{Ref: fmt.Sprintf("r%02d", i), Text: fmt.Sprintf("%04d%0996d", i, 0)})
		require.LessOrEqual(t, h.Len(), 10)
	}
	assert.Equal(t, 10, h.Len())
	_, err := h.Original("r00")
	require.ErrorIs(t, err, store.ErrEvicted)
	require.ErrorIs(t, err, store.ErrNotFound)
	got, err := h.Original("r49")
	require.NoError(t, err)
	assert.Equal(t, "0049", got.Text[:4])
	_, err = h.Original("never")
	require.ErrorIs(t, err, store.ErrNotFound)
	assert.NotErrorIs(t, err, store.ErrEvicted)
	hits := h.Search("0048", 5)
	require.Len(t, hits, 1)
	assert.Equal(t, "r48", hits[0].Ref)
	h.Put(store.Original{Ref: "r49", Text: "other"})
	got, _ = h.Original("r49")
	assert.Equal(t, "0049", got.Text[:4], "a ref keeps its first text")
	h.Put(store.Original{Ref: "huge", Text: string(make([]byte, 20*each))})
	_, err = h.Original("huge")
	require.ErrorIs(t, err, store.ErrEvicted, "an original over the whole budget is not kept")

	all := store.NewHeldOriginals(0)
	for i := range 50 {
		all.Put(store.Original{Ref: fmt.Sprintf("r%02d", i), Text: fmt.Sprintf("%04d%0996d", i, 0)})
	}
	assert.Equal(t, 50, all.Len())
	assert.True(t, all.Any())
	assert.False(t, store.NewHeldOriginals(0).Any())
}

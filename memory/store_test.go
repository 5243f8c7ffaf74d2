package memory

import (
	"context"
	"encoding/json"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func rec(id string) Record {
	return Record{SummaryRecord: compact.SummaryRecord{ID: id, Summary: "s " + id, KeyPoints: []string{"k"}}, Positions: []int{1}, SHA256: "h"}
}

func TestMemoryStoreCompareAndSwap(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore()
	st, err := s.Load(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, State{SessionID: "a"}, st)

	st.Chain = []Record{rec("1")}
	st.Engine = json.RawMessage(`{"version":1}`)
	v, err := s.Save(ctx, st, 0)
	require.NoError(t, err)
	assert.Equal(t, int64(1), v)

	// A writer still at version 0 conflicts and changes nothing.
	stale := State{SessionID: "a", Chain: []Record{rec("x")}}
	_, err = s.Save(ctx, stale, 0)
	require.ErrorIs(t, err, ErrConflict)

	// chainFrom appends; the stored prefix is kept.
	st.Version = 1
	st.Chain = []Record{{}, rec("2")}
	v, err = s.Save(ctx, st, 1)
	require.NoError(t, err)
	assert.Equal(t, int64(2), v)
	got, err := s.Load(ctx, "a")
	require.NoError(t, err)
	require.Len(t, got.Chain, 2)
	assert.Equal(t, "1", got.Chain[0].ID)
	assert.Equal(t, "2", got.Chain[1].ID)

	// Loads are copies.
	got.Chain[0].KeyPoints[0] = "changed"
	again, err := s.Load(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, "k", again.Chain[0].KeyPoints[0])

	// chainFrom 0 replaces the chain; out-of-range values are errors.
	st.Version = 2
	st.Chain = nil
	_, err = s.Save(ctx, st, 0)
	require.NoError(t, err)
	got, err = s.Load(ctx, "a")
	require.NoError(t, err)
	assert.Empty(t, got.Chain)
	st.Version = 3
	_, err = s.Save(ctx, st, 1)
	require.Error(t, err)
	n, err := s.Version(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, int64(3), n)
	n, err = s.Version(ctx, "b")
	require.NoError(t, err)
	assert.Zero(t, n)

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = s.Load(cancelled, "a")
	require.ErrorIs(t, err, context.Canceled)
}

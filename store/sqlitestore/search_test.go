package sqlitestore

import (
	"path/filepath"
	"testing"

	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/storetest"
	"github.com/stretchr/testify/require"
)

func TestHistorySearch(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "search.db"))
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	storetest.RunSearch(t, func(t *testing.T) store.IncrementalHistory { return s.History(t.Name()) })
	storetest.RunSearchStems(t, func(t *testing.T) store.IncrementalHistory { return s.History(t.Name() + "-stems") })
}

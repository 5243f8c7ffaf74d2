package pgstore

import (
	"context"
	"testing"

	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/storetest"
	"github.com/stretchr/testify/require"
)

func TestHistorySearch(t *testing.T) {
	s := newTestStore(t)
	storetest.RunSearch(t, func(t *testing.T) store.IncrementalHistory { return s.History(t.Name()) })
	storetest.RunSearchStems(t, func(t *testing.T) store.IncrementalHistory { return s.History(t.Name() + "-stems") })
}

func TestHistorySearchSimpleLanguage(t *testing.T) {
	s := newTestStore(t, WithSearchLanguage("simple"))
	storetest.RunSearch(t, func(t *testing.T) store.IncrementalHistory { return s.History(t.Name()) })
}

func TestSearchLanguageUnknown(t *testing.T) {
	_, err := New(context.Background(), testDSN(t), WithTablePrefix(randomPrefix(t)), WithSearchLanguage("klingon'; DROP TABLE x; --"))
	require.ErrorContains(t, err, "search language")
}

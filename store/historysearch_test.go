package store_test

import (
	"testing"

	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/storetest"
)

func TestChatHistorySearch(t *testing.T) {
	storetest.RunSearch(t, func(t *testing.T) store.IncrementalHistory { return store.NewChatHistory() })
}

func TestChatHistorySearchStems(t *testing.T) {
	storetest.RunSearchStems(t, func(t *testing.T) store.IncrementalHistory { return store.NewChatHistory() })
}

func TestMemoryStoreHistorySearch(t *testing.T) {
	storetest.RunSearch(t, func(t *testing.T) store.IncrementalHistory {
		return store.NewMemory().History(t.Name())
	})
}

func TestMemoryStoreHistorySearchStems(t *testing.T) {
	storetest.RunSearchStems(t, func(t *testing.T) store.IncrementalHistory {
		return store.NewMemory().History(t.Name())
	})
}

package store_test

import (
	"testing"

	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/storetest"
)

func TestMemoryConformance(t *testing.T) {
	storetest.Run(t, func(*testing.T) store.Store { return store.NewMemory() })
}

func TestZeroMemoryConformance(t *testing.T) {
	storetest.Run(t, func(*testing.T) store.Store { return new(store.Memory) })
}

func TestSharedMemoryConformance(t *testing.T) {
	s := store.NewMemory()
	storetest.Run(t, func(*testing.T) store.Store { return s })
}

package storetest_test

import (
	"testing"

	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/storetest"
)

// A store's tests run the harness with a function that opens the store
// under test; here the in-memory store. (Examples cannot be given a
// *testing.T, so this one is compiled, not run; store_test.go in package
// store runs it for real.)
func ExampleRun() {
	var t *testing.T // the *testing.T of a TestXxx function
	storetest.Run(t, func(t *testing.T) store.Store {
		s := store.NewMemory() // open a new store, or a new handle on a shared one
		t.Cleanup(func() {})   // close it when the subtest ends
		return s
	})
}

// A store that keeps only originals (like a cache in front of another
// store) runs that part of the harness alone.
func ExampleRunOriginals() {
	var t *testing.T
	storetest.RunOriginals(t, func(*testing.T) store.OriginalStore { return store.NewMemory() })
}

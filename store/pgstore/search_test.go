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

// TestNoJIT: the pool New opens runs with the server's JIT off, unless the
// DSN sets it.
func TestNoJIT(t *testing.T) {
	p := map[string]string{}
	noJIT(p)
	if p["jit"] != "off" {
		t.Fatalf("jit = %q, want off", p["jit"])
	}
	p = map[string]string{"jit": "on"}
	noJIT(p)
	if p["jit"] != "on" {
		t.Fatalf("a DSN's jit=on was overridden: %q", p["jit"])
	}
	s := newTestStore(t)
	var jit string
	if err := s.Pool().QueryRow(context.Background(), "SHOW jit").Scan(&jit); err != nil {
		t.Fatal(err)
	}
	if jit != "off" {
		t.Fatalf("the server's jit for the store's pool: %q, want off", jit)
	}
}

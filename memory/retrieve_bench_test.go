package memory

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/pgstore"
	"github.com/agentcompact/compact/store/sqlitestore"
	"github.com/tmc/langchaingo/llms"
)

// BenchmarkLoadWithRetrieval measures one LoadMemoryVariables with a
// question as the input, retrieval on (and off, for comparison), on a
// conversation of 1,000 and 10,000 turns, over the in-memory store, SQLite
// and PostgreSQL (COMPACT_POSTGRES_DSN; skipped without a server). The
// conversation is written to the store's history first, then loaded once
// (the first load reads and compacts the whole history; not timed); each
// timed load runs the engine on the window and, with retrieval, searches
// the history.
func BenchmarkLoadWithRetrieval(b *testing.B) {
	for _, turns := range []int{1000, 10000} {
		for _, backend := range []string{"memory", "sqlite", "postgres"} {
			for _, on := range []bool{true, false} {
				b.Run(fmt.Sprintf("turns=%d/store=%s/retrieval=%v", turns, backend, on), func(b *testing.B) {
					benchLoadWithRetrieval(b, turns, backend, on)
				})
			}
		}
	}
}

func benchLoadWithRetrieval(b *testing.B, turns int, backend string, on bool) {
	ctx := context.Background()
	st := benchStore(b, backend)
	session := fmt.Sprintf("bench-%d-%v-%d", turns, on, os.Getpid())
	h := st.History(session)
	msgs := make([]llms.ChatMessage, 0, 2*turns)
	for i := range turns {
		in, out := chatTurn(i)
		msgs = append(msgs, llms.HumanChatMessage{Content: fmt.Sprintf("%s (%d)", in, i)}, llms.AIChatMessage{Content: out})
	}
	if err := h.Clear(ctx); err != nil {
		b.Fatal(err)
	}
	if err := h.AddMessages(ctx, msgs); err != nil {
		b.Fatal(err)
	}
	c := testCompactor(b, 8000)
	m := New(c, WithStore(st), WithSessionID(session), WithRetrieval(on))
	q := map[string]any{"input": "Where does Marisol live, and what does she do?"}
	if _, err := m.LoadMemoryVariables(ctx, q); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.LoadMemoryVariables(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if on && m.RetrievalStats().Retrieved == 0 {
		b.Fatalf("nothing retrieved: %+v", m.RetrievalStats())
	}
}

// benchStore opens the store of a backend, closed when b ends.
func benchStore(b *testing.B, backend string) store.HistoryStore {
	switch backend {
	case "sqlite":
		s, err := sqlitestore.Open(filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		return s
	case "postgres":
		dsn := os.Getenv("COMPACT_POSTGRES_DSN")
		if dsn == "" {
			b.Skip("COMPACT_POSTGRES_DSN is not set")
		}
		s, err := pgstore.New(context.Background(), dsn, pgstore.WithTablePrefix("compact_bench_"))
		if err != nil {
			b.Skipf("no PostgreSQL: %v", err)
		}
		b.Cleanup(s.Close)
		return s
	}
	return store.NewMemory()
}

package memory

import (
	"context"
	"fmt"
	"github.com/agentcompact/compact/internal/pgtest"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentcompact/compact/internal/embedtest"
	"github.com/agentcompact/compact/memory/internal/chat"
	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/pgstore"
	"github.com/agentcompact/compact/store/sqlitestore"
	"github.com/tmc/langchaingo/llms"
)

// BenchmarkLoadWithRetrieval measures one LoadMemoryVariables with a
// question as the input, retrieval on (and off, for comparison), on a
// conversation of 1,000 and 10,000 turns, over the in-memory store, SQLite
// and PostgreSQL (COMPACT_POSTGRES_DSN; skipped without a server); and on
// the in-memory store with hybrid retrieval (retrieval=hybrid: WithEmbedder
// with embedtest's offline embedder of 1,536 dimensions, the size of
// OpenAI's text-embedding-3-small, so that the ranking's dot products cost
// what they would with it; the embedder's own time is not a model's). The
// conversation is written to the store's history first, then loaded once
// (the first load reads and compacts the whole history and, hybrid, embeds
// the messages out of the context; not timed); each timed load runs the
// engine on the window and, with retrieval, searches the history (and,
// hybrid, embeds the input once and ranks the cached vectors).
func BenchmarkLoadWithRetrieval(b *testing.B) {
	for _, turns := range []int{1000, 10000, 100000} {
		for _, backend := range []string{"memory", "sqlite", "postgres"} {
			if turns == 100000 && backend != "postgres" {
				continue // the in-memory index's growth is store.BenchmarkBM25Search's
			}
			for _, mode := range []string{"true", "false", "hybrid"} {
				if mode == "hybrid" && backend != "memory" {
					continue // the ranking is the Memory's, whatever the store
				}
				b.Run(fmt.Sprintf("turns=%d/store=%s/retrieval=%s", turns, backend, mode), func(b *testing.B) {
					var opts []Option
					switch mode {
					case "false":
						opts = append(opts, WithRetrieval(false))
					case "hybrid":
						opts = append(opts, WithEmbedder(embedtest.New(benchEmbedDim)))
					}
					benchLoadWithRetrieval(b, turns, backend, mode != "false", opts...)
				})
			}
		}
	}
}

// benchEmbedDim is the dimension of the benchmarks' embeddings: that of
// OpenAI's text-embedding-3-small.
const benchEmbedDim = 1536

func benchLoadWithRetrieval(b *testing.B, turns int, backend string, on bool, opts ...Option) {
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
	m := New(c, append([]Option{WithStore(st), WithSessionID(session)}, opts...)...)
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
	if st := m.RetrievalStats(); on && (st.Retrieved == 0 || st.SemanticErrors > 0) {
		b.Fatalf("nothing retrieved, or semantic errors: %+v", st)
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
		dsn := pgtest.Getenv()
		s, err := pgstore.New(context.Background(), dsn, pgstore.WithTablePrefix("compact_bench_"))
		if err != nil {
			b.Skipf("no PostgreSQL: %v", err)
		}
		b.Cleanup(s.Close)
		return s
	}
	return store.NewMemory()
}

// BenchmarkSemanticColdCache measures what hybrid retrieval does once for
// a conversation of 10,000 turns, on the first load that needs it (a new
// process): embed every message of the semantic range ([WithEmbeddingLimit],
// default 4,096 messages) in batches of 128 with embedtest's offline
// embedder (1,536 dimensions), cache their unit vectors and rank them. A
// remote model adds its own time for those 32 requests.
func BenchmarkSemanticColdCache(b *testing.B) {
	ctx := context.Background()
	c := testCompactor(b, 8000)
	m := New(c, WithEmbedder(embedtest.New(benchEmbedDim)))
	for i := range 10000 {
		in, out := chatTurn(i)
		m.win.Append(chat.ToContent(llms.HumanChatMessage{Content: fmt.Sprintf("%s (%d)", in, i)}, nil))
		m.win.Append(chat.ToContent(llms.AIChatMessage{Content: out}, nil))
	}
	cut := m.win.Len() - 40
	b.ReportAllocs()
	for b.Loop() {
		m.rt.Sem.Forget()
		if _, err := m.rt.Sem.Hits(ctx, "Where does Marisol live, and what does she do?", cut, m.win, &m.mu); err != nil {
			b.Fatal(err)
		}
	}
}

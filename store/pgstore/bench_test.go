package pgstore

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/middleware"
	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/sqlitestore"
)

// roundTrips counts the statements and batches a pool sends: each is one
// round trip to the server.
type roundTrips struct{ n atomic.Int64 }

func (r *roundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	r.n.Add(1)
	return ctx
}
func (r *roundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (r *roundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	r.n.Add(1)
	return ctx
}
func (r *roundTrips) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (r *roundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

// tracedStore is a test store whose pool counts its round trips.
func tracedStore(tb testing.TB) (*Store, *roundTrips) {
	tb.Helper()
	cfg, err := pgxpool.ParseConfig(testDSN(tb))
	if err != nil {
		tb.Fatal(err)
	}
	rt := &roundTrips{}
	cfg.ConnConfig.Tracer = rt
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(pool.Close)
	return newTestStore(tb, WithPool(pool)), rt
}

// TestRoundTrips pins the round trips of the adapters on PostgreSQL.
func TestRoundTrips(t *testing.T) {
	ctx := context.Background()
	s, rt := tracedStore(t)
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(128_000))
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.New(c, memory.WithStore(s), memory.WithSessionID("rt"))
	turn(t, mem, question(0), answer(0)) // first turn: the state is loaded
	for i := 1; i < 6; i++ {
		before := rt.n.Load()
		_, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": question(i)})
		if err != nil {
			t.Fatal(err)
		}
		load := rt.n.Load() - before
		if err := mem.SaveContext(ctx, map[string]any{"input": question(i)}, map[string]any{"output": answer(i)}); err != nil {
			t.Fatal(err)
		}
		save := rt.n.Load() - before - load
		t.Logf("memory turn %d: %d round trips to load, %d to save", i, load, save)
		if load > 1 || save > 1 {
			t.Errorf("memory turn %d without compaction: %d + %d round trips, want at most 1 + 1", i, load, save)
		}
	}
	llm := middleware.Wrap(&sentModel{}, c, middleware.WithStore(s))
	cctx := middleware.WithSession(ctx, "rt-middleware")
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hello")}
	for i := 0; i < 5; i++ {
		before := rt.n.Load()
		if _, err := llm.GenerateContent(cctx, msgs); err != nil {
			t.Fatal(err)
		}
		if n := rt.n.Load() - before; n != 1 {
			t.Errorf("middleware call %d without compaction: %d round trips, want 1", i, n)
		}
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeAI, "hi"), llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprint("more ", i)))
	}
}

// BenchmarkMemoryTurn is one conversation turn of memory.Memory
// (LoadMemoryVariables and SaveContext, compacting when the trigger says)
// on each store: round trips per turn reported for PostgreSQL.
func BenchmarkMemoryTurn(b *testing.B) {
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(4_000))
	if err != nil {
		b.Fatal(err)
	}
	bench := func(b *testing.B, s store.Store, rt *roundTrips) {
		mem := memory.New(c, memory.WithStore(s), memory.WithSessionID(fmt.Sprint("bench-", b.N)))
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			turn(b, mem, question(i), answer(i))
		}
		if rt != nil {
			b.ReportMetric(float64(rt.n.Load())/float64(b.N), "roundtrips/turn")
		}
	}
	b.Run("store=memory", func(b *testing.B) { bench(b, store.NewMemory(), nil) })
	b.Run("store=sqlite", func(b *testing.B) {
		s, err := sqlitestore.Open(filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		bench(b, s, nil)
	})
	b.Run("store=postgres", func(b *testing.B) {
		s, rt := tracedStore(b)
		rt.n.Store(0)
		bench(b, s, rt)
	})
}

// BenchmarkMiddlewareCall is the wrapper's cost per call when nothing
// compacts, without a store and with one.
func BenchmarkMiddlewareCall(b *testing.B) {
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(128_000))
	if err != nil {
		b.Fatal(err)
	}
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are terse.")}
	for i := 0; i < 20; i++ {
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, question(i)), llms.TextParts(llms.ChatMessageTypeAI, answer(i)))
	}
	msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, "and now?"))
	bench := func(b *testing.B, opts []middleware.Option, rt *roundTrips) {
		llm := middleware.Wrap(&noopModel{}, c, opts...)
		ctx := middleware.WithSession(context.Background(), fmt.Sprint("bench-", b.N))
		if _, err := llm.GenerateContent(ctx, msgs); err != nil {
			b.Fatal(err)
		}
		if rt != nil {
			rt.n.Store(0)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := llm.GenerateContent(ctx, msgs); err != nil {
				b.Fatal(err)
			}
		}
		if rt != nil {
			b.ReportMetric(float64(rt.n.Load())/float64(b.N), "roundtrips/call")
		}
	}
	b.Run("store=none", func(b *testing.B) { bench(b, nil, nil) })
	b.Run("store=memory", func(b *testing.B) {
		bench(b, []middleware.Option{middleware.WithStore(store.NewMemory())}, nil)
	})
	b.Run("store=postgres", func(b *testing.B) {
		s, rt := tracedStore(b)
		bench(b, []middleware.Option{middleware.WithStore(s)}, rt)
	})
}

// noopModel answers at once.
type noopModel struct{}

func (noopModel) GenerateContent(context.Context, []llms.MessageContent, ...llms.CallOption) (*llms.ContentResponse, error) {
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: "ok"}}}, nil
}

func (m noopModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}

package sqlitestore

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/storetest"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

func openTemp(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "memory.db")
	s, err := Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, path
}

func TestOpenErrors(t *testing.T) {
	_, err := Open("")
	require.Error(t, err)
	_, err = Open(filepath.Join(t.TempDir(), "a?b.db"))
	require.Error(t, err)
	_, err = Open(filepath.Join(t.TempDir(), "a.db"), WithSynchronous("OFF"))
	require.Error(t, err)
	_, err = Open(filepath.Join(t.TempDir(), "missing-dir", "a.db"))
	require.Error(t, err)
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, _ := openTemp(t)
		return s
	})
}

// TestConformanceSharedFile runs the harness on one database file, each
// subtest through a new handle, as processes sharing the file would.
func TestConformanceSharedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := Open(path)
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// words returns n deterministic words for turn i.
func words(i, n int) string {
	vocab := strings.Fields("the parser reads config files and retries failed requests with exponential backoff " +
		"while the cache keeps tokens per message so counting a growing conversation stays cheap")
	var b strings.Builder
	fmt.Fprintf(&b, "turn %d:", i)
	for k := 0; k < n; k++ {
		b.WriteByte(' ')
		b.WriteString(vocab[(i*7+k*3)%len(vocab)])
	}
	return b.String()
}

func turn(t testing.TB, m *memory.Memory, i int) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, m.SaveContext(ctx, map[string]any{"input": words(i, 120)}, map[string]any{"output": words(i+1000, 150)}))
	_, err := m.LoadMemoryVariables(ctx, nil)
	require.NoError(t, err)
}

func newCompactor(t testing.TB) *compact.Compactor {
	t.Helper()
	c, err := compact.New(compact.WithContextWindow(2500), compact.WithReservedOutput(0))
	require.NoError(t, err)
	return c
}

// TestSharedDatabase runs two Memories of one session on two handles of one
// database file, as two processes would: their turns interleave, their
// compactions conflict and are redone on top of each other, and nothing is
// lost.
func TestSharedDatabase(t *testing.T) {
	ctx := context.Background()
	c := newCompactor(t)
	s1, path := openTemp(t)
	s2, err := Open(path)
	require.NoError(t, err)
	defer s2.Close()
	a := memory.New(c, memory.WithStore(s1), memory.WithSessionID("shared"))
	b := memory.New(c, memory.WithStore(s2), memory.WithSessionID("shared"))

	var wg sync.WaitGroup
	for g, m := range []*memory.Memory{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				turn(t, m, g*100+i)
			}
		}()
	}
	wg.Wait()
	_, err = a.LoadMemoryVariables(ctx, nil)
	require.NoError(t, err)
	_, err = b.LoadMemoryVariables(ctx, nil)
	require.NoError(t, err)

	msgs, err := s1.History("shared").Messages(ctx)
	require.NoError(t, err)
	require.Len(t, msgs, 80, "every turn of both is in the history")
	for i := 0; i < len(msgs); i += 2 {
		require.Equal(t, llms.ChatMessageTypeHuman, msgs[i].GetType(), "a turn's messages are adjacent")
		require.Equal(t, llms.ChatMessageTypeAI, msgs[i+1].GetType())
	}
	st, err := s1.Load(ctx, "shared")
	require.NoError(t, err)
	require.NotEmpty(t, st.Chain)
	for i := 1; i < len(st.Chain); i++ {
		require.Equal(t, st.Chain[i-1].ID, st.Chain[i].ParentID, "record %d builds on its predecessor: no compaction was overwritten", i)
	}
	ra, err := a.Records(ctx)
	require.NoError(t, err)
	rb, err := b.Records(ctx)
	require.NoError(t, err)
	require.Equal(t, st.Chain, ra)
	require.Equal(t, st.Chain, rb)
	require.NoError(t, a.Verify(ctx))
	require.NoError(t, b.Verify(ctx))
}

// TestStoreAsHistory checks that a Memory given only the store keeps its
// messages in it, and that a new Memory (a restarted process) continues
// exactly as the first one would have.
func TestStoreAsHistory(t *testing.T) {
	ctx := context.Background()
	c := newCompactor(t)
	s, path := openTemp(t)
	ref := memory.New(c, memory.WithReturnMessages(true)) // the same turns, never restarted
	m := memory.New(c, memory.WithStore(s), memory.WithSessionID("u1"), memory.WithReturnMessages(true))
	for i := 0; i < 30; i++ {
		turn(t, m, i)
		turn(t, ref, i)
	}
	sums, err := m.Summaries(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, sums)
	st, err := s.Load(ctx, "u1")
	require.NoError(t, err)
	require.Greater(t, st.UpTo, 0, "the window moved")
	require.NotEmpty(t, st.Kept, "the task stays in the window")
	require.NoError(t, m.Close())
	require.NoError(t, s.Close())

	s2, err := Open(path)
	require.NoError(t, err)
	defer s2.Close()
	m2 := memory.New(c, memory.WithStore(s2), memory.WithSessionID("u1"), memory.WithReturnMessages(true))
	for i := 30; i < 40; i++ {
		turn(t, m2, i)
		turn(t, ref, i)
		got, err := m2.LoadMemoryVariables(ctx, nil)
		require.NoError(t, err)
		want, err := ref.LoadMemoryVariables(ctx, nil)
		require.NoError(t, err)
		require.Equal(t, want, got, "turn %d", i)
	}
	sums2, err := m2.Summaries(ctx)
	require.NoError(t, err)
	require.Equal(t, sums, sums2[:len(sums)])
	require.NoError(t, m2.Clear(ctx))
	msgs, err := s2.History("u1").Messages(ctx)
	require.NoError(t, err)
	require.Empty(t, msgs)
	st, err = s2.Load(ctx, "u1")
	require.NoError(t, err)
	require.Empty(t, st.Chain)
}

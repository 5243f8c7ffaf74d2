package sqlitestore

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/assert"
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

func TestStoreCompareAndSwap(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	st, err := s.Load(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, store.State{SessionID: "a"}, st)

	rec := func(id string) store.Record {
		return store.Record{SummaryRecord: compact.SummaryRecord{ID: id, Summary: "about " + id, KeyPoints: []string{"k"},
			Timestamp: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Mode: compact.ModeRule}, Positions: []int{0, 1}, SHA256: "ab", UpTo: 2}
	}
	st.Engine = json.RawMessage(`{"version":1}`)
	st.Chain = []store.Record{rec("1")}
	st.UpTo, st.HistoryLen, st.Kept = 2, 4, []int{0}
	st.UpdatedAt = time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)
	v, err := s.Save(ctx, st, 0)
	require.NoError(t, err)
	assert.Equal(t, int64(1), v)

	_, err = s.Save(ctx, store.State{SessionID: "a"}, 0)
	require.ErrorIs(t, err, store.ErrConflict, "a stale writer changes nothing")
	got, err := s.Load(ctx, "a")
	require.NoError(t, err)
	want := st
	want.Version = 1
	assert.Equal(t, want, got)

	st.Version = 1
	st.Chain = append(st.Chain, rec("2"))
	_, err = s.Save(ctx, st, 1)
	require.NoError(t, err)
	got, err = s.Load(ctx, "a")
	require.NoError(t, err)
	require.Len(t, got.Chain, 2)
	assert.Equal(t, rec("2"), got.Chain[1])

	st.Version = 2
	_, err = s.Save(ctx, st, 3)
	require.Error(t, err)
	st.Chain = nil
	_, err = s.Save(ctx, st, 0)
	require.NoError(t, err)
	got, err = s.Load(ctx, "a")
	require.NoError(t, err)
	assert.Empty(t, got.Chain)
	n, err := s.Version(ctx, "a")
	require.NoError(t, err)
	assert.Equal(t, int64(3), n)
	n, err = s.Version(ctx, "nobody")
	require.NoError(t, err)
	assert.Zero(t, n)
}

func TestHistoryFullFidelity(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	h := s.History("chat")
	msgs := []llms.ChatMessage{
		llms.SystemChatMessage{Content: "rules"},
		llms.HumanChatMessage{Content: "find the bug"},
		llms.AIChatMessage{Content: "searching", ReasoningContent: "hmm", ToolCalls: []llms.ToolCall{
			{ID: "call_1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "grep", Arguments: `{"q":"panic"}`}},
			{ID: "call_2", Type: "function", FunctionCall: &llms.FunctionCall{Name: "ls", Arguments: `{}`}}}},
		llms.ToolChatMessage{ID: "call_1", Content: "main.go:12: panic(err)"},
		llms.ToolChatMessage{ID: "call_2", Content: "main.go"},
		llms.AIChatMessage{FunctionCall: &llms.FunctionCall{Name: "legacy", Arguments: "{}"}},
		llms.FunctionChatMessage{Name: "legacy", Content: "ok"},
		llms.GenericChatMessage{Role: "critic", Name: "c", Content: "fine"},
	}
	got, err := h.Messages(ctx)
	require.NoError(t, err)
	assert.NotNil(t, got)
	assert.Empty(t, got)
	require.NoError(t, h.AddMessages(ctx, append(msgs[:2:2], nil)))
	require.NoError(t, h.AddMessages(ctx, msgs[2:]))
	got, err = h.Messages(ctx)
	require.NoError(t, err)
	assert.Equal(t, msgs, got)
	since, e1, err := h.MessagesSince(ctx, 6)
	require.NoError(t, err)
	assert.Equal(t, msgs[6:], since)
	since, e2, err := h.MessagesSince(ctx, 100)
	require.NoError(t, err)
	assert.Empty(t, since)
	assert.Equal(t, e1, e2)

	require.NoError(t, h.AddUserMessage(ctx, "u"))
	require.NoError(t, h.AddAIMessage(ctx, "a"))
	got, err = h.Messages(ctx)
	require.NoError(t, err)
	assert.Len(t, got, len(msgs)+2)
	other, err := s.History("other").Messages(ctx)
	require.NoError(t, err)
	assert.Empty(t, other, "sessions are separate")

	require.NoError(t, h.SetMessages(ctx, msgs[:1]))
	got, e3, err := h.MessagesSince(ctx, 0)
	require.NoError(t, err)
	assert.Equal(t, msgs[:1], got)
	assert.NotEqual(t, e1, e3)
	require.NoError(t, h.Clear(ctx))
	got, e4, err := h.MessagesSince(ctx, 0)
	require.NoError(t, err)
	assert.Empty(t, got)
	assert.NotEqual(t, e3, e4)
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

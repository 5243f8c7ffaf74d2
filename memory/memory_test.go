package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	lcmemory "github.com/tmc/langchaingo/memory"
	"github.com/tmc/langchaingo/schema"
)

// talk saves n turns of real text through m and loads after each one.
func talk(t *testing.T, m *Memory, from, n int) {
	t.Helper()
	ins, outs := corpusTexts(t)
	ctx := context.Background()
	for i := from; i < from+n; i++ {
		require.NoError(t, m.SaveContext(ctx, map[string]any{"input": fmt.Sprintf("#%d %s", i, ins[i%len(ins)])},
			map[string]any{"output": outs[(i*7)%len(outs)]}))
		_, err := m.LoadMemoryVariables(ctx, nil)
		require.NoError(t, err)
	}
}

func loadMessages(t *testing.T, m *Memory) []llms.ChatMessage {
	t.Helper()
	v, err := m.LoadMemoryVariables(context.Background(), nil)
	require.NoError(t, err)
	return v[m.GetMemoryKey(context.Background())].([]llms.ChatMessage)
}

func TestOriginalsKeptAndAudited(t *testing.T) {
	ctx := context.Background()
	h := lcmemory.NewChatMessageHistory() // not incremental, not thread-safe
	m := New(testCompactor(t, 3000), WithChatHistory(h), WithReturnMessages(true))
	talk(t, m, 0, 30)

	msgs, err := h.Messages(ctx)
	require.NoError(t, err)
	require.Len(t, msgs, 60, "no original is ever deleted")
	for _, cm := range msgs {
		require.NotEqual(t, llms.ChatMessageTypeSystem, cm.GetType(), "no summary stored as a system message")
		require.NotContains(t, cm.GetContent(), compact.SummaryPreamble)
	}

	view := loadMessages(t, m)
	require.IsType(t, llms.HumanChatMessage{}, view[0])
	require.True(t, strings.HasPrefix(view[0].GetContent(), compact.SummaryPreamble))
	require.Equal(t, msgs[len(msgs)-1], view[len(view)-1])

	recs, err := m.Records(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, recs)
	ids := compact.MessageIDs(Contents(msgs))
	covered := map[int]bool{}
	for i, r := range recs {
		require.Len(t, r.OriginalMessageIDs, len(r.Positions))
		for k, p := range r.Positions {
			require.Equal(t, ids[p], r.OriginalMessageIDs[k], "record %d: ids are those of the whole history", i)
			require.False(t, covered[p], "position %d condensed twice", p)
			covered[p] = true
		}
		sum, err := HashMessages(pick(msgs, r.Positions))
		require.NoError(t, err)
		require.Equal(t, sum, r.SHA256)
		if i > 0 {
			require.Equal(t, recs[i-1].ID, r.ParentID, "the chain is linear")
			require.GreaterOrEqual(t, r.UpTo, recs[i-1].UpTo)
		}
	}
	m.mu.Lock()
	kept := map[int]bool{}
	for _, p := range m.win.Kept() {
		kept[p] = true
	}
	m.mu.Unlock()
	require.True(t, kept[0], "the task (first human message) is pinned by the engine")
	for p := 0; p < recs[len(recs)-1].UpTo; p++ {
		require.True(t, covered[p] != kept[p], "position %d before the summarized-up-to position is either covered or kept", p)
	}
	sums, err := m.Summaries(ctx)
	require.NoError(t, err)
	require.Len(t, sums, len(recs))
	require.Equal(t, recs[len(recs)-1].SummaryRecord, sums[len(sums)-1])
	require.NoError(t, m.Verify(ctx))

	st, err := m.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, 60, st.MessagesTotal)
	assert.Equal(t, len(covered), st.MessagesSummarized)
	assert.Equal(t, len(recs), st.Summaries)
	assert.Positive(t, st.Compactions)
	assert.Positive(t, st.TokensSaved)
	assert.Equal(t, st.TokensOriginal-st.TokensActive, st.TokensSaved)
	assert.InDelta(t, float64(st.TokensActive)/float64(st.TokensOriginal), st.CompressionRatio, 1e-9)
	assert.LessOrEqual(t, st.TokensActive, 3000)

	// Tampering with a summarized original is detected.
	tampered := append([]llms.ChatMessage(nil), msgs...)
	tampered[recs[0].Positions[0]] = llms.HumanChatMessage{Content: "rewritten"}
	require.NoError(t, h.SetMessages(ctx, tampered))
	require.ErrorIs(t, m.Verify(ctx), ErrIntegrity)
}

func pick(msgs []llms.ChatMessage, pos []int) []llms.ChatMessage {
	out := make([]llms.ChatMessage, len(pos))
	for i, p := range pos {
		out[i] = msgs[p]
	}
	return out
}

func TestStringModeSummaryLine(t *testing.T) {
	ctx := context.Background()
	m := New(testCompactor(t, 3000), WithHumanPrefix("User"), WithAIPrefix("Bot"))
	talk(t, m, 0, 30)
	v, err := m.LoadMemoryVariables(ctx, nil)
	require.NoError(t, err)
	s := v["history"].(string)
	require.True(t, strings.HasPrefix(s, compact.SummaryPreamble), "the summary opens the history with its own label: %.80q", s)
	after := s[strings.Index(s, "\nUser: "):]
	assert.Contains(t, after, "\nBot: ")
	assert.NotContains(t, s, "User: "+compact.SummaryPreamble)
}

// betweenResetAndTrigger returns a Memory over 10 turns whose window puts
// them between the engine's reset and trigger ratios: nothing is compacted
// until asked.
func betweenResetAndTrigger(t *testing.T, opts ...Option) *Memory {
	t.Helper()
	h := store.NewChatHistory()
	probe := New(testCompactor(t, 128_000), WithChatHistory(h))
	talk(t, probe, 0, 10)
	st, err := probe.Stats(context.Background())
	require.NoError(t, err)
	window := int(float64(st.TokensOriginal) / ((compact.SpecTriggerRatio + compact.SpecResetRatio) / 2))
	return New(testCompactor(t, window), append([]Option{WithChatHistory(h)}, opts...)...)
}

func TestCompactOnDemand(t *testing.T) {
	ctx := context.Background()
	m := betweenResetAndTrigger(t, WithReturnMessages(true))
	before := loadMessages(t, m)
	require.Len(t, before, 20, "below the trigger: nothing compacted")
	sums, err := m.Summaries(ctx)
	require.NoError(t, err)
	require.Empty(t, sums)

	require.NoError(t, m.Compact(ctx))
	after := loadMessages(t, m)
	require.Less(t, len(after), len(before))
	require.True(t, strings.HasPrefix(after[0].GetContent(), compact.SummaryPreamble))
	sums, err = m.Summaries(ctx)
	require.NoError(t, err)
	require.Len(t, sums, 1)
	require.Equal(t, compact.ModeRule, sums[0].Mode)
	st, err := m.Stats(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, st.Compactions)
}

func TestClear(t *testing.T) {
	ctx := context.Background()
	ms := store.NewMemory()
	h := store.NewChatHistory()
	m := New(testCompactor(t, 3000), WithStore(ms), WithChatHistory(h), WithReturnMessages(true))
	talk(t, m, 0, 20)
	v1, err := ms.Version(ctx, DefaultSessionID)
	require.NoError(t, err)
	require.Positive(t, v1)

	require.NoError(t, m.Clear(ctx))
	msgs, err := h.Messages(ctx)
	require.NoError(t, err)
	assert.Empty(t, msgs)
	assert.Empty(t, loadMessages(t, m))
	sums, err := m.Summaries(ctx)
	require.NoError(t, err)
	assert.Empty(t, sums)
	st, err := ms.Load(ctx, DefaultSessionID)
	require.NoError(t, err)
	assert.Greater(t, st.Version, v1)
	assert.Empty(t, st.Chain)
	assert.Zero(t, st.UpTo)

	talk(t, m, 100, 2)
	require.Len(t, loadMessages(t, m), 4)
}

func TestRestoreFromStore(t *testing.T) {
	ctx := context.Background()
	c := testCompactor(t, 3000)
	ms := store.NewMemory()
	h := store.NewChatHistory()
	ref := New(c, WithReturnMessages(true)) // the same turns, never restarted
	m1 := New(c, WithStore(ms), WithChatHistory(h), WithReturnMessages(true))
	talk(t, m1, 0, 25)
	talk(t, ref, 0, 25)
	recs1, err := m1.Records(ctx)
	require.NoError(t, err)
	require.NoError(t, m1.Close())
	st, err := ms.Load(ctx, DefaultSessionID)
	require.NoError(t, err)
	require.Positive(t, st.UpTo, "the window moved")

	// A new Memory on the same store and history continues exactly where m1
	// stopped.
	m2 := New(c, WithStore(ms), WithChatHistory(h), WithReturnMessages(true))
	require.Equal(t, loadMessages(t, ref), loadMessages(t, m2))
	recs2, err := m2.Records(ctx)
	require.NoError(t, err)
	require.Equal(t, recs1, recs2)
	for i := 25; i < 35; i++ {
		talk(t, m2, i, 1)
		talk(t, ref, i, 1)
		require.Equal(t, loadMessages(t, ref), loadMessages(t, m2), "turn %d", i)
	}
	require.NoError(t, m2.Verify(ctx))

	// A stored state that does not match the history is discarded, not trusted.
	m3 := New(c, WithStore(ms), WithChatHistory(store.NewChatHistory()), WithReturnMessages(true))
	assert.Empty(t, loadMessages(t, m3))
	sums, err := m3.Summaries(ctx)
	require.NoError(t, err)
	assert.Empty(t, sums)
}

// TestSharedStoreNoLostWork runs two Memories of one session over one
// history and one store, taking turns: every compaction of either builds on
// the other's, and no record is lost.
func TestSharedStoreNoLostWork(t *testing.T) {
	ctx := context.Background()
	c := testCompactor(t, 3000)
	ms := store.NewMemory()
	h := store.NewChatHistory()
	a := New(c, WithStore(ms), WithChatHistory(h))
	b := New(c, WithStore(ms), WithChatHistory(h))
	for i := 0; i < 30; i++ {
		talk(t, []*Memory{a, b}[i%2], i, 1)
	}
	_, err := a.LoadMemoryVariables(ctx, nil)
	require.NoError(t, err)
	_, err = b.LoadMemoryVariables(ctx, nil)
	require.NoError(t, err)
	recsA, err := a.Records(ctx)
	require.NoError(t, err)
	recsB, err := b.Records(ctx)
	require.NoError(t, err)
	require.Equal(t, recsA, recsB, "both see the same chain")
	st, err := ms.Load(ctx, DefaultSessionID)
	require.NoError(t, err)
	require.Equal(t, recsA, st.Chain)
	for i := 1; i < len(st.Chain); i++ {
		require.Equal(t, st.Chain[i-1].ID, st.Chain[i].ParentID, "record %d builds on the previous one", i)
	}
	require.NoError(t, a.Verify(ctx))
}

// hookStore runs before once, just before the first Save it is given.
type hookStore struct {
	*store.Memory
	before func()
}

func (s *hookStore) Save(ctx context.Context, st store.State, from int) (int64, error) {
	if f := s.before; f != nil {
		s.before = nil
		f()
	}
	return s.Memory.Save(ctx, st, from)
}

// TestConflictRedone makes another Memory save a compaction while this one
// is about to save its own: this one's save conflicts, and it runs again on
// top of the other's state instead of overwriting it (here the other's
// compaction already did the work, so no second summary is made).
func TestConflictRedone(t *testing.T) {
	ctx := context.Background()
	a := betweenResetAndTrigger(t)
	shared := store.NewMemory()
	a.store = shared
	a.replica = conversation.NewReplica(shared)
	hs := &hookStore{Memory: shared}
	b := New(a.c, WithChatHistory(a.hist), WithStore(hs))
	_, err := a.LoadMemoryVariables(ctx, nil)
	require.NoError(t, err)
	_, err = b.LoadMemoryVariables(ctx, nil)
	require.NoError(t, err)
	hs.before = func() { require.NoError(t, a.Compact(ctx)) }
	require.NoError(t, b.Compact(ctx))

	st, err := shared.Load(ctx, DefaultSessionID)
	require.NoError(t, err)
	require.Equal(t, int64(2), st.Version, "a saved, then b saved on top")
	ra, err := a.Records(ctx)
	require.NoError(t, err)
	require.Len(t, ra, 1)
	require.Equal(t, ra, st.Chain, "a's summary was not overwritten")
	rb, err := b.Records(ctx)
	require.NoError(t, err)
	require.Equal(t, st.Chain, rb, "b adopted it")
	require.NoError(t, b.Verify(ctx))
}

// nilHistory returns nil entries among its messages.
type nilHistory struct{ *lcmemory.ChatMessageHistory }

func (h nilHistory) Messages(ctx context.Context) ([]llms.ChatMessage, error) {
	msgs, err := h.ChatMessageHistory.Messages(ctx)
	out := []llms.ChatMessage{nil}
	for _, m := range msgs {
		out = append(out, m, nil, (*llms.AIChatMessage)(nil))
	}
	return out, err
}

// lossyHistory keeps only the content of human and AI messages, like a
// store with a text column per message, and ignores SetMessages.
type lossyHistory struct {
	mu       sync.Mutex
	msgs     []llms.ChatMessage
	setCalls int
}

func (h *lossyHistory) AddMessage(_ context.Context, m llms.ChatMessage) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch m.GetType() {
	case llms.ChatMessageTypeHuman:
		h.msgs = append(h.msgs, llms.HumanChatMessage{Content: m.GetContent()})
	case llms.ChatMessageTypeAI:
		h.msgs = append(h.msgs, llms.AIChatMessage{Content: m.GetContent()})
	}
	return nil
}
func (h *lossyHistory) AddUserMessage(ctx context.Context, s string) error {
	return h.AddMessage(ctx, llms.HumanChatMessage{Content: s})
}
func (h *lossyHistory) AddAIMessage(ctx context.Context, s string) error {
	return h.AddMessage(ctx, llms.AIChatMessage{Content: s})
}
func (h *lossyHistory) Clear(context.Context) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.msgs = nil
	return nil
}
func (h *lossyHistory) Messages(context.Context) ([]llms.ChatMessage, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]llms.ChatMessage(nil), h.msgs...), nil
}
func (h *lossyHistory) SetMessages(context.Context, []llms.ChatMessage) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.setCalls++
	return nil
}

func TestDefensiveHistories(t *testing.T) {
	ctx := context.Background()
	t.Run("nil entries", func(t *testing.T) {
		h := nilHistory{lcmemory.NewChatMessageHistory()}
		m := New(testCompactor(t, 3000), WithChatHistory(h), WithReturnMessages(true))
		talk(t, m, 0, 20)
		view := loadMessages(t, m)
		for _, cm := range view {
			require.NotNil(t, cm)
		}
		require.NoError(t, m.Verify(ctx))
		st, err := m.Stats(ctx)
		require.NoError(t, err)
		require.Equal(t, 40, st.MessagesTotal)
	})
	t.Run("drops tool messages and ignores SetMessages", func(t *testing.T) {
		h := &lossyHistory{}
		m := New(testCompactor(t, 128_000), WithChatHistory(h))
		steps := []schema.AgentStep{{Action: schema.AgentAction{Tool: "weather", ToolInput: "Paris", Log: "checking"}, Observation: "22°C"}}
		require.NoError(t, m.SaveContext(ctx, map[string]any{"input": "Weather?"},
			map[string]any{"output": "Warm.", "intermediateSteps": steps}))
		v, err := m.LoadMemoryVariables(ctx, nil)
		require.NoError(t, err)
		s := v["history"].(string)
		assert.Contains(t, s, `weather("Paris") returned:`+"\n22°C", "the tool facts survive as text")
		assert.True(t, strings.HasSuffix(s, "AI: Warm."))
		// Later turns go straight to text.
		require.NoError(t, m.SaveContext(ctx, map[string]any{"input": "Tomorrow?"},
			map[string]any{"output": "Cooler.", "intermediateSteps": steps}))
		msgs, err := h.Messages(ctx)
		require.NoError(t, err)
		assert.Len(t, msgs, 4+3)
		require.NoError(t, m.Compact(ctx))
		assert.Zero(t, h.setCalls, "the Memory never calls SetMessages")
	})
	t.Run("history replaced under the chain", func(t *testing.T) {
		h := store.NewChatHistory()
		m := New(testCompactor(t, 3000), WithChatHistory(h), WithReturnMessages(true))
		talk(t, m, 0, 20)
		replaced := []llms.ChatMessage{llms.HumanChatMessage{Content: "a new conversation"}, llms.AIChatMessage{Content: "indeed"}}
		require.NoError(t, h.SetMessages(ctx, replaced))
		require.Equal(t, replaced, loadMessages(t, m))
		sums, err := m.Summaries(ctx)
		require.NoError(t, err)
		assert.Empty(t, sums)
	})
}

// TestViewKeepsMessageTypes checks that messages the engine passes through
// are returned as the history's own values after a compaction.
func TestViewKeepsMessageTypes(t *testing.T) {
	ctx := context.Background()
	h := store.NewChatHistory()
	m := New(testCompactor(t, 3000), WithChatHistory(h), WithReturnMessages(true))
	talk(t, m, 0, 20)
	g := llms.GenericChatMessage{Role: "critic", Name: "c", Content: "too long"}
	require.NoError(t, h.AddMessage(ctx, g))
	view := loadMessages(t, m)
	require.True(t, strings.HasPrefix(view[0].GetContent(), compact.SummaryPreamble))
	require.Equal(t, g, view[len(view)-1])
}

func TestToolRoundsOption(t *testing.T) {
	ctx := context.Background()
	steps := []schema.AgentStep{{Action: schema.AgentAction{Tool: "t", ToolInput: "x"}, Observation: "y"}}
	for _, on := range []bool{true, false} {
		h := store.NewChatHistory()
		m := New(testCompactor(t, 128_000), WithChatHistory(h), WithToolRounds(on))
		require.NoError(t, m.SaveContext(ctx, map[string]any{"input": "q"}, map[string]any{"output": "a", "intermediateSteps": steps}))
		msgs, err := h.Messages(ctx)
		require.NoError(t, err)
		if on {
			assert.Len(t, msgs, 4)
		} else {
			assert.Equal(t, []llms.ChatMessage{llms.HumanChatMessage{Content: "q"}, llms.AIChatMessage{Content: "a"}}, msgs)
		}
	}
	// With an explicit output key the steps are still recorded, and other
	// outputs do not matter.
	h := store.NewChatHistory()
	m := New(testCompactor(t, 128_000), WithChatHistory(h), WithOutputKey("output"))
	require.NoError(t, m.SaveContext(ctx, map[string]any{"input": "q"}, map[string]any{"output": "a", "b": "2", "intermediateSteps": steps}))
	msgs, err := h.Messages(ctx)
	require.NoError(t, err)
	assert.Len(t, msgs, 4)
	// Without it, several plain outputs are an error, as for ConversationBuffer.
	m2 := New(testCompactor(t, 128_000))
	err = m2.SaveContext(ctx, map[string]any{"input": "q"}, map[string]any{"a": "1", "b": "2", "intermediateSteps": steps})
	require.ErrorIs(t, err, lcmemory.ErrInvalidInputValues)
}

func TestNilCompactorUsesDefaults(t *testing.T) {
	m := New(nil, nil, WithReturnMessages(true))
	talk(t, m, 0, 2)
	require.Len(t, loadMessages(t, m), 4)
}

// failingStore fails every Save with an I/O error.
type failingStore struct{ *store.Memory }

var errDisk = errors.New("disk full")

func (failingStore) Save(context.Context, store.State, int) (int64, error) { return 0, errDisk }

// TestSaveFailure: a compaction whose state cannot be saved is not kept;
// the Memory is the stored state again (never a half state), and the
// error names the store's failure.
func TestSaveFailure(t *testing.T) {
	ctx := context.Background()
	fast := conversation.Backoff{Attempts: 3, Base: time.Millisecond, Max: time.Millisecond}
	m := betweenResetAndTrigger(t, WithStore(failingStore{store.NewMemory()}), WithReturnMessages(true), WithBackoff(fast))
	err := m.Compact(ctx)
	require.ErrorIs(t, err, errDisk, "an explicit compaction reports the failed save")
	require.ErrorContains(t, err, "3 attempts")
	recs, err := m.Records(ctx)
	require.NoError(t, err)
	require.Empty(t, recs, "the unsaved record is dropped")
	require.NoError(t, m.Close(), "nothing unsaved is left for Close")
	require.ErrorIs(t, m.SaveContext(ctx, map[string]any{"input": "x"}, map[string]any{"output": "y"}), ErrClosed)
	_, err = m.LoadMemoryVariables(ctx, nil)
	require.ErrorIs(t, err, ErrClosed)
	require.NoError(t, m.Close(), "Close is idempotent")
}

func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	m := New(testCompactor(t, 3000))
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 15; i++ {
				assert.NoError(t, m.SaveContext(ctx, map[string]any{"input": fmt.Sprintf("g%d turn %d", g, i)}, map[string]any{"output": strings.Repeat("word ", 60)}))
				_, err := m.LoadMemoryVariables(ctx, nil)
				assert.NoError(t, err)
				_, err = m.Stats(ctx)
				assert.NoError(t, err)
			}
		}()
	}
	wg.Wait()
	st, err := m.Stats(ctx)
	require.NoError(t, err)
	require.Equal(t, 4*15*2, st.MessagesTotal)
	require.NoError(t, m.Verify(ctx))
}

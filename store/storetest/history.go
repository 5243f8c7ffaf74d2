package storetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// RunHistory runs the conformance tests of a [store.HistoryStore] (its
// Store part is tested by Run) as subtests of t. open is called once per
// subtest, as in Run.
func RunHistory(t *testing.T, open func(t *testing.T) store.HistoryStore) {
	t.Helper()
	runChecks(t, open, []check[store.HistoryStore]{
		{"Empty", historyEmpty},
		{"FullFidelity", historyFullFidelity},
		{"Since", historySince},
		{"Epoch", historyEpoch},
		{"Copies", historyCopies},
		{"Isolation", historyIsolation},
		{"ConcurrentTurns", historyConcurrent},
		{"Cancelled", historyCancelled},
		{"Large", historyLarge},
		{"InvalidUTF8", historyInvalidUTF8},
	})
}

// kinds returns messages of every kind a history keeps in full.
func kinds(tag string) []llms.ChatMessage {
	return []llms.ChatMessage{
		llms.SystemChatMessage{Content: "rules " + tag},
		llms.HumanChatMessage{Content: "find the bug " + tag},
		llms.AIChatMessage{Content: "searching", ReasoningContent: "hmm " + tag, ToolCalls: []llms.ToolCall{
			{ID: "call_1" + tag, Type: "function", FunctionCall: &llms.FunctionCall{Name: "grep", Arguments: `{"q":"panic"}`}},
			{ID: "call_2" + tag, Type: "function", FunctionCall: &llms.FunctionCall{Name: "ls", Arguments: `{}`}}}},
		llms.ToolChatMessage{ID: "call_1" + tag, Content: "main.go:12: panic(err)"},
		llms.ToolChatMessage{ID: "call_2" + tag, Content: "main.go"},
		llms.AIChatMessage{FunctionCall: &llms.FunctionCall{Name: "legacy", Arguments: "{}"}},
		llms.FunctionChatMessage{Name: "legacy", Content: "ok " + tag},
		llms.GenericChatMessage{Role: "critic", Name: "c", Content: "fine " + tag},
		llms.HumanChatMessage{},
	}
}

// since reads a history from a position, failing the test on an error.
func since(t *testing.T, h store.IncrementalHistory, from int) ([]llms.ChatMessage, uint64) {
	t.Helper()
	msgs, epoch, err := h.MessagesSince(context.Background(), from)
	require.NoError(t, err, "MessagesSince(%d)", from)
	return msgs, epoch
}

func all(t *testing.T, h store.IncrementalHistory) []llms.ChatMessage {
	t.Helper()
	msgs, err := h.Messages(context.Background())
	require.NoError(t, err)
	require.NotNil(t, msgs, "Messages never returns nil")
	return msgs
}

func historyEmpty(t *testing.T, s store.HistoryStore) {
	h := s.History(id(t, "empty"))
	assert.Empty(t, all(t, h))
	msgs, e0 := since(t, h, 0)
	assert.Empty(t, msgs)
	msgs, e1 := since(t, h, 5)
	assert.Empty(t, msgs)
	assert.Equal(t, e0, e1, "reads do not change the epoch")
}

func historyFullFidelity(t *testing.T, s store.HistoryStore) {
	ctx := context.Background()
	h := s.History(id(t, "fidelity"))
	msgs := kinds("")
	require.NoError(t, h.AddMessages(ctx, append(msgs[:2:2], nil, (*llms.AIChatMessage)(nil))))
	require.NoError(t, h.AddMessages(ctx, msgs[2:]))
	require.NoError(t, h.AddMessage(ctx, nil))
	require.NoError(t, h.AddMessages(ctx, nil))
	assert.Equal(t, msgs, all(t, h), "every field of every kind of message is kept; nil messages are skipped")

	require.NoError(t, h.AddUserMessage(ctx, "u"))
	require.NoError(t, h.AddAIMessage(ctx, "a"))
	require.NoError(t, h.AddMessage(ctx, llms.ToolChatMessage{ID: "x", Content: "y"}))
	msgs = append(msgs, llms.HumanChatMessage{Content: "u"}, llms.AIChatMessage{Content: "a"}, llms.ToolChatMessage{ID: "x", Content: "y"})
	assert.Equal(t, msgs, all(t, h))

	// A message type the store does not know keeps its type and content.
	custom := customMessage{"note"}
	require.NoError(t, h.AddMessage(ctx, custom))
	got := all(t, h)
	require.Len(t, got, len(msgs)+1)
	last := got[len(got)-1]
	if last != llms.ChatMessage(custom) {
		assert.Equal(t, store.OtherMessage{Type: "custom", Content: "note"}, last)
	}
}

type customMessage struct{ text string }

func (m customMessage) GetType() llms.ChatMessageType { return "custom" }
func (m customMessage) GetContent() string            { return m.text }

func historySince(t *testing.T, s store.HistoryStore) {
	ctx := context.Background()
	h := s.History(id(t, "since"))
	msgs := kinds("")
	require.NoError(t, h.AddMessages(ctx, msgs))
	_, epoch := since(t, h, 0)
	for from := -2; from <= len(msgs)+2; from++ {
		got, e := since(t, h, from)
		want := msgs[min(max(from, 0), len(msgs)):]
		if len(want) == 0 {
			assert.Empty(t, got, "from %d", from)
		} else {
			assert.Equal(t, want, got, "from %d", from)
		}
		assert.Equal(t, epoch, e)
	}
}

func historyEpoch(t *testing.T, s store.HistoryStore) {
	ctx := context.Background()
	h := s.History(id(t, "epoch"))
	_, e0 := since(t, h, 0)
	require.NoError(t, h.AddMessages(ctx, kinds("1")))
	_, e1 := since(t, h, 0)
	require.Equal(t, e0, e1, "the first append does not change the epoch")
	require.NoError(t, h.AddMessage(ctx, llms.HumanChatMessage{Content: "more"}))
	require.NoError(t, h.AddUserMessage(ctx, "and more"))
	_, e2 := since(t, h, 3)
	require.Equal(t, e1, e2, "appends do not change the epoch")

	seen := []uint64{e2}
	replaced := []llms.ChatMessage{llms.HumanChatMessage{Content: "replaced"}, llms.AIChatMessage{Content: "too"}}
	require.NoError(t, h.SetMessages(ctx, append([]llms.ChatMessage{nil}, replaced...)))
	got, e3 := since(t, h, 0)
	require.Equal(t, replaced, got, "SetMessages replaces the messages (nil skipped)")
	require.NotContains(t, seen, e3, "SetMessages starts a new epoch")
	seen = append(seen, e3)

	require.NoError(t, h.Clear(ctx))
	got, e4 := since(t, h, 0)
	require.Empty(t, got)
	require.NotContains(t, seen, e4, "Clear starts a new epoch, never an earlier one")
	seen = append(seen, e4)

	require.NoError(t, h.AddUserMessage(ctx, "after clear"))
	got, e5 := since(t, h, 0)
	require.Equal(t, []llms.ChatMessage{llms.HumanChatMessage{Content: "after clear"}}, got)
	require.Equal(t, e4, e5, "appends after Clear keep its epoch")

	require.NoError(t, h.SetMessages(ctx, replaced))
	_, e6 := since(t, h, 0)
	require.NotContains(t, seen, e6, "SetMessages of the same messages starts a new epoch too")
}

func historyCopies(t *testing.T, s store.HistoryStore) {
	ctx := context.Background()
	h := s.History(id(t, "copies"))
	in := kinds("")
	want := kinds("")
	require.NoError(t, h.AddMessages(ctx, in))
	for i := range in {
		in[i] = llms.HumanChatMessage{Content: "changed"}
	}
	require.Equal(t, want, all(t, h), "AddMessages does not retain the caller's slice")
	got := all(t, h)
	for i := range got {
		got[i] = llms.HumanChatMessage{Content: "changed"}
	}
	got, _ = since(t, h, 2)
	for i := range got {
		got[i] = nil
	}
	require.Equal(t, want, all(t, h), "Messages and MessagesSince return slices owned by the caller")
	set := kinds("set")
	require.NoError(t, h.SetMessages(ctx, set))
	set[0] = nil
	require.Equal(t, kinds("set"), all(t, h), "SetMessages does not retain the caller's slice")
}

func historyIsolation(t *testing.T, s store.HistoryStore) {
	ctx := context.Background()
	names := trickyNames()
	sids := ids(t, names...)
	for i, sid := range sids {
		h := s.History(sid)
		for k := 0; k <= i%3; k++ {
			require.NoError(t, h.AddMessages(ctx, []llms.ChatMessage{llms.HumanChatMessage{Content: fmt.Sprint(i, "/", k)}}))
		}
	}
	// Clearing one session changes no other.
	require.NoError(t, s.History(sids[0]).Clear(ctx))
	for i, sid := range sids {
		var want []llms.ChatMessage
		if i > 0 {
			for k := 0; k <= i%3; k++ {
				want = append(want, llms.HumanChatMessage{Content: fmt.Sprint(i, "/", k)})
			}
		}
		got := all(t, s.History(sid))
		if len(want) == 0 {
			require.Empty(t, got, "session %q", names[i])
		} else {
			require.Equal(t, want, got, "session %q sees only its own history", names[i])
		}
		// A history is not a State: writing it changes no version.
		v, err := s.Version(ctx, sid)
		require.NoError(t, err)
		require.Zero(t, v, "a history write does not change the session's state")
	}
	for _, n := range []string{"a%b", "a_b", "%%", ""} {
		require.Empty(t, all(t, s.History(id(t, n))), "session %q was never written", n)
	}
	// A saved state does not change the history.
	st := fullState(sids[1])
	_, err := s.Save(ctx, st, 0)
	require.NoError(t, err)
	require.Len(t, all(t, s.History(sids[1])), 2)
}

// turn returns the messages of turn i of writer g: a human message, an AI
// message calling a tool and the tool's result.
func turn(g, i int) []llms.ChatMessage {
	tag := fmt.Sprintf("w%d-t%d", g, i)
	return []llms.ChatMessage{
		llms.HumanChatMessage{Content: tag},
		llms.AIChatMessage{ToolCalls: []llms.ToolCall{{ID: tag, Type: "function", FunctionCall: &llms.FunctionCall{Name: "f", Arguments: "{}"}}}},
		llms.ToolChatMessage{ID: tag, Content: "result of " + tag},
	}
}

// checkTurns checks that msgs are whole turns (see turn), each stored once
// and each writer's in order, and returns how many there are.
func checkTurns(msgs []llms.ChatMessage, writers int) error {
	if len(msgs)%3 != 0 {
		return fmt.Errorf("%d messages: not whole turns of 3", len(msgs))
	}
	next := make([]int, writers)
	for k := 0; k < len(msgs); k += 3 {
		var g, i int
		if _, err := fmt.Sscanf(msgs[k].GetContent(), "w%d-t%d", &g, &i); err != nil || g < 0 || g >= writers {
			return fmt.Errorf("message %d (%q) does not start a turn", k, msgs[k].GetContent())
		}
		for j, want := range turn(g, i) {
			if !assert.ObjectsAreEqual(want, msgs[k+j]) {
				return fmt.Errorf("message %d: %#v, want %#v: a turn's messages are not adjacent", k+j, msgs[k+j], want)
			}
		}
		if i != next[g] {
			return fmt.Errorf("message %d: turn %d of writer %d, want its turn %d", k, i, g, next[g])
		}
		next[g]++
	}
	return nil
}

func historyConcurrent(t *testing.T, s store.HistoryStore) {
	const writers, turns = 6, 15
	ctx := context.Background()
	sid := id(t, "concurrent")
	var wg sync.WaitGroup
	done := make(chan struct{})
	for g := 0; g < writers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := s.History(sid) // a history value per writer, as Memories of one session have
			for i := 0; i < turns; i++ {
				if !assert.NoError(t, h.AddMessages(ctx, turn(g, i))) {
					return
				}
			}
		}()
	}
	var reads sync.WaitGroup
	reads.Add(1)
	go func() {
		defer reads.Done()
		h := s.History(sid)
		for {
			select {
			case <-done:
				return
			default:
			}
			msgs, _, err := h.MessagesSince(ctx, 0)
			if !assert.NoError(t, err) || !assert.NoError(t, checkTurns(msgs, writers), "a reader sees whole turns only") {
				return
			}
		}
	}()
	wg.Wait()
	close(done)
	reads.Wait()
	msgs := all(t, s.History(sid))
	require.Len(t, msgs, writers*turns*3, "every message is there")
	require.NoError(t, checkTurns(msgs, writers))
}

func historyCancelled(t *testing.T, s store.HistoryStore) {
	ctx := cancelled()
	h := s.History(id(t, "cancelled"))
	want := kinds("")
	require.NoError(t, h.AddMessages(context.Background(), want))
	_, epoch := since(t, h, 0)
	for name, call := range map[string]func() error{
		"AddMessages":    func() error { return h.AddMessages(ctx, kinds("x")) },
		"AddMessage":     func() error { return h.AddMessage(ctx, llms.HumanChatMessage{Content: "x"}) },
		"AddUserMessage": func() error { return h.AddUserMessage(ctx, "x") },
		"AddAIMessage":   func() error { return h.AddAIMessage(ctx, "x") },
		"SetMessages":    func() error { return h.SetMessages(ctx, kinds("x")) },
		"Clear":          func() error { return h.Clear(ctx) },
		"Messages":       func() error { _, err := h.Messages(ctx); return err },
		"MessagesSince":  func() error { _, _, err := h.MessagesSince(ctx, 0); return err },
	} {
		require.ErrorIs(t, call(), context.Canceled, name)
		got, e := since(t, h, 0)
		require.Equal(t, want, got, "a cancelled %s writes nothing", name)
		require.Equal(t, epoch, e, "a cancelled %s writes nothing", name)
	}
}

func historyLarge(t *testing.T, s store.HistoryStore) {
	ctx := context.Background()
	h := s.History(id(t, "large"))
	big := strings.Repeat("line of tool output, 0123456789\n", 1<<17) // 4 MiB
	msgs := []llms.ChatMessage{
		llms.HumanChatMessage{Content: "read it"},
		llms.AIChatMessage{ToolCalls: []llms.ToolCall{{ID: "c", Type: "function",
			FunctionCall: &llms.FunctionCall{Name: "write", Arguments: `{"text":"` + big[:1<<20] + `"}`}}}},
		llms.ToolChatMessage{ID: "c", Content: big},
	}
	require.NoError(t, h.AddMessages(ctx, msgs))
	require.Equal(t, msgs, all(t, h), "messages of a few MB round-trip")
	got, _ := since(t, h, 2)
	require.Equal(t, msgs[2:], got)
}

func historyInvalidUTF8(t *testing.T, s store.HistoryStore) {
	ctx := context.Background()
	h := s.History(id(t, "invalid-utf8"))
	msgs := []llms.ChatMessage{
		llms.HumanChatMessage{Content: "caf\xe9 \xff\xfe then \xe2\x82 and \xc0\x80 end"},
		llms.AIChatMessage{Content: "\x80", ReasoningContent: "r\xff", ToolCalls: []llms.ToolCall{{ID: "id\xfe", Type: "function",
			FunctionCall: &llms.FunctionCall{Name: "n\xff", Arguments: "{\xf5}"}}}},
		llms.ToolChatMessage{ID: "id\xfe", Content: "out\xed\xa0\x80put"},
		llms.GenericChatMessage{Role: "r\xff", Name: "n\xfe", Content: "ok"},
		llms.HumanChatMessage{Content: "valid ✓"},
	}
	require.NoError(t, h.AddMessages(ctx, msgs))
	got := all(t, h)
	require.Len(t, got, len(msgs))
	for i, m := range msgs {
		if !assert.ObjectsAreEqual(m, got[i]) {
			require.Equal(t, replaceMessage(m), got[i],
				"message %d: text that is not UTF-8 comes back exactly, or with each invalid byte replaced by U+FFFD", i)
		}
	}
}

// replaceMessage applies replaceInvalid to every string of m (one of the
// value types of langchaingo).
func replaceMessage(m llms.ChatMessage) llms.ChatMessage {
	w := store.ToWire(m)
	w.Type, w.Content, w.Role, w.Name = llms.ChatMessageType(replaceInvalid(string(w.Type))), replaceInvalid(w.Content),
		replaceInvalid(w.Role), replaceInvalid(w.Name)
	w.ToolCallID, w.Reasoning = replaceInvalid(w.ToolCallID), replaceInvalid(w.Reasoning)
	calls := make([]store.WireCall, len(w.ToolCalls))
	for i, c := range w.ToolCalls {
		calls[i] = store.WireCall{ID: replaceInvalid(c.ID), Type: replaceInvalid(c.Type), Function: replaceFunc(c.Function)}
	}
	w.ToolCalls = nilIfEmpty(calls)
	w.FunctionCall = replaceFunc(w.FunctionCall)
	return store.FromWire(w)
}

func replaceFunc(f *llms.FunctionCall) *llms.FunctionCall {
	if f == nil {
		return nil
	}
	return &llms.FunctionCall{Name: replaceInvalid(f.Name), Arguments: replaceInvalid(f.Arguments)}
}

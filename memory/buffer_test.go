package memory

import (
	"context"
	"errors"
	"testing"

	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	lcmemory "github.com/tmc/langchaingo/memory"
	"github.com/tmc/langchaingo/schema"
)

// differential runs the same calls against this package's Memory and
// langchaingo's ConversationBuffer configured alike, and requires the same
// observable results while nothing is compacted.
type differential struct {
	t    *testing.T
	ours schema.Memory
	ref  schema.Memory
}

func (d differential) save(in, out map[string]any) {
	d.t.Helper()
	ctx := context.Background()
	errOurs := d.ours.SaveContext(ctx, in, out)
	errRef := d.ref.SaveContext(ctx, in, out)
	if errRef == nil {
		require.NoError(d.t, errOurs)
		return
	}
	require.Error(d.t, errOurs)
	// The texts differ: ours name the side and the keys (savevalues.go).
	assert.Contains(d.t, errOurs.Error(), "memory: SaveContext: invalid input values: ")
	assert.Equal(d.t, errors.Is(errRef, lcmemory.ErrInvalidInputValues), errors.Is(errOurs, lcmemory.ErrInvalidInputValues))
}

func (d differential) check() {
	d.t.Helper()
	ctx := context.Background()
	assert.Equal(d.t, d.ref.MemoryVariables(ctx), d.ours.MemoryVariables(ctx))
	assert.Equal(d.t, d.ref.GetMemoryKey(ctx), d.ours.GetMemoryKey(ctx))
	want, errRef := d.ref.LoadMemoryVariables(ctx, map[string]any{"input": "ignored"})
	got, errOurs := d.ours.LoadMemoryVariables(ctx, map[string]any{"input": "ignored"})
	require.Equal(d.t, errRef == nil, errOurs == nil, "errors: %v / %v", errRef, errOurs)
	assert.Equal(d.t, want, got)
}

func (d differential) clear() {
	d.t.Helper()
	ctx := context.Background()
	require.NoError(d.t, d.ref.Clear(ctx))
	require.NoError(d.t, d.ours.Clear(ctx))
}

// bufferOpts configures this package's Memory and a langchaingo buffer
// memory alike.
type bufferOpts struct {
	ours []Option
	ref  []lcmemory.ConversationBufferOption
}

// bufferConfigs returns the option sets the differential tests run.
func bufferConfigs() map[string]bufferOpts {
	return map[string]bufferOpts{
		"defaults": {},
		"messages": {[]Option{WithReturnMessages(true)}, []lcmemory.ConversationBufferOption{lcmemory.WithReturnMessages(true)}},
		"keys": {
			[]Option{WithInputKey("question"), WithOutputKey("answer"), WithMemoryKey("chat_history")},
			[]lcmemory.ConversationBufferOption{lcmemory.WithInputKey("question"), lcmemory.WithOutputKey("answer"), lcmemory.WithMemoryKey("chat_history")},
		},
		"prefixes": {
			[]Option{WithHumanPrefix("User"), WithAIPrefix("Bot")},
			[]lcmemory.ConversationBufferOption{lcmemory.WithHumanPrefix("User"), lcmemory.WithAIPrefix("Bot")},
		},
		"empty prefixes": {
			[]Option{WithHumanPrefix(""), WithAIPrefix("")},
			[]lcmemory.ConversationBufferOption{lcmemory.WithHumanPrefix(""), lcmemory.WithAIPrefix("")},
		},
	}
}

func TestConversationBufferDifferential(t *testing.T) {
	configs := bufferConfigs()
	turns := []struct{ in, out map[string]any }{
		{map[string]any{"input": "hi"}, map[string]any{"output": "hello"}},
		{map[string]any{"question": "what is 2+2?"}, map[string]any{"answer": "4"}},
		{map[string]any{"question": "q", "input": "i"}, map[string]any{"answer": "a", "text": "t"}},
		{map[string]any{"input": "multi\nline"}, map[string]any{"text": "ünïcødé ✓"}},
		{map[string]any{}, map[string]any{"output": "x"}},                   // 0 keys
		{map[string]any{"input": 42}, map[string]any{"output": "x"}},        // not a string
		{map[string]any{"input": "ok"}, map[string]any{"output": []int{1}}}, // output not a string
		{map[string]any{"input": "ok"}, map[string]any{}},                   // no output
		{map[string]any{"input": ""}, map[string]any{"output": ""}},
		{map[string]any{"question": "only question"}, map[string]any{"answer": "only answer"}},
	}
	for name, cfg := range configs {
		t.Run(name, func(t *testing.T) {
			d := differential{t: t, ours: New(testCompactor(t, 128_000), cfg.ours...), ref: lcmemory.NewConversationBuffer(cfg.ref...)}
			d.check()
			for i, turn := range turns {
				if refWritesHalf(d.ref, turn.in, turn.out) {
					// ConversationBuffer writes the human message before it
					// rejects the output; this Memory writes nothing. Compare
					// the errors only, then resynchronize.
					d.save(turn.in, turn.out)
					d.clear()
					continue
				}
				d.save(turn.in, turn.out)
				d.check()
				if i == 5 {
					d.clear()
					d.check()
				}
			}
		})
	}
}

// refWritesHalf reports whether ConversationBuffer accepts the input but
// rejects the output of a turn (and so records half of it).
func refWritesHalf(ref schema.Memory, in, out map[string]any) bool {
	b := ref.(*lcmemory.ConversationBuffer)
	_, errIn := lcmemory.GetInputValue(in, b.InputKey)
	_, errOut := lcmemory.GetInputValue(out, b.OutputKey)
	return errIn == nil && errOut != nil
}

// TestSaveContextAtomic checks the one deliberate difference: a turn whose
// output is invalid writes nothing.
func TestSaveContextAtomic(t *testing.T) {
	ctx := context.Background()
	h := store.NewChatHistory()
	m := New(testCompactor(t, 128_000), WithChatHistory(h))
	err := m.SaveContext(ctx, map[string]any{"input": "hi"}, map[string]any{"a": "1", "b": "2"})
	require.ErrorIs(t, err, lcmemory.ErrInvalidInputValues)
	msgs, err := h.Messages(ctx)
	require.NoError(t, err)
	assert.Empty(t, msgs)
}

// TestDifferentialWithSharedHistories runs both memories over their own
// copies of a langchaingo history preloaded with every message type.
func TestDifferentialWithSharedHistories(t *testing.T) {
	pre := []llms.ChatMessage{
		llms.SystemChatMessage{Content: "be brief"},
		llms.HumanChatMessage{Content: "hi"},
		llms.AIChatMessage{Content: "calling", FunctionCall: &llms.FunctionCall{Name: "f", Arguments: `{"a":1}`}},
		llms.FunctionChatMessage{Name: "f", Content: "1"},
		llms.GenericChatMessage{Role: "critic", Name: "c", Content: "meh"},
		llms.AIChatMessage{Content: "done"},
	}
	for _, returnMessages := range []bool{false, true} {
		refHist := lcmemory.NewChatMessageHistory(lcmemory.WithPreviousMessages(append([]llms.ChatMessage(nil), pre...)))
		ourHist := lcmemory.NewChatMessageHistory(lcmemory.WithPreviousMessages(append([]llms.ChatMessage(nil), pre...)))
		d := differential{t: t,
			ours: New(testCompactor(t, 128_000), WithChatHistory(ourHist), WithReturnMessages(returnMessages)),
			ref:  lcmemory.NewConversationBuffer(lcmemory.WithChatHistory(refHist), lcmemory.WithReturnMessages(returnMessages))}
		d.check()
		d.save(map[string]any{"input": "again"}, map[string]any{"output": "sure"})
		d.check()
	}
}

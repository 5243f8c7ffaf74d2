package memory

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/stretchr/testify/require"
	lcmemory "github.com/tmc/langchaingo/memory"
)

// TestInvalidOptions: every option given a value out of its range is an
// error naming it, in compact.New's words, from NewChecked and from every
// method of a Memory built by New; nothing is written.
func TestInvalidOptions(t *testing.T) {
	c := testCompactor(t, 2000)
	for _, tc := range []struct {
		name string
		opt  Option
	}{
		{"WithRetrievalReserve", WithRetrievalReserve(2.0)},
		{"WithRetrievalReserve", WithRetrievalReserve(0)},
		{"WithRetrievalReserve", WithRetrievalReserve(math.NaN())},
		{"WithSemanticThreshold", WithSemanticThreshold(7)},
		{"WithSemanticThreshold", WithSemanticThreshold(0)},
		{"WithEmbeddingLimit", WithEmbeddingLimit(-3)},
		{"WithPromptReserve", WithPromptReserve(-5)},
		{"WithAsync", WithAsync(-2)},
		{"WithAsync", WithAsync(0)},
		{"WithMinWindow", WithMinWindow(0)},
		{"WithWindowTurns", WithWindowTurns(-1)},
		{"WithMemoryKey", WithMemoryKey("")},
		{"WithLeaseTiming", WithLeaseTiming(-time.Second, 0)},
		{"WithBackoff", WithBackoff(conversation.Backoff{Attempts: -1})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			m, err := NewChecked(c, tc.opt)
			require.Nil(t, m)
			require.ErrorIs(t, err, compact.ErrInvalidOption)
			require.Contains(t, err.Error(), "memory: compact: invalid option: "+tc.name+": ")

			// Built by New, the Memory reports it at every call.
			h := lcmemory.NewChatMessageHistory()
			m = New(c, tc.opt, WithChatHistory(h))
			require.ErrorIs(t, m.Err(), compact.ErrInvalidOption)
			require.ErrorIs(t, m.SaveContext(ctx, map[string]any{"input": "hi"}, map[string]any{"output": "hello"}), compact.ErrInvalidOption)
			_, err = m.LoadMemoryVariables(ctx, map[string]any{"input": "hi"})
			require.ErrorIs(t, err, compact.ErrInvalidOption)
			require.ErrorIs(t, m.Compact(ctx), compact.ErrInvalidOption)
			require.ErrorIs(t, m.Clear(ctx), compact.ErrInvalidOption)
			_, err = m.Stats(ctx)
			require.ErrorIs(t, err, compact.ErrInvalidOption)
			_, err = m.Summaries(ctx)
			require.ErrorIs(t, err, compact.ErrInvalidOption)
			msgs, err := h.Messages(ctx)
			require.NoError(t, err)
			require.Empty(t, msgs, "nothing written")
			require.NoError(t, m.Close())
		})
	}
}

// TestValidOptionsAtTheirBounds: the edges of each range are accepted.
func TestValidOptionsAtTheirBounds(t *testing.T) {
	c := testCompactor(t, 2000)
	m, err := NewChecked(c, WithRetrievalReserve(0.9), WithSemanticThreshold(1), WithEmbeddingLimit(1),
		WithPromptReserve(0), WithAsync(1), WithMinWindow(1), WithWindowTurns(0), WithLeaseTiming(0, 0),
		WithBackoff(conversation.Backoff{}))
	require.NoError(t, err)
	require.NoError(t, m.Close())

	m, err = NewChecked(c, WithSessionID(""))
	require.Nil(t, m)
	require.ErrorIs(t, err, conversation.ErrInvalidID, "a refused session id too")
}

// TestSaveContextNamesTheSideAndKey: SaveContext's input-value errors wrap
// langchaingo's ErrInvalidInputValues and say which side and which key.
func TestSaveContextNamesTheSideAndKey(t *testing.T) {
	ctx := context.Background()
	c := testCompactor(t, 2000)
	for _, tc := range []struct {
		opts         []Option
		inputs, outs map[string]any
		want         string
	}{
		{nil, map[string]any{"input": "x"}, nil, "outputs: no value"},
		{nil, nil, map[string]any{"output": "y"}, "inputs: no value"},
		{[]Option{WithOutputKey("answer")}, map[string]any{"input": "x"}, map[string]any{"text": "y"}, `outputs: no key "answer" (set by WithOutputKey); keys given: ["text"]`},
		{[]Option{WithInputKey("question")}, map[string]any{"input": "x"}, map[string]any{"output": "y"}, `inputs: no key "question" (set by WithInputKey)`},
		{nil, map[string]any{"a": "x", "b": "y"}, map[string]any{"output": "y"}, `inputs: 2 keys ["a" "b"] and no WithInputKey to pick one`},
		{nil, map[string]any{"input": 42}, map[string]any{"output": "y"}, `inputs: key "input" holds a int, want a string`},
	} {
		m := New(c, tc.opts...)
		err := m.SaveContext(ctx, tc.inputs, tc.outs)
		require.ErrorIs(t, err, lcmemory.ErrInvalidInputValues)
		require.Contains(t, err.Error(), tc.want)
		require.False(t, errors.Is(err, compact.ErrInvalidOption))
		st, err := m.Stats(ctx)
		require.NoError(t, err)
		require.Zero(t, st.MessagesTotal, "nothing written")
	}
}

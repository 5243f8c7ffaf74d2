package memory

import (
	"context"
	"fmt"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHistoryCutDuringCompaction: a read (Stats) that finds the history cut
// short while a compaction of the longer history is in flight (waiting for
// its summarizer) answers at once, and that compaction does not record its
// result over the shorter history (it indexed past its end and panicked):
// it runs again on the history as it is now, and the Memory shows only
// what the history holds.
func TestHistoryCutDuringCompaction(t *testing.T) {
	ctx := context.Background()
	g := newGate()
	m := New(testCompactor(t, 2000, compact.WithCustomSummarizer(g.summarizer())))
	defer m.Close()
	for i := range 30 {
		in, out := chatTurn(i)
		require.NoError(t, m.SaveContext(ctx, map[string]any{"input": fmt.Sprintf("%s (%d)", in, i)}, map[string]any{"output": out}))
	}
	done := make(chan error, 1)
	go func() { done <- m.Compact(ctx) }()
	<-g.started // the compaction is in the summarizer, over 60 messages

	msgs, err := m.ChatHistory().Messages(ctx)
	require.NoError(t, err)
	require.NoError(t, m.ChatHistory().SetMessages(ctx, msgs[:6]))
	st, err := m.Stats(ctx) // reads the cut history while the compaction runs
	require.NoError(t, err)
	assert.Equal(t, 6, st.MessagesTotal)

	go func() {
		for range g.started { // later attempts run through
		}
	}()
	close(g.release)
	require.NoError(t, <-done)
	vars, err := m.LoadMemoryVariables(ctx, map[string]any{"input": "and then?"})
	require.NoError(t, err)
	hist := vars[DefaultMemoryKey].(string)
	assert.Contains(t, hist, "(2)")
	assert.NotContains(t, hist, "(29)", "no message of the history before the cut")
	st, err = m.Stats(ctx)
	require.NoError(t, err)
	assert.Equal(t, 6, st.MessagesTotal)
}

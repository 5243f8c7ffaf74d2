package memory

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/store"
)

// TestRefusedSessionID: an id with a NUL (the shape of the middleware's
// internal keys) or over store.MaxSessionIDBytes is refused by every
// method with a bounded error, and nothing reaches the store.
func TestRefusedSessionID(t *testing.T) {
	ctx := context.Background()
	for _, id := range []string{"\x00auto-0123", "a\nb", strings.Repeat("y", 1<<20)} {
		st := store.NewMemory()
		m := New(testCompactor(t, 2000), WithStore(st), WithSessionID(id))
		errs := []error{
			m.SaveContext(ctx, map[string]any{"input": "hi"}, map[string]any{"output": "ok"}),
			m.Clear(ctx),
		}
		_, err := m.LoadMemoryVariables(ctx, map[string]any{"input": "x"})
		errs = append(errs, err)
		out, err := m.RecallTool().Call(ctx, "hi")
		require.NoError(t, err, "the recall tool answers an error in text")
		assert.True(t, strings.HasPrefix(out, "recall: no session"), "the tool reads nothing: %.200q", out)
		assert.Less(t, len(out), 400, "%.400q", out)
		for i, err := range errs {
			require.ErrorIs(t, err, conversation.ErrInvalidID, "id %.20q, call %d", id, i)
			assert.Less(t, len(err.Error()), 300, "id %.20q, call %d: %.300q", id, i, err.Error())
		}
		msgs, err := st.History(id).Messages(ctx)
		require.NoError(t, err)
		assert.Empty(t, msgs, "id %.20q: nothing written", id)
		v, err := st.Version(ctx, id)
		require.NoError(t, err)
		assert.Zero(t, v, "id %.20q: no state saved", id)
	}
}

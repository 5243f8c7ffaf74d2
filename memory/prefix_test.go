package memory_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
)

// TestPrefixStableBetweenCompactions: with the default policy, the
// history a conversation chain is given on each turn is the previous one
// plus the turn that came since, except right after a compaction, so a
// provider's prompt cache serves every turn between compactions. Both
// sides of the derived policy are checked (a 16k and a 32k window).
func TestPrefixStableBetweenCompactions(t *testing.T) {
	for _, window := range []int{16_000, 32_000} {
		t.Run(fmt.Sprint(window), func(t *testing.T) {
			c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(window))
			require.NoError(t, err)
			mem := memory.New(c, memory.WithReturnMessages(true))
			ctx := context.Background()
			var prev []llms.ChatMessage
			compactions, stable, turns := 0, 0, window/80
			for i := 0; i < turns; i++ {
				in := fmt.Sprintf("Turn %d: what does module %d of the billing service do?", i, i)
				vars, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": in})
				require.NoError(t, err)
				hist, ok := vars["history"].([]llms.ChatMessage)
				require.True(t, ok)
				if n := len(hist); n > 0 && strings.HasPrefix(hist[n-1].GetContent(), memory.RetrievedPreamble) {
					hist = hist[:n-1] // the stable part: the retrieved messages follow it
				}
				st, err := mem.Stats(ctx)
				require.NoError(t, err)
				if st.Compactions > compactions {
					compactions = st.Compactions
				} else if i > 0 {
					require.Truef(t, extends(prev, hist), "turn %d: no compaction, yet the history is not the previous one plus the new turn", i)
					stable++
				}
				prev = hist
				out := fmt.Sprintf("Module %d %s", i, strings.Repeat("reconciles invoices against the ledger and retries failed payments. ", 12))
				require.NoError(t, mem.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": out}))
			}
			require.Positive(t, compactions, "the conversation outgrew the window")
			t.Logf("window %d: %d compactions in %d turns; %d turns prefix-stable", window, compactions, turns, stable)
			assert.Equal(t, turns-1-compactions, stable)
		})
	}
}

// extends reports whether cur is prev followed by more messages.
func extends(prev, cur []llms.ChatMessage) bool {
	if len(cur) < len(prev) {
		return false
	}
	for i := range prev {
		if prev[i].GetType() != cur[i].GetType() || prev[i].GetContent() != cur[i].GetContent() {
			return false
		}
	}
	return true
}

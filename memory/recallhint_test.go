package memory

import (
	"context"
	"strings"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestRecallHintOnlyWithRecall: the summary of a Memory points to the
// recall tool only when its RecallTool was taken; a conversation chain
// without it gets a rule digest that never mentions recall, with
// retrieval on or off (retrieval needs no tool).
func TestRecallHintOnlyWithRecall(t *testing.T) {
	cases := []struct {
		name      string
		retrieval bool
		tool      bool
		hint      bool
	}{
		{"neither", false, false, false},
		{"recall tool taken", false, true, true},
		{"retrieval on", true, false, false},
		{"both", true, true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := testCompactor(t, 2000)
			m := New(c, WithRetrieval(tc.retrieval))
			if tc.tool {
				require.NotNil(t, m.RecallTool())
			}
			fillChat(t, m, 60)
			v, err := m.LoadMemoryVariables(context.Background(), map[string]any{"input": "Let's keep chatting."})
			require.NoError(t, err)
			history := v["history"].(string)
			require.True(t, strings.HasPrefix(history, compact.SummaryPreamble), "compacted: %.120q", history)
			if tc.hint {
				assert.Contains(t, history, compact.RecallHint)
				return
			}
			assert.NotContains(t, strings.ToLower(history), "recall", "no word of recall in a chain without it")
		})
	}
}

// TestRecallHintOnceTaken: taking the RecallTool after compactions puts
// the hint in the next load's summary.
func TestRecallHintOnceTaken(t *testing.T) {
	ctx := context.Background()
	m := New(testCompactor(t, 2000), WithRetrieval(false), WithReturnMessages(true))
	fillChat(t, m, 60)
	in := map[string]any{"input": "Let's keep chatting."}
	first := func() string {
		v, err := m.LoadMemoryVariables(ctx, in)
		require.NoError(t, err)
		msgs := v["history"].([]llms.ChatMessage)
		require.NotEmpty(t, msgs)
		return msgs[0].GetContent()
	}
	before := first()
	require.True(t, strings.HasPrefix(before, compact.SummaryPreamble))
	assert.NotContains(t, before, compact.RecallHint)
	m.RecallTool()
	after := first()
	assert.True(t, strings.HasSuffix(after, compact.RecallHint), "%.200q", after)
}

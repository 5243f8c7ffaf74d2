package memory

import (
	"context"
	"fmt"
	"github.com/agentcompact/compact"
	"regexp"
	"strings"
	"testing"

	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

var refRe = regexp.MustCompile(`ref:([a-z2-7]{8})`)

// toolTurns saves n turns, each with one tool round whose output is a
// distinct file listing.
func toolTurns(t *testing.T, m *Memory, tag string, n int) {
	t.Helper()
	for i := range n {
		out := fmt.Sprintf("file_%03d.go\n", i) + strings.Repeat(fmt.Sprintf("func %s%03d() error { return nil }\n", tag, i), 30)
		steps := []schema.AgentStep{{Action: schema.AgentAction{Tool: "read_file", ToolInput: fmt.Sprintf("file_%03d.go", i), ToolID: fmt.Sprintf("c%d", i)},
			Observation: out}}
		require.NoError(t, m.SaveContext(context.Background(), map[string]any{"input": fmt.Sprintf("read file %d", i)},
			map[string]any{"output": "done", "intermediate_steps": steps}))
	}
}

// TestMemoryRecall: a masked output's ref brings its original back from
// the history, a search finds summarized originals, and after a restart
// (a new Memory on the same store) the summarized ones are still found.
func TestMemoryRecall(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	// The specification's shallow policy, which leaves masked outputs (and
	// their refs) in the context; the default compacts deeper.
	c := testCompactor(t, 3_000, compact.WithTrigger(0.80, 0.70))
	m := New(c, WithStore(st), WithSessionID("s1"), WithReturnMessages(true))
	toolTurns(t, m, "handler", 40)
	v, err := m.LoadMemoryVariables(ctx, nil)
	require.NoError(t, err)
	var shown strings.Builder
	for _, cm := range v["history"].([]llms.ChatMessage) {
		shown.WriteString(cm.GetContent())
	}
	refs := refRe.FindAllStringSubmatch(shown.String(), -1)
	require.NotEmpty(t, refs, "a masked output shows its ref")
	tool := m.RecallTool()
	out, err := tool.Call(ctx, refs[0][0])
	require.NoError(t, err)
	assert.Contains(t, out, "func handler", "the original output comes back")

	// file_000.go was read first: summarized long ago, found by a search.
	out, err = tool.Call(ctx, "handler000")
	require.NoError(t, err)
	assert.Contains(t, out, "handler000")
	assert.Regexp(t, refRe, out, "a hit names its ref")

	restarted := New(c, WithStore(st), WithSessionID("s1"), WithReturnMessages(true))
	out, err = restarted.RecallTool().Call(ctx, "handler000")
	require.NoError(t, err)
	assert.Contains(t, out, "handler000", "after a restart")

	other := New(c, WithStore(st), WithSessionID("s2"), WithReturnMessages(true))
	toolTurns(t, other, "other", 40)
	_, err = other.LoadMemoryVariables(ctx, nil)
	require.NoError(t, err)
	out, err = other.RecallTool().Call(ctx, "other000")
	require.NoError(t, err)
	require.Contains(t, out, "other000", "s2 has compacted originals of its own")
	out, err = other.RecallTool().Call(ctx, "handler000")
	require.NoError(t, err)
	assert.NotContains(t, out, "func handler000", "another session reads nothing of s1")
	out, err = other.RecallTool().Call(ctx, refs[0][0])
	require.NoError(t, err)
	assert.NotContains(t, out, "func handler0")
}

package memory_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/sqlitestore"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// fixtureTurn returns the messages of turn i of the conversation stored in
// testdata/memory-v1.db (written by the version-1 Memory, before the
// engine took caller ids: its engine state names messages by window ids).
func fixtureTurn(i int) []llms.ChatMessage {
	q := fmt.Sprintf("Step %d: look at module %d and tell me what it does.", i, i%7)
	if i%4 == 3 {
		q = "continue"
	}
	// Call ids and outputs repeat every 5 turns: repeated messages get
	// "~n" ids, which differ between the window and the whole history.
	id := fmt.Sprintf("call_%d", i%5)
	out := fmt.Sprintf("package m%d\n", i%5) + strings.Repeat(fmt.Sprintf("func f%d() error { return nil }\n", i%5), 20+i%5)
	if i%5 == 4 {
		out = "Traceback (most recent call last):\n  File \"m.py\", line 3\nValueError: bad input\n"
	}
	return []llms.ChatMessage{
		llms.HumanChatMessage{Content: q},
		llms.AIChatMessage{Content: "Let me read it.", ToolCalls: []llms.ToolCall{{ID: id, Type: "function",
			FunctionCall: &llms.FunctionCall{Name: "read_file", Arguments: fmt.Sprintf(`{"path":"m%d.go"}`, i%5)}}}},
		llms.ToolChatMessage{ID: id, Content: out},
		llms.AIChatMessage{Content: "OK."},
	}
}

// jsonText returns s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// TestVersion1StateMigrates opens a SQLite file written by the version-1
// Memory (40 turns, 5 summaries, the window moved to position 125) and
// goes on for 10 turns: the context of every turn until the next
// compaction is the one the version-1 code gave for the same turns, refs
// aside (testdata/memory-v1.golden.json,
// recorded with it), so the migrated state names the same messages.
func TestVersion1StateMigrates(t *testing.T) {
	ctx := context.Background()
	b, err := os.ReadFile(filepath.Join("testdata", "memory-v1.db"))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "memory.db")
	require.NoError(t, os.WriteFile(path, b, 0o600))
	var golden []string
	g, err := os.ReadFile(filepath.Join("testdata", "memory-v1.golden.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(g, &golden))

	s, err := sqlitestore.Open(path)
	require.NoError(t, err)
	defer s.Close()
	st, err := s.Load(ctx, "fixture")
	require.NoError(t, err)
	require.Contains(t, string(st.Engine), `"version":1`)
	c, err := compact.New(compact.WithContextWindow(3_000), compact.WithReservedOutput(300),
		compact.WithTrigger(compact.SpecTriggerRatio, compact.SpecResetRatio)) // the old code's policy
	require.NoError(t, err)
	m := memory.New(c, memory.WithStore(s), memory.WithSessionID("fixture"), memory.WithReturnMessages(true), memory.WithMinWindow(8))
	h := s.History("fixture")
	// Version 1 showed no refs: compare without them.
	refs := regexp.MustCompile(` ref:[a-z2-7]{8}`)
	render := func(v map[string]any) string {
		var lines []string
		for _, cm := range v["history"].([]llms.ChatMessage) {
			j, err := store.MarshalMessage(cm)
			require.NoError(t, err)
			lines = append(lines, string(j))
		}
		out := strings.ReplaceAll(strings.Join(lines, "\n"), jsonText(compact.RecallHint), "")
		return refs.ReplaceAllString(out, "")
	}
	v, err := m.LoadMemoryVariables(ctx, nil)
	require.NoError(t, err)
	require.Equal(t, golden[0], render(v), "the stored context, as version 1 gave it")
	before, err := m.Stats(ctx)
	require.NoError(t, err)
	for i := 40; i < 50; i++ {
		require.NoError(t, h.AddMessages(ctx, fixtureTurn(i)))
		v, err := m.LoadMemoryVariables(ctx, nil)
		require.NoError(t, err)
		if st, _ := m.Stats(ctx); st.Compactions > before.Compactions {
			// The prompt reserve and refs cost tokens that version 1 did
			// not spend: from the first new compaction on, the contexts
			// differ by design.
			continue
		}
		require.Equal(t, golden[i-39], render(v), "turn %d", i)
	}
	require.NoError(t, m.Verify(ctx))
	st, err = s.Load(ctx, "fixture")
	require.NoError(t, err)
	require.Contains(t, string(st.Engine), fmt.Sprintf(`"version":%d`, compact.SessionVersion), "saved in the new form")
}

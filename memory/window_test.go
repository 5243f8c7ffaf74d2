package memory

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/internal/trajectory"
	"github.com/agentcompact/compact/memory/internal/chat"
	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// asContent converts a view to the engine's form, with tool names looked up
// in the view itself.
func asContent(view []llms.ChatMessage) []llms.MessageContent {
	names := map[string]string{}
	out := make([]llms.MessageContent, 0, len(view))
	for _, cm := range view {
		if ai, ok := cm.(llms.AIChatMessage); ok {
			for _, tc := range ai.ToolCalls {
				if tc.FunctionCall != nil {
					names[tc.ID] = tc.FunctionCall.Name
				}
			}
		}
		out = append(out, chat.ToContent(cm, func(id string) string { return names[id] }))
	}
	return out
}

// trajectoryMessages returns the messages of a testdata trajectory as chat messages.
func trajectoryMessages(t testing.TB, name string) []llms.ChatMessage {
	t.Helper()
	msgs, err := trajectory.ReadFile(filepath.Join("..", "testdata", "trajectories", name))
	require.NoError(t, err)
	var out []llms.ChatMessage
	for _, mc := range msgs {
		out = append(out, chat.FromContent(mc)...)
	}
	return out
}

// chatTurns returns n chat messages alternating human and AI, with
// repeated short messages.
func chatTurns(t testing.TB, n int) []llms.ChatMessage {
	ins, outs := corpusTexts(t)
	var out []llms.ChatMessage
	for i := 0; len(out) < n; i++ {
		in, o := ins[i%len(ins)], outs[i%len(outs)]
		if i%5 == 3 {
			in = "continue"
		}
		if i%7 == 2 {
			o = "OK."
		}
		out = append(out, llms.HumanChatMessage{Content: in}, llms.AIChatMessage{Content: o})
	}
	return out[:n]
}

// TestWindowMatchesWholeHistory checks that the Memory, which gives the
// engine only a window of the history, returns at every step exactly what
// the engine returns for the whole history.
func TestWindowMatchesWholeHistory(t *testing.T) {
	agent := trajectoryMessages(t, "mini-gemini3pro__django__django-10973.jsonl")
	fc := trajectoryMessages(t, "sweagent__demo-marshmallow-1867-fc.jsonl")
	chat := chatTurns(t, 600)
	cases := []struct {
		name   string
		msgs   []llms.ChatMessage
		window int
		step   int
		moves  bool // the window must move at least once
	}{
		{"chat/3000", chat, 3000, 2, true},
		{"chat/8000", chat, 8000, 2, true},
		{"agent/6000", agent, 6000, 1, true},
		{"agent/12000", agent, 12000, 3, false},
		{"fc/5000", append(append([]llms.ChatMessage{}, fc...), fc[1:]...), 5000, 1, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			c, err := compact.New(compact.WithContextWindow(tc.window), compact.WithReservedOutput(0))
			require.NoError(t, err)
			h := store.NewChatHistory()
			m := New(c, WithChatHistory(h), WithReturnMessages(true), WithMinWindow(16), WithPromptReserve(0))
			whole := compact.NewSession(DefaultSessionID) // the Memory's session id: the same refs
			var all []llms.ChatMessage
			moved := false
			for i := 0; i < len(tc.msgs); i += tc.step {
				end := min(i+tc.step, len(tc.msgs))
				require.NoError(t, h.AddMessages(ctx, tc.msgs[i:end]))
				all = append(all, tc.msgs[i:end]...)
				v, err := m.LoadMemoryVariables(ctx, nil)
				require.NoError(t, err)
				got := asContent(v["history"].([]llms.ChatMessage))
				res, err := c.Compact(ctx, whole, asContent(all), m.policyOptions(&engineCall{Input: conversation.Input{Messages: asContent(all)}})...)
				require.NoError(t, err)
				want := res.Messages
				if whole.Stats().Compactions == 0 {
					want = asContent(all) // verbatim until the first compaction
				}
				require.Equal(t, want, got, "after %d messages", len(all))
				m.mu.Lock()
				moved = moved || m.win.Start() > m.win.Lead()
				win := m.win.WindowLen()
				m.mu.Unlock()
				// The window holds what the context holds, plus the recent
				// messages it always keeps: it does not grow with the history.
				require.LessOrEqual(t, win, len(got)+16+conversation.MoveBatch+tc.step, "after %d messages", len(all))
			}
			require.True(t, moved || !tc.moves, "the window never moved")
			require.NoError(t, m.Verify(ctx))
			st, err := m.Stats(ctx)
			require.NoError(t, err)
			ws := whole.Stats()
			require.Equal(t, ws.Compactions, st.Compactions)
			require.Equal(t, len(whole.Covered()), st.MessagesSummarized)
			fmt.Println(tc.name, st.Compactions, st.MessagesSummarized, len(all))
		})
	}
}

package memory

import (
	"context"
	"fmt"
	"github.com/agentcompact/compact/store"
	"strings"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	lcmemory "github.com/tmc/langchaingo/memory"
	"github.com/tmc/langchaingo/schema"
)

// TestPointerFormIsAChange replaces a message of the history by its other
// form (value or pointer) after a load: the next load renders the new
// form, exactly as ConversationBuffer over the same history does
// (llms.GetBufferString renders an AI message's FunctionCall only for the
// value form, and rejects a *GenericChatMessage).
func TestPointerFormIsAChange(t *testing.T) {
	ctx := context.Background()
	fc := &llms.FunctionCall{Name: "lookup", Arguments: `{"q":"x"}`}
	ai := llms.AIChatMessage{Content: "calling", FunctionCall: fc}
	gen := llms.GenericChatMessage{Role: "critic", Content: "meh"}
	cases := []struct {
		name          string
		before, after llms.ChatMessage
	}{
		{"value to pointer", ai, &llms.AIChatMessage{Content: "calling", FunctionCall: fc}},
		{"pointer to value", &llms.AIChatMessage{Content: "calling", FunctionCall: fc}, ai},
		{"generic value to pointer", gen, &llms.GenericChatMessage{Role: "critic", Content: "meh"}},
	}
	histories := map[string]func(...llms.ChatMessage) schema.ChatMessageHistory{
		"langchaingo": func(msgs ...llms.ChatMessage) schema.ChatMessageHistory {
			return lcmemory.NewChatMessageHistory(lcmemory.WithPreviousMessages(msgs))
		},
		"ChatHistory": func(msgs ...llms.ChatMessage) schema.ChatMessageHistory { return store.NewChatHistory(msgs...) },
	}
	for hname, newHist := range histories {
		for _, tc := range cases {
			t.Run(hname+"/"+tc.name, func(t *testing.T) {
				h := newHist(llms.HumanChatMessage{Content: "look it up"}, tc.before)
				ours := New(testCompactor(t, 128_000), WithChatHistory(h))
				ref := lcmemory.NewConversationBuffer(lcmemory.WithChatHistory(h))
				load := func() {
					t.Helper()
					want, errRef := ref.LoadMemoryVariables(ctx, nil)
					got, errOurs := ours.LoadMemoryVariables(ctx, nil)
					require.Equal(t, errRef == nil, errOurs == nil, "errors: %v / %v", errRef, errOurs)
					assert.Equal(t, want, got)
				}
				load()
				require.NoError(t, h.SetMessages(ctx, []llms.ChatMessage{llms.HumanChatMessage{Content: "look it up"}, tc.after}))
				load()
			})
		}
	}
}

// TestWindowTurnsDifferential runs WithWindowTurns(k) side by side with
// langchaingo's ConversationWindowBuffer(k) configured alike: until the
// first compaction the loaded context is the same after every turn.
func TestWindowTurnsDifferential(t *testing.T) {
	configs := bufferConfigs()
	for name, cfg := range configs {
		for _, k := range []int{1, 2, 5} {
			t.Run(fmt.Sprintf("%s/k=%d", name, k), func(t *testing.T) {
				ctx := context.Background()
				c := testCompactor(t, 128_000)
				ours := New(c, append([]Option{WithWindowTurns(k)}, cfg.ours...)...)
				ref := lcmemory.NewConversationWindowBuffer(k, cfg.ref...)
				d := differential{t: t, ours: ours, ref: ref}
				d.check()
				for i := 0; i < 12; i++ {
					in := map[string]any{"input": fmt.Sprintf("question %d", i), "question": fmt.Sprintf("question %d", i)}
					out := map[string]any{"output": fmt.Sprintf("answer %d", i), "answer": fmt.Sprintf("answer %d", i)}
					if name != "keys" {
						in, out = map[string]any{"input": in["input"]}, map[string]any{"output": out["output"]}
					}
					d.save(in, out)
					d.check()
				}
				msgs, err := ours.ChatHistory().Messages(ctx)
				require.NoError(t, err)
				require.Len(t, msgs, 24, "the history keeps every message")
				st, err := ours.Stats(ctx)
				require.NoError(t, err)
				require.Zero(t, st.Compactions)
			})
		}
	}

	// A history given with WithChatHistory, of whole turns.
	var pre []llms.ChatMessage
	for i := 0; i < 7; i++ {
		pre = append(pre, llms.HumanChatMessage{Content: fmt.Sprintf("q%d", i)}, llms.AIChatMessage{Content: fmt.Sprintf("a%d", i)})
	}
	for _, returnMessages := range []bool{false, true} {
		refHist := lcmemory.NewChatMessageHistory(lcmemory.WithPreviousMessages(append([]llms.ChatMessage(nil), pre...)))
		d := differential{t: t,
			ours: New(testCompactor(t, 128_000), WithWindowTurns(3), WithReturnMessages(returnMessages),
				WithChatHistory(store.NewChatHistory(pre...))),
			ref: lcmemory.NewConversationWindowBuffer(3, lcmemory.WithChatHistory(refHist), lcmemory.WithReturnMessages(returnMessages))}
		d.check()
		d.save(map[string]any{"input": "again"}, map[string]any{"output": "sure"})
		d.check()
	}
}

// TestWindowTurnsWithToolRounds checks what a turn is with tool rounds (the
// human input, the AI message calling tools, the tool messages, the AI
// output: one turn), that the leading system messages stay, and that the
// window goes on sliding over a long conversation with a bounded window.
func TestWindowTurnsWithToolRounds(t *testing.T) {
	ctx := context.Background()
	h := store.NewChatHistory(llms.SystemChatMessage{Content: "be brief"})
	m := New(testCompactor(t, 128_000), WithChatHistory(h), WithWindowTurns(2), WithReturnMessages(true))
	for i := 0; i < 80; i++ {
		steps := []schema.AgentStep{{
			Action:      schema.AgentAction{Tool: "lookup", ToolInput: fmt.Sprintf("x%d", i), ToolID: fmt.Sprintf("call_%d", i)},
			Observation: fmt.Sprintf("found %d", i),
		}}
		require.NoError(t, m.SaveContext(ctx, map[string]any{"input": fmt.Sprintf("q%d", i)},
			map[string]any{"output": fmt.Sprintf("a%d", i), "steps": steps}))
		got := loadMessages(t, m)
		require.Equal(t, llms.SystemChatMessage{Content: "be brief"}, got[0])
		var humans []string
		for _, cm := range got {
			if cm.GetType() == llms.ChatMessageTypeHuman {
				humans = append(humans, cm.GetContent())
			}
		}
		want := []string{fmt.Sprintf("q%d", i)}
		if i > 0 {
			want = []string{fmt.Sprintf("q%d", i-1), fmt.Sprintf("q%d", i)}
		}
		require.Equal(t, want, humans, "turn %d", i)
		require.Len(t, got, 1+4*len(want), "turn %d: system + (human, AI call, tool, AI) per turn", i)
		m.mu.Lock()
		win := m.win.WindowLen()
		m.mu.Unlock()
		require.LessOrEqual(t, win, 1+8+DefaultMinWindow+conversation.MoveBatch+4, "turn %d: the window stays bounded", i)
	}
}

// TestWindowTurnsCompaction checks WithWindowTurns with compaction: when
// the last k turns alone reach the trigger, the engine compacts within
// them (the summary then leads the context), every prompt fits the budget,
// and no message older than the last k turns comes back.
func TestWindowTurnsCompaction(t *testing.T) {
	ctx := context.Background()
	c := testCompactor(t, 3000)
	m := New(c, WithWindowTurns(4), WithReturnMessages(true), WithPromptReserve(0))
	summarized := false
	for i := 0; i < 60; i++ {
		in := textOfTokens(t, c, 100+(i*173)%500, i)
		v, err := m.LoadMemoryVariables(ctx, map[string]any{"input": in})
		require.NoError(t, err)
		got := v["history"].([]llms.ChatMessage)
		require.LessOrEqual(t, c.CountTokens(append(Contents(got), llms.TextParts(llms.ChatMessageTypeHuman, in))), c.Budget())
		turns := 0
		for k, cm := range got {
			if k == 0 && strings.HasPrefix(cm.GetContent(), compact.SummaryPreamble) {
				summarized = true
				continue
			}
			if k == len(got)-1 && strings.HasPrefix(cm.GetContent(), RetrievedPreamble) {
				continue // the retrieved earlier messages, out of the turns
			}
			if cm.GetType() == llms.ChatMessageTypeHuman {
				turns++
				var seed int
				_, err := fmt.Sscanf(cm.GetContent(), "[%d]", &seed)
				require.NoError(t, err)
				require.True(t, seed >= i-4 && seed < i, "turn %d: a message of turn %d", i, seed)
			}
		}
		require.LessOrEqual(t, turns, 4)
		require.NoError(t, m.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": textOfTokens(t, c, 200, 500+i)}))
	}
	require.True(t, summarized, "the last turns alone reached the trigger")
	require.NoError(t, m.Verify(ctx))
}

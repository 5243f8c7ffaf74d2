package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/memory"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// chatsDir holds two real conversations with their probes (see
// testdata/LICENSES.md).
const chatsDir = "../../testdata/chats"

func TestChatTurns(t *testing.T) {
	lines := []struct{ Role, Content string }{
		{"assistant", "Hi!"}, {"user", "a"}, {"user", "b"}, {"assistant", "c"}, {"assistant", "d"}, {"user", "e"},
	}
	require.Equal(t, []chatTurn{{"", "Hi!"}, {"a\nb", "c\nd"}, {"e", ""}}, chatTurns(lines))
}

func TestOrphanReply(t *testing.T) {
	asked := map[string]map[string]bool{"r1": {"q1": true}, "r2": {"q2": true}}
	h := func(s string) llms.ChatMessage { return llms.HumanChatMessage{Content: s} }
	a := func(s string) llms.ChatMessage { return llms.AIChatMessage{Content: s} }
	require.False(t, orphanReply([]llms.ChatMessage{h("q1"), a("r1"), h("q2"), a("r2")}, asked))
	require.True(t, orphanReply([]llms.ChatMessage{h("q1"), a("r2")}, asked), "a reply after another question")
	require.True(t, orphanReply([]llms.ChatMessage{h(compact.SummaryPreamble + " x"), a("r1")}, asked), "a reply after the summary")
	require.True(t, orphanReply([]llms.ChatMessage{a("r1")}, asked), "a reply first")
}

// TestRenderHistoryMatchesStringMode checks the measure: the history the
// chats mode renders from messages mode is, at every load, what the
// memory's string mode (what a conversation chain sends) returns.
func TestRenderHistoryMatchesStringMode(t *testing.T) {
	convs, err := loadChats(chatsDir)
	require.NoError(t, err)
	counter, err := budget.NewCounter("gpt-4o")
	require.NoError(t, err)
	ctx := context.Background()
	c, err := compact.New(compact.WithContextWindow(2000), compact.WithCounter(counter))
	require.NoError(t, err)
	msgsMem := memory.New(c, memory.WithReturnMessages(true))
	textMem := memory.New(c)
	for i, turn := range convs[0].turns {
		in := map[string]any{"input": turn.in}
		if i%7 == 6 {
			in["input"] = convs[0].probes[0].Question
		}
		v, err := msgsMem.LoadMemoryVariables(ctx, in)
		require.NoError(t, err)
		got, err := renderHistory(v["history"].([]llms.ChatMessage))
		require.NoError(t, err)
		want, err := textMem.LoadMemoryVariables(ctx, in)
		require.NoError(t, err)
		require.Equal(t, want["history"], got, "turn %d", i)
		for _, m := range []*memory.Memory{msgsMem, textMem} {
			require.NoError(t, m.SaveContext(ctx, map[string]any{"input": turn.in}, map[string]any{"output": turn.out}))
		}
	}
}

func TestChatsModeOnTestdata(t *testing.T) {
	out := t.TempDir()
	cfg, err := parseFlags([]string{"-chats", chatsDir, "-windows", "2000,4000", "-out", out}, &bytes.Buffer{})
	require.NoError(t, err)
	var stdout bytes.Buffer
	require.NoError(t, run(context.Background(), cfg, &stdout, &bytes.Buffer{}))
	require.Contains(t, stdout.String(), "| 2k (1500) | 6 |")
	require.FileExists(t, filepath.Join(out, "chats.png"))
	md, err := os.ReadFile(filepath.Join(out, "chats-results.md"))
	require.NoError(t, err)
	require.Contains(t, string(md), "token buffer, question")

	scores, err := evaluateChats(context.Background(), chatsDir, 1, []int{2000}, 1)
	require.NoError(t, err)
	s := scores[0]
	require.Equal(t, 6, s.probes)
	require.Positive(t, s.prompts)
	require.Zero(t, s.overWindow, "every prompt within the budget")
	require.Zero(t, s.orphans, "no reply without its question")
	require.GreaterOrEqual(t, s.oursQuestion, s.bufQuestion, "with the question as input, at least what the token buffer keeps")
}

func TestJoinChats(t *testing.T) {
	convs := []chatConv{
		{name: "a", turns: []chatTurn{{"1", "2"}}, probes: []chatProbe{{Question: "q1"}}},
		{name: "b", turns: []chatTurn{{"3", "4"}, {"5", "6"}}, probes: []chatProbe{{Question: "q2"}}},
		{name: "c", turns: []chatTurn{{"7", "8"}}},
	}
	require.Equal(t, convs, joinChats(convs, 1))
	got := joinChats(convs, 2)
	require.Len(t, got, 2)
	require.Equal(t, "a+1", got[0].name)
	require.Equal(t, []chatTurn{{"1", "2"}, {"3", "4"}, {"5", "6"}}, got[0].turns)
	require.Len(t, got[0].probes, 2)
	require.Equal(t, "c+0", got[1].name)
	require.Equal(t, "a", convs[0].name, "the input is not modified")
	require.Len(t, convs[0].turns, 1)
}

package memory

import (
	"context"
	"fmt"
	"strings"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	lcmemory "github.com/tmc/langchaingo/memory"
)

// withoutRetrieved returns msgs without the trailing retrieved message.
func withoutRetrieved(msgs []llms.ChatMessage) []llms.ChatMessage {
	if n := len(msgs); n > 0 && strings.HasPrefix(msgs[n-1].GetContent(), RetrievedPreamble) {
		return msgs[:n-1]
	}
	return msgs
}

// chatTurn is turn i of a long chat whose turn 3 states a fact.
func chatTurn(i int) (in, out string) {
	if i == 3 {
		return "By the way, my sister Marisol lives in Valparaiso and works as a marine biologist.", "Valparaiso sounds lovely!"
	}
	return fmt.Sprintf("Turn %d: tell me something about the weather and trains and coffee, please, in some detail.", i),
		fmt.Sprintf("Reply %d: the weather is mild, the trains run on time and the coffee is strong today.", i)
}

// fillChat saves n turns of chatTurn into m.
func fillChat(t *testing.T, m *Memory, n int) { t.Helper(); fillTurns(t, m, n, chatTurn) }

// fillTurns saves turns 0 to n-1 of turn into m, loading each input first.
func fillTurns(t testing.TB, m *Memory, n int, turn func(int) (string, string)) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		in, out := turn(i)
		_, err := m.LoadMemoryVariables(ctx, map[string]any{"input": in})
		require.NoError(t, err)
		require.NoError(t, m.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": out}))
	}
}

// TestRetrievalBringsBackTheTurn checks that a question about a turn that
// compaction took out of the context brings it back verbatim with its ref,
// after the stable part, as one whole turn, within the budget; that a load
// with the same input is the same; and that RetrievalStats counts it.
func TestRetrievalBringsBackTheTurn(t *testing.T) {
	for _, messages := range []bool{true, false} {
		t.Run(fmt.Sprintf("messages=%v", messages), func(t *testing.T) {
			ctx := context.Background()
			c := testCompactor(t, 2000)
			m := New(c, WithReturnMessages(messages))
			fillChat(t, m, 80)
			before := m.RetrievalStats()
			q := map[string]any{"input": "Where does Marisol live?"}
			v, err := m.LoadMemoryVariables(ctx, q)
			require.NoError(t, err)
			again, err := m.LoadMemoryVariables(ctx, q)
			require.NoError(t, err)
			require.Equal(t, v, again, "the same input, the same context")
			var text string
			if messages {
				msgs := v["history"].([]llms.ChatMessage)
				last := msgs[len(msgs)-1]
				require.Equal(t, llms.ChatMessageTypeHuman, last.GetType())
				text = last.GetContent()
				require.True(t, strings.HasPrefix(text, RetrievedPreamble), "the retrieved turns come last")
				require.True(t, strings.HasPrefix(msgs[0].GetContent(), compact.SummaryPreamble), "the summary leads")
				require.LessOrEqual(t, c.CountTokens(append(Contents(msgs), llms.TextParts(llms.ChatMessageTypeHuman, q["input"].(string)))), c.Budget())
			} else {
				s := v["history"].(string)
				i := strings.Index(s, RetrievedPreamble)
				require.Positive(t, i)
				text = s[i:]
			}
			in, out := chatTurn(3)
			require.Regexp(t, `\[ref:[a-z2-7]{8}\] Human: `+in, text, "the question, verbatim, with its ref")
			require.Regexp(t, `\[ref:[a-z2-7]{8}\] AI: `+out, text, "and its reply")
			st := m.RetrievalStats()
			require.Equal(t, before.Retrieved+2, st.Retrieved, "%+v", st)
			require.GreaterOrEqual(t, st.Messages-before.Messages, 4)
		})
	}
}

// TestRetrievalBadInput: an empty input or one without words retrieves
// nothing, an input larger than the reserve retrieves nothing and says so,
// operator characters are literal, and a history without search degrades
// to no retrieval.
func TestRetrievalBadInput(t *testing.T) {
	ctx := context.Background()
	c := testCompactor(t, 2000)
	m := New(c, WithReturnMessages(true))
	fillChat(t, m, 80)
	for _, in := range []string{"", "   ", `&|!:*()'"%_`} {
		v, err := m.LoadMemoryVariables(ctx, map[string]any{"input": in})
		require.NoError(t, err)
		msgs := v["history"].([]llms.ChatMessage)
		require.Equal(t, msgs, withoutRetrieved(msgs), "%q retrieves nothing", in)
	}
	require.Equal(t, 3, m.RetrievalStats().Empty) // the fill's inputs all have words
	for _, in := range []string{`Marisol's "sister" & (Valparaiso | %_*:!)`, `Marisol%`, `Valpar_iso OR 1=1; --`} {
		_, err := m.LoadMemoryVariables(ctx, map[string]any{"input": in})
		require.NoError(t, err, "%q", in)
	}
	require.Zero(t, m.RetrievalStats().Errors)
	big := strings.Repeat("Marisol Valparaiso ", 300)
	v, err := m.LoadMemoryVariables(ctx, map[string]any{"input": big})
	require.NoError(t, err)
	msgs := v["history"].([]llms.ChatMessage)
	require.Equal(t, msgs, withoutRetrieved(msgs))
	require.Equal(t, 1, m.RetrievalStats().TooLarge)

}

// TestRetrievalWithAnyHistory: langchaingo's own history cannot search;
// the Memory ranks the messages it holds with its in-memory index, and
// retrieves what the default history's search retrieves, turn after turn.
func TestRetrievalWithAnyHistory(t *testing.T) {
	ctx := context.Background()
	c := testCompactor(t, 2000)
	plain := New(c, WithChatHistory(lcmemory.NewChatMessageHistory()), WithReturnMessages(true))
	def := New(c, WithReturnMessages(true))
	fillChat(t, plain, 80)
	fillChat(t, def, 80)
	for _, in := range []string{"Where does Marisol live?", "let's keep chatting", "what did I say about the subjects?"} {
		q := map[string]any{"input": in}
		want, err := def.LoadMemoryVariables(ctx, q)
		require.NoError(t, err)
		got, err := plain.LoadMemoryVariables(ctx, q)
		require.NoError(t, err)
		require.Equal(t, want, got, "input %q", in)
	}
	v, err := plain.LoadMemoryVariables(ctx, map[string]any{"input": "Where does Marisol live?"})
	require.NoError(t, err)
	msgs := v["history"].([]llms.ChatMessage)
	require.NotEqual(t, msgs, withoutRetrieved(msgs), "retrieved")
	in, out := chatTurn(3)
	last := msgs[len(msgs)-1].GetContent()
	require.Contains(t, last, "Human: "+in)
	require.Contains(t, last, "AI: "+out)
	st, dst := plain.RetrievalStats(), def.RetrievalStats()
	require.Positive(t, st.Indexed, "%+v", st)
	require.Zero(t, st.Searched+st.NoSearch, "%+v", st)
	require.Positive(t, dst.Searched, "%+v", dst)
	require.Zero(t, dst.Indexed, "%+v", dst)
	require.Equal(t, dst.Retrieved+1, st.Retrieved)

	// A cleared history starts a new index.
	require.NoError(t, plain.Clear(ctx))
	fillTurns(t, plain, 80, func(i int) (string, string) { return fmt.Sprintf("turn %d about boats", i), "noted" })
	v, err = plain.LoadMemoryVariables(ctx, map[string]any{"input": "Where does Marisol live?"})
	require.NoError(t, err)
	msgs = v["history"].([]llms.ChatMessage)
	require.Equal(t, msgs, withoutRetrieved(msgs), "nothing of the cleared conversation comes back")
}

// TestRetrievalOff: WithRetrieval(false) retrieves nothing; a history that
// fits whole is returned as ConversationBuffer returns it.
func TestRetrievalOff(t *testing.T) {
	ctx := context.Background()
	c := testCompactor(t, 2000)
	m := New(c, WithReturnMessages(true), WithRetrieval(false))
	fillChat(t, m, 80)
	v, err := m.LoadMemoryVariables(ctx, map[string]any{"input": "Where does Marisol live?"})
	require.NoError(t, err)
	msgs := v["history"].([]llms.ChatMessage)
	require.Equal(t, msgs, withoutRetrieved(msgs))
	require.Zero(t, m.RetrievalStats().Loads)

	short := New(c, WithReturnMessages(true))
	fillChat(t, short, 4)
	v, err = short.LoadMemoryVariables(ctx, map[string]any{"input": "Where does Marisol live?"})
	require.NoError(t, err)
	h, err := short.ChatHistory().Messages(ctx)
	require.NoError(t, err)
	require.Equal(t, h, v["history"], "before any compaction: the history verbatim")
}

// TestWholeTurns: no context of a long chat shows a reply after anything
// but the message it answers.
func TestWholeTurns(t *testing.T) {
	ctx := context.Background()
	c := testCompactor(t, 1500)
	m := New(c, WithReturnMessages(true))
	asked := map[string]string{}
	for i := range 120 {
		in, out := chatTurn(i)
		out = fmt.Sprintf("%s (%d)", out, i)
		asked[out] = in
		v, err := m.LoadMemoryVariables(ctx, map[string]any{"input": in})
		require.NoError(t, err)
		msgs := v["history"].([]llms.ChatMessage)
		for k, cm := range msgs {
			if cm.GetType() == llms.ChatMessageTypeAI {
				require.Positive(t, k, "turn %d", i)
				require.Equal(t, asked[cm.GetContent()], msgs[k-1].GetContent(), "turn %d: a reply follows its question", i)
			}
		}
		require.NoError(t, m.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": out}))
	}
	_ = store.NewChatHistory
}

package conversation

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/trajectory"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestLogInputMatchesWholeConversation: calls given a Log's window
// (its Input, moved by Advance after each Result) return, call by call,
// exactly what calls given the whole conversation return, while the
// window moves and stays bounded.
func TestLogInputMatchesWholeConversation(t *testing.T) {
	var chat []llms.MessageContent
	for i := range 300 {
		chat = append(chat,
			llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprintf("question %d: %s", i, strings.Repeat("why so? ", 5+i%7))),
			llms.TextParts(llms.ChatMessageTypeAI, fmt.Sprintf("answer %d: %s", i, strings.Repeat("because. ", 10+i%13))))
	}
	agent := mustReadTrajectory(t, "../testdata/trajectories/sweagent__demo-marshmallow-1867-fc.jsonl")
	cases := []struct {
		name   string
		msgs   []llms.MessageContent
		window int
	}{
		{"chat", chat, 3_000},
		{"agent", append(agent[:len(agent):len(agent)], agent[1:]...), 5_000},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			c, err := compact.New(compact.WithContextWindow(tc.window), compact.WithReservedOutput(0))
			require.NoError(t, err)
			windowed, whole := compact.NewSession("s"), compact.NewSession("s")
			h := NewLog(16)
			moves := 0
			for n, mc := range tc.msgs {
				h.Append(mc)
				in := h.Input(0, nil)
				require.Equal(t, n+1, in.N)
				require.Equal(t, in.N-len(in.Messages), in.Omitted)
				got, err := c.Compact(ctx, windowed, in.Messages, in.Options()...)
				require.NoError(t, err)
				want, err := c.Compact(ctx, whole, tc.msgs[:n+1])
				require.NoError(t, err)
				require.Equal(t, want.Messages, got.Messages, "after %d messages", n+1)
				require.Equal(t, want.Compacted, got.Compacted, "after %d messages", n+1)
				pos := h.Positions(in)
				require.Len(t, pos, len(in.Messages))
				for k, p := range pos {
					require.Equal(t, want.States[p], got.States[k], "after %d messages: position %d", n+1, p)
				}
				if h.Advance(in, got) {
					moves++
				}
				require.LessOrEqual(t, h.WindowLen(), len(got.Messages)+16+MoveBatch+1, "after %d messages", n+1)
			}
			require.Positive(t, moves, "the window must move for the comparison to mean something")
			// The windowed session counts the tokens of what it was given;
			// an adapter counts its whole history (Stats.WithTokens).
			ws, gs := whole.Stats(), windowed.Stats()
			require.Equal(t, ws.TokensActive, gs.TokensActive)
			require.Equal(t, ws, gs.WithTokens(ws.TokensOriginal, gs.TokensActive))
		})
	}
}

// TestLogInputFrom: an input from a turn start holds the leading
// system messages and the window's messages from it on, built in the
// buffer given when it is large enough; the whole window's input is the
// window itself.
func TestLogInputFrom(t *testing.T) {
	h := NewLog(4)
	var all []llms.MessageContent
	add := func(mc llms.MessageContent) {
		h.Append(mc)
		all = append(all, mc)
	}
	add(llms.TextParts(llms.ChatMessageTypeSystem, "sys"))
	for i := range 10 {
		add(llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprint("q", i)))
		add(llms.TextParts(llms.ChatMessageTypeAI, fmt.Sprint("a", i)))
	}
	require.NoError(t, h.SetWindow(9, []int{1, 2}))
	ids := compact.MessageIDs(all)

	whole := h.Input(0, nil)
	require.Equal(t, 15, len(whole.Messages))
	require.Equal(t, 6, whole.Omitted)
	require.Equal(t, []string{ids[0], ids[1], ids[2], ids[9]}, whole.IDs[:4])

	var buf Input
	from := h.TurnStart(h.Len(), 3)
	require.Equal(t, 15, from)
	in := h.Input(from, &buf)
	require.Equal(t, from, in.From)
	require.Equal(t, []llms.MessageContent{all[0], all[15], all[16], all[17], all[18], all[19], all[20]}, in.Messages)
	require.Equal(t, []string{ids[0], ids[15], ids[16], ids[17], ids[18], ids[19], ids[20]}, in.IDs)
	require.Equal(t, 21-7, in.Omitted)
	require.Equal(t, []int{0, 15, 16, 17, 18, 19, 20}, h.Positions(in))
	require.Equal(t, in.Messages, buf.Messages, "built in the buffer")

	again := h.Input(h.TurnStart(h.Len(), 2), &buf)
	require.Len(t, again.Messages, 5)
	require.Same(t, &buf.Messages[0], &again.Messages[0], "the buffer's slices are reused")
	require.Len(t, in.Options(), 2)
}

// mustReadTrajectory reads the recorded agent conversation at path.
func mustReadTrajectory(t testing.TB, path string) []llms.MessageContent {
	t.Helper()
	msgs, err := trajectory.ReadFile(path)
	require.NoError(t, err)
	return msgs
}

package conversation

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestLogIDsAndCounts: a Log names its messages as MessageIDs names
// the whole list (also after a truncation), NextID is what Append returns,
// Tokens is the counter's count, and the leading system messages are its
// Lead.
func TestLogIDsAndCounts(t *testing.T) {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "be brief"),
		llms.TextParts(llms.ChatMessageTypeSystem, "be kind"),
		llms.TextParts(llms.ChatMessageTypeHuman, "hi"),
		llms.TextParts(llms.ChatMessageTypeAI, "OK."),
		llms.TextParts(llms.ChatMessageTypeSystem, "not leading"),
		llms.TextParts(llms.ChatMessageTypeHuman, "hi"),
		llms.TextParts(llms.ChatMessageTypeAI, "OK."),
	}
	c, err := compact.New()
	require.NoError(t, err)
	h := NewLog(0)
	for _, mc := range msgs {
		next := h.NextID(mc)
		require.Equal(t, next, h.Append(mc))
	}
	require.Equal(t, len(msgs), h.Len())
	require.Equal(t, 2, h.Lead())
	require.Equal(t, 2, h.Start())
	require.Empty(t, h.Kept())
	require.Equal(t, len(msgs), h.WindowLen())
	ids := compact.MessageIDs(msgs)
	for i := range msgs {
		require.Equal(t, ids[i], h.ID(i))
		require.Equal(t, msgs[i], h.Message(i))
		require.Equal(t, c.Counter().CountMessage(msgs[i]), h.Tokens(c.Counter(), i))
	}
	require.NotEqual(t, h.ID(2), h.ID(5), "a repeat has its own id")

	h.Truncate(5)
	require.Equal(t, 5, h.Len())
	require.Equal(t, 5, h.WindowLen())
	other := llms.TextParts(llms.ChatMessageTypeHuman, "bye")
	h.Append(other)
	h.Append(msgs[6])
	want := compact.MessageIDs(append(msgs[:5:5], other, msgs[6]))
	for i, id := range want {
		require.Equal(t, id, h.ID(i), "after the truncation, position %d", i)
	}

	h.Clear()
	require.Zero(t, h.Len())
	require.Zero(t, h.Lead())
	require.Zero(t, h.WindowLen())
	require.Equal(t, ids[0], h.Append(msgs[0]), "the names start over")
}

// TestLogWindow: SetWindow checks and sets the window, Window yields
// lead | kept | start.. (from a turn start, the kept positions and those
// from start below it left out), TurnStart finds the k-th last human
// message, and a truncation below the window's start puts the window over
// the whole conversation.
func TestLogWindow(t *testing.T) {
	h := NewLog(4)
	h.Append(llms.TextParts(llms.ChatMessageTypeSystem, "sys"))
	for i := range 10 {
		h.Append(llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprint("q", i)))
		h.Append(llms.TextParts(llms.ChatMessageTypeAI, fmt.Sprint("a", i)))
	}
	require.Equal(t, 21, h.Len())

	for _, bad := range []struct {
		start int
		kept  []int
	}{{0, nil}, {22, nil}, {8, []int{0}}, {8, []int{8}}, {8, []int{3, 2}}, {8, []int{2, 2}}} {
		require.Error(t, h.SetWindow(bad.start, bad.kept), "start %d kept %v", bad.start, bad.kept)
		require.Equal(t, 1, h.Start(), "nothing changes on an error")
	}
	kept := []int{1, 2}
	require.NoError(t, h.SetWindow(9, kept))
	kept[0] = 7 // SetWindow copied it
	require.Equal(t, []int{1, 2}, h.Kept())
	require.Equal(t, 9, h.Start())
	require.Equal(t, 1+2+12, h.WindowLen())
	require.Equal(t, append([]int{0, 1, 2}, seq(9, 21)...), slices.Collect(h.Window(21, 0)))
	require.Equal(t, append([]int{0, 1, 2}, seq(9, 15)...), slices.Collect(h.Window(15, 0)))
	require.Equal(t, append([]int{0, 2}, seq(9, 21)...), slices.Collect(h.Window(21, 2)))
	require.Equal(t, append([]int{0}, seq(13, 21)...), slices.Collect(h.Window(21, 13)))

	assert.Zero(t, h.TurnStart(21, 0), "off")
	assert.Equal(t, 19, h.TurnStart(21, 1))
	assert.Equal(t, 9, h.TurnStart(21, 6), "the first human message from start")
	assert.Equal(t, 1, h.TurnStart(21, 7), "then the kept ones")
	assert.Zero(t, h.TurnStart(21, 8), "no more than k turns")

	h.Truncate(12)
	require.Equal(t, 9, h.Start(), "a truncation after the start keeps the window")
	require.Equal(t, append([]int{0, 1, 2}, seq(9, 12)...), slices.Collect(h.Window(12, 0)))
	h.Truncate(5)
	require.Equal(t, 1, h.Start(), "below the start the window starts over")
	require.Empty(t, h.Kept())
	require.Equal(t, 5, h.WindowLen())

	h.ResetWindow()
	require.Equal(t, 1, h.Start())
}

func seq(from, to int) []int {
	var out []int
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// ExampleLog gives the engine a window of a long conversation: the
// messages the session summarized are left out of each call, and the
// window moves after each Result.
func ExampleLog() {
	c, err := compact.New(compact.WithContextWindow(2_000), compact.WithReservedOutput(0))
	if err != nil {
		panic(err)
	}
	s := compact.NewSession("example")
	h := NewLog(16)
	for i := range 200 {
		h.Append(llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprintf("Question %d: what is %d squared?", i, i)))
		h.Append(llms.TextParts(llms.ChatMessageTypeAI, fmt.Sprintf("%d squared is %d.", i, i*i)))
		in := h.Input(0, nil)
		res, err := c.Compact(context.Background(), s, in.Messages, in.Options()...)
		if err != nil {
			panic(err)
		}
		h.Advance(in, res)
	}
	in := h.Input(0, nil)
	fmt.Println("messages:", h.Len())
	fmt.Println("given to the engine:", len(in.Messages) < 100, "omitted:", in.Omitted > 300)
	// Output:
	// messages: 400
	// given to the engine: true omitted: true
}

// TestHasToolRounds: an input holds tool rounds when one of its messages
// is a tool message or calls a tool, whether or not the Log holds others.
func TestHasToolRounds(t *testing.T) {
	h := NewLog(0)
	h.Append(llms.TextParts(llms.ChatMessageTypeHuman, "hi"))
	h.Append(llms.TextParts(llms.ChatMessageTypeAI, "hello"))
	plain := h.Input(0, nil)
	assert.False(t, h.HasToolRounds(plain), "a plain conversation")
	h.Append(llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
		llms.ToolCall{ID: "c1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "read", Arguments: "{}"}}}})
	assert.True(t, h.HasToolRounds(h.Input(0, nil)), "a call")
	assert.False(t, h.HasToolRounds(plain), "an input without the call")
	h.Append(llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
		llms.ToolCallResponse{ToolCallID: "c1", Name: "read", Content: "text"}}})
	in := h.Input(0, nil)
	assert.True(t, h.HasToolRounds(Input{Messages: in.Messages[3:]}), "a tool message")
	h.Truncate(2)
	assert.Zero(t, h.tools, "the tool messages truncated are no longer counted")
	assert.False(t, h.HasToolRounds(h.Input(0, nil)), "after the truncation")
}

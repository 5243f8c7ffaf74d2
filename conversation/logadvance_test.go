package conversation

import (
	"fmt"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// advanceHistory returns a Log of a system message and turns of the
// given shapes ("t": human then AI; "r": human, AI calling a tool, the
// tool's result, AI), with a minimum window of 4.
func advanceHistory(shapes string) *Log {
	h := NewLog(4)
	h.Append(llms.TextParts(llms.ChatMessageTypeSystem, "sys"))
	for i, s := range shapes {
		h.Append(llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprint("q", i)))
		if s == 'r' {
			id := fmt.Sprint("call", i)
			h.Append(llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
				llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: "f", Arguments: "{}"}}}})
			h.Append(llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: id, Name: "f", Content: "out"}}})
		}
		h.Append(llms.TextParts(llms.ChatMessageTypeAI, fmt.Sprint("a", i)))
	}
	return h
}

// summarizedResult returns a compacting Result for in whose States mark
// the positions in summarized as summarized.
func summarizedResult(h *Log, in Input, summarized func(p int) bool) *compact.Result {
	res := &compact.Result{Compacted: true, States: make([]compact.MessageState, len(in.Messages))}
	for k, p := range h.Positions(in) {
		if summarized(p) {
			res.States[k] = compact.StateSummarized
		}
	}
	return res
}

// TestLogAdvance: the window moves past whole summarized units once a
// batch can leave, the task kept; a partly summarized tool round stops it;
// a call that did not compact, states that do not match the input, and a
// batch too small move nothing.
func TestLogAdvance(t *testing.T) {
	t.Run("summarized turns leave, the task is kept", func(t *testing.T) {
		h := advanceHistory("tttttttttttttttttttt") // 41 messages
		in := h.Input(0, nil)
		res := summarizedResult(h, in, func(p int) bool { return p >= 3 && p < 31 })
		require.True(t, h.Advance(in, res))
		require.Equal(t, 41-4, h.Start(), "up to the minimum window")
		require.Equal(t, append([]int{1, 2}, seq(31, 37)...), h.Kept(), "the first turn and the turns not summarized stay")
		require.Equal(t, 1+8+4, h.WindowLen())
		again := h.Input(0, nil)
		require.Equal(t, 41-13, again.Omitted)
	})
	t.Run("not before a batch", func(t *testing.T) {
		h := advanceHistory("tttttttttttttttttttt")
		in := h.Input(0, nil)
		require.False(t, h.Advance(in, summarizedResult(h, in, func(p int) bool { return p >= 1 && p < 1+MoveBatch-2 })))
		require.Equal(t, 1, h.Start())
	})
	t.Run("not without a compaction", func(t *testing.T) {
		h := advanceHistory("tttttttttttttttttttt")
		in := h.Input(0, nil)
		res := summarizedResult(h, in, func(p int) bool { return p < 31 })
		res.Compacted = false
		require.False(t, h.Advance(in, res))
		require.False(t, h.Advance(in, nil))
		res.Compacted = true
		res.States = res.States[1:]
		require.False(t, h.Advance(in, res), "states that do not match the input")
		require.Equal(t, 1, h.Start())
	})
	t.Run("a partly summarized tool round stops it", func(t *testing.T) {
		h := advanceHistory("ttttttttttrttttttttttt")
		// turn 10 (a tool round) starts at 1+20: human 21, call 22, result 23, AI 24.
		in := h.Input(0, nil)
		require.True(t, compact.OpensToolRound(h.Message(22)))
		require.True(t, h.Advance(in, summarizedResult(h, in, func(p int) bool { return p >= 1 && p <= 22 })))
		require.Equal(t, 22, h.Start(), "the round opened at 22 is split: the window stops before it")
	})
	t.Run("messages before the turn start count as summarized", func(t *testing.T) {
		h := advanceHistory("tttttttttttttttttttt")
		in := h.Input(h.TurnStart(h.Len(), 3), nil)
		require.Equal(t, 35, in.From)
		res := &compact.Result{States: make([]compact.MessageState, len(in.Messages))}
		require.True(t, h.Advance(in, res), "no compaction, but the turns left out leave the window")
		require.Equal(t, 37, h.Start())
		require.Equal(t, []int{35, 36}, h.Kept())
	})
	t.Run("never a system message first after the leading ones", func(t *testing.T) {
		h := advanceHistory("tttttttttt")
		h.Append(llms.TextParts(llms.ChatMessageTypeSystem, "a later instruction"))
		for i := range 10 {
			h.Append(llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprint("later q", i)))
			h.Append(llms.TextParts(llms.ChatMessageTypeAI, fmt.Sprint("later a", i)))
		}
		in := h.Input(0, nil)
		require.False(t, h.Advance(in, summarizedResult(h, in, func(p int) bool { return p >= 1 && p < 21 })))
		require.Equal(t, 1, h.Start())
		require.True(t, h.Advance(in, summarizedResult(h, in, func(p int) bool { return p >= 1 && p < 22 })))
		require.Equal(t, 38, h.Start())
		require.Equal(t, seq(22, 38), h.Kept())
	})
}

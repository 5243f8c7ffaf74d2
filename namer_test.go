package compact

import (
	"testing"

	"github.com/agentcompact/compact/internal/msg"

	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestNamerMatchesMessageIDs: naming a conversation one message at
// a time gives MessageIDs' ids, repeats included; Next predicts Add, and
// Remove takes back the latest messages so that they are named again the
// same way.
func TestNamerMatchesMessageIDs(t *testing.T) {
	msgs := loadTestTrajectory(t, "sweagent__demo-marshmallow-1867-fc")
	hi := llms.TextParts(llms.ChatMessageTypeHuman, "hi")
	msgs = append(msgs[:len(msgs):len(msgs)], hi, hi, hi)
	want := MessageIDs(msgs)
	var n msg.Namer
	for i, mc := range msgs {
		next := n.Next(mc)
		require.Equal(t, want[i], n.Add(mc), "message %d", i)
		require.Equal(t, want[i], next, "message %d", i)
	}
	require.Equal(t, "~3", want[len(want)-1][len(want[len(want)-1])-2:], "a third repeat is named ~3")
	for i := len(msgs) - 1; i >= len(msgs)-5; i-- {
		n.Remove(msgs[i])
	}
	for i := len(msgs) - 5; i < len(msgs); i++ {
		require.Equal(t, want[i], n.Add(msgs[i]), "message %d named again", i)
	}
	var empty msg.Namer
	empty.Remove(hi) // nothing to take back: no effect
	require.Equal(t, MessageIDs([]llms.MessageContent{hi})[0], empty.Add(hi))
}

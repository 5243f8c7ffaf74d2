package llmsummary

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// agentModel is a comparable model (a pointer), as real clients are.
type agentModel struct{ modelFunc }

func TestCacheSafeInput(t *testing.T) {
	agent := &agentModel{modelFunc(func(context.Context, []llms.MessageContent, ...llms.CallOption) (*llms.ContentResponse, error) {
		return textReply(goodJSON), nil
	})}
	other := &faithfulModel{}
	msgs := sampleMessages()
	sent := append([]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are a coding agent.")}, msgs...)
	sent = append(sent, llms.TextParts(llms.ChatMessageTypeHuman, "and now?"))
	req := baseRequest(msgs[:3]) // the user's request and the tool round are summarized
	req.Sent, req.SentTo, req.SentWindow = sent, agent, 8_000

	tests := []struct {
		name   string
		mode   CacheSafe
		model  llms.Model
		window int
		sent   []llms.MessageContent
		want   bool
	}{
		{"auto, the agent's model", CacheSafeAuto, agent, 8_000, sent, true},
		{"auto, another model", CacheSafeAuto, other, 8_000, sent, false},
		{"auto, an uncomparable model", CacheSafeAuto, agent.modelFunc, 8_000, sent, false},
		{"on, another model", CacheSafeOn, other, 8_000, sent, true},
		{"off", CacheSafeOff, agent, 8_000, sent, false},
		{"the prefix does not fit beside the reply", CacheSafeAuto, agent, 600, sent, false},
		{"no conversation known", CacheSafeAuto, agent, 8_000, nil, false},
		{"the messages are not in it", CacheSafeAuto, agent, 8_000, sent[:1], false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New([]llms.Model{tt.model}, WithCacheSafe(tt.mode))
			r := req
			r.Sent, r.SentWindow = tt.sent, tt.window
			in, ok := s.cacheSafeInput(r, 0, quarterCount)
			require.Equal(t, tt.want, ok)
			if !ok {
				return
			}
			require.Len(t, in.msgs, len(sent)+1)
			assert.Equal(t, sent, in.msgs[:len(sent)], "the conversation unchanged")
			instr := in.msgs[len(sent)].Parts[0].(llms.TextContent).Text
			assert.Contains(t, instr, CacheSafeTag+"4 />", "through the tool result, the 4th message")
			assert.LessOrEqual(t, in.tokens+replyCap(r.MaxTokens), tt.window, "I6: within the window beside the reply")
		})
	}
}

// TestCacheSafeSummarize: the whole call with a cache-safe request gives a
// valid record.
func TestCacheSafeSummarize(t *testing.T) {
	var got []llms.MessageContent
	agent := &agentModel{modelFunc(func(_ context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
		got = msgs
		return textReply(goodJSON), nil
	})}
	msgs := sampleMessages()
	req := baseRequest(msgs)
	req.Sent, req.SentTo, req.SentWindow = msgs, agent, 8_000
	rec, err := New([]llms.Model{agent}).Summarize(context.Background(), req)
	require.NoError(t, err)
	assert.NotEmpty(t, rec.Summary)
	require.Len(t, got, len(msgs)+1)
}

// TestCacheSafeThroughCut: a message the agent was shown cut (or masked)
// shows its ref instead of its text; the request still covers it.
func TestCacheSafeThroughCut(t *testing.T) {
	agent := &agentModel{modelFunc(func(context.Context, []llms.MessageContent, ...llms.CallOption) (*llms.ContentResponse, error) {
		return textReply(goodJSON), nil
	})}
	long := llms.TextParts(llms.ChatMessageTypeAI, "THOUGHT: the variable is msubsup, the typo is mmsubsup, "+strings.Repeat("x", 400))
	cut := llms.TextParts(llms.ChatMessageTypeAI, "THOUGHT: the variable is msubsup\n[… compact: 420 bytes cut, ref:k3f2a9qx …]\n")
	sys := llms.TextParts(llms.ChatMessageTypeSystem, "You are a coding agent.")
	task := llms.TextParts(llms.ChatMessageTypeHuman, "Fix the printer.")
	nag := llms.TextParts(llms.ChatMessageTypeHuman, "Please give exactly one action.")
	sent := []llms.MessageContent{sys, task, cut, nag}
	req := baseRequest([]llms.MessageContent{long})
	req.Sent, req.SentTo, req.SentWindow = sent, agent, 8_000
	s := New([]llms.Model{agent})

	_, ok := s.cacheSafeInput(req, 0, quarterCount)
	assert.False(t, ok, "without refs the cut message is not recognised")

	req.Refs = []string{"k3f2a9qx"}
	in, ok := s.cacheSafeInput(req, 0, quarterCount)
	require.True(t, ok)
	assert.Contains(t, in.msgs[len(sent)].Parts[0].(llms.TextContent).Text, CacheSafeTag+"3 />", "through the cut message, the 3rd")

	req.Refs = []string{"k3f2a9q"} // the start of the shown ref is another ref
	_, ok = s.cacheSafeInput(req, 0, quarterCount)
	assert.False(t, ok)
}

package middleware

import (
	"context"
	"testing"
	"time"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/fake"
)

// TestInvalidOptions: every option given a value out of its range is an
// error naming it, in compact.New's words: WrapChecked returns it, and a
// Model built by Wrap fails every call with it, nothing sent.
func TestInvalidOptions(t *testing.T) {
	c := newCompactor(t, 4000)
	for _, tc := range []struct {
		name string
		opt  Option
	}{
		{"WithMaxSessions", WithMaxSessions(-1)},
		{"WithMaxSessions", WithMaxSessions(0)},
		{"WithSessionTTL", WithSessionTTL(-time.Minute)},
		{"WithMaxOriginalBytes", WithMaxOriginalBytes(-1)},
		{"WithLeaseTiming", WithLeaseTiming(time.Second, -time.Second)},
		{"WithBackoff", WithBackoff(conversation.Backoff{Base: -time.Millisecond})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			llm := fake.NewFakeLLM([]string{"ok"})
			m, err := WrapChecked(llm, c, tc.opt)
			require.Nil(t, m)
			require.ErrorIs(t, err, compact.ErrInvalidOption)
			require.Contains(t, err.Error(), "middleware: compact: invalid option: "+tc.name+": ")

			m = Wrap(llm, c, tc.opt)
			require.ErrorIs(t, m.Err(), compact.ErrInvalidOption)
			_, err = m.GenerateContent(context.Background(), []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")})
			require.ErrorIs(t, err, compact.ErrInvalidOption)
			ans, err := m.RecallTool().Call(WithSession(context.Background(), "s"), "hello")
			if err == nil {
				require.Contains(t, ans, "could not read", "the recall tool reads nothing")
			} else {
				require.ErrorIs(t, err, compact.ErrInvalidOption)
			}
			// The fake model would answer "ok" once, then fail: it was not called.
			out, err := llm.Call(context.Background(), "x")
			require.NoError(t, err)
			require.Equal(t, "ok", out)
		})
	}
}

// TestWrapNil: a nil model or compactor is named, at once by WrapChecked.
func TestWrapNil(t *testing.T) {
	c := newCompactor(t, 4000)
	_, err := WrapChecked(nil, c)
	require.ErrorIs(t, err, ErrNotConfigured)
	require.Contains(t, err.Error(), "the model to wrap is nil")
	_, err = WrapChecked(fake.NewFakeLLM(nil), nil)
	require.ErrorIs(t, err, ErrNotConfigured)
	require.Contains(t, err.Error(), "the compactor is nil")
	_, err = Wrap(nil, c).GenerateContent(context.Background(), nil)
	require.ErrorIs(t, err, ErrNotConfigured)
	require.Contains(t, err.Error(), "the model to wrap is nil")

	// No messages: named, and the model is not called (the fake has no
	// reply to give, so a call would fail otherwise).
	_, err = Wrap(fake.NewFakeLLM(nil), c).GenerateContent(context.Background(), nil)
	require.ErrorIs(t, err, compact.ErrInvalidInput)
	require.Contains(t, err.Error(), "messages to send are empty")

	m, err := WrapChecked(fake.NewFakeLLM([]string{"ok"}), c, WithMaxSessions(1), WithSessionTTL(0), WithMaxOriginalBytes(0), WithLeaseTiming(0, 0))
	require.NoError(t, err, "the edges of the ranges are accepted")
	require.NoError(t, m.Err())
}

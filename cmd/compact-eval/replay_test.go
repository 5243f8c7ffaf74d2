package main

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/agentcompact/compact/internal/trajectory"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

func TestCommonPrefix(t *testing.T) {
	m := conversation()
	assert.Equal(t, 3, commonPrefix(m[:3], m))
	assert.Equal(t, 0, commonPrefix(nil, m))
	other := append([]llms.MessageContent{m[0]}, m[2:]...)
	assert.Equal(t, 1, commonPrefix(m, other))
}

// fakeSender replays a script: per call, keep the last keep messages.
type fakeSender struct {
	keep  int
	calls int
	fail  int // the call (1-based) that fails
}

func (f *fakeSender) send(_ context.Context, in []llms.MessageContent) ([]llms.MessageContent, callInfo, error) {
	f.calls++
	if f.calls == f.fail {
		return nil, callInfo{}, errors.New("boom")
	}
	if f.keep > 0 && len(in) > f.keep {
		return append([]llms.MessageContent{in[0]}, in[len(in)-f.keep:]...), callInfo{compacted: true}, nil
	}
	return in, callInfo{}, nil
}

func TestReplayRun(t *testing.T) {
	c := testCounter(t)
	msgs := conversation()
	msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeAI, "done"))
	ticks := 0
	st := strategy{name: "fake", budget: 50, newRun: func(string) sender { return noneSender{} }}
	res := replayRun(context.Background(), "f", msgs, st, 10_000, c, func() { ticks++ })
	require.Len(t, res.calls, 4, "one call per assistant message")
	assert.Equal(t, 4, ticks)
	assert.Equal(t, []int{2, 4, 6, 8}, []int{res.calls[0].msgIndex, res.calls[1].msgIndex, res.calls[2].msgIndex, res.calls[3].msgIndex})
	for i, rec := range res.calls {
		assert.Equal(t, rec.origTokens, rec.sent)
		assert.False(t, rec.pairErr)
		assert.Equal(t, i > 0, rec.stable)
		if i > 0 {
			assert.Equal(t, res.calls[i-1].sent-3, rec.cached, "the previous context, without the reply priming")
		}
		assert.Equal(t, rec.sent > 50, rec.overBudget)
	}
	assert.Equal(t, res.ret.present, res.ret.visible)
	assert.Equal(t, 3, res.ret.present[factPaths])

	// A window the last request exceeds: a provider rejects it, so it keeps nothing.
	last := res.calls[len(res.calls)-1].sent
	res = replayRun(context.Background(), "f", msgs, st, last-1, c, nil)
	assert.True(t, res.calls[len(res.calls)-1].overWindow)
	assert.False(t, res.calls[0].overWindow)
	assert.Equal(t, 3, res.ret.present[factPaths])
	assert.Zero(t, res.ret.visible[factPaths], "a rejected call keeps nothing")

	st.newRun = func(string) sender { return &fakeSender{keep: 1, fail: 2} }
	res = replayRun(context.Background(), "f", msgs, st, 100, c, nil)
	require.Len(t, res.calls, 4)
	assert.True(t, res.calls[1].failed)
	assert.Contains(t, res.firstErr, "boom")
	assert.True(t, res.calls[2].pairErr, "a tool result without its call")
	assert.False(t, res.calls[2].stable)
	assert.Less(t, res.ret.visible[factPaths], res.ret.present[factPaths])
}

// BenchmarkReplay replays the largest test trajectory with ours-rule at a
// 16k window, as the harness does for each run.
func BenchmarkReplay(b *testing.B) {
	msgs, err := trajectory.ReadFile(filepath.Join(testdataDir, "mini-gemini3pro__django__django-10973.jsonl"))
	require.NoError(b, err)
	env := testEnv(b)
	for _, name := range []string{stratNone, stratOursRule} {
		st, err := newStrategy(name, 16_000, env)
		require.NoError(b, err)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				replayRun(context.Background(), "b", msgs, st, 16_000, env.counter, nil)
			}
		})
	}
}

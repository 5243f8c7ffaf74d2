package pgstore

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/internal/trajectory"
	"github.com/agentcompact/compact/middleware"
	"github.com/agentcompact/compact/summary"
)

// sentModel records what it was sent and answers "ok".
type sentModel struct{ sent [][]llms.MessageContent }

func (m *sentModel) GenerateContent(_ context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	m.sent = append(m.sent, msgs)
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: "ok"}}}, nil
}

func (m *sentModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}

// stable is the share of calls that extend the previous call's messages.
func stable(calls [][]llms.MessageContent) float64 {
	n := 0
	for k := 1; k < len(calls); k++ {
		ok := len(calls[k-1]) <= len(calls[k])
		for j := 0; ok && j < len(calls[k-1]); j++ {
			ok = msg.Equal(calls[k-1][j], calls[k][j])
		}
		if ok {
			n++
		}
	}
	return float64(n) / float64(max(len(calls)-1, 1))
}

// TestMiddlewareReplicasOnPostgres: two wrapped models with stores of
// their own (separate pools, as two processes) take turns on one real
// trajectory through PostgreSQL: as many summarizer calls and the same
// prefixes as one process.
func TestMiddlewareReplicasOnPostgres(t *testing.T) {
	msgs, err := trajectory.ReadFile(filepath.Join("..", "..", "testdata", "trajectories", "mini-gemini3pro__django__django-10973.jsonl"))
	require.NoError(t, err)
	run := func(stores ...*Store) (int32, float64) {
		var calls atomic.Int32
		c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(8_000),
			compact.WithCustomSummarizer(summary.Func(func(ctx context.Context, req summary.Request) (summary.Record, error) {
				calls.Add(1)
				return summary.Record{Summary: "earlier: files read, commands run"}, nil
			})))
		require.NoError(t, err)
		rec := &sentModel{}
		var models []*middleware.Model
		for _, s := range stores {
			models = append(models, middleware.Wrap(rec, c, middleware.WithStore(s)))
		}
		ctx := middleware.WithSession(context.Background(), "conversation-1")
		n := 0
		for i := 1; i < len(msgs); i++ {
			if msgs[i].Role == llms.ChatMessageTypeAI {
				_, err := models[n%len(models)].GenerateContent(ctx, msgs[:i])
				require.NoError(t, err)
				n++
			}
		}
		return calls.Load(), stable(rec.sent)
	}
	oneCalls, oneStable := run(newTestStore(t))
	a := newTestStore(t)
	b, err := New(context.Background(), testDSN(t), WithTablePrefix(a.t.prefix))
	require.NoError(t, err)
	defer b.Close()
	twoCalls, twoStable := run(a, b)
	t.Logf("summarizer calls: one process %d, two replicas %d; prefix-stable calls %.1f%% and %.1f%%",
		oneCalls, twoCalls, 100*oneStable, 100*twoStable)
	require.Positive(t, oneCalls)
	assert.Equal(t, oneCalls, twoCalls)
	assert.InDelta(t, oneStable, twoStable, 0.001)
}

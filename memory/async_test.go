package memory

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gate is a summarizer that reports each start and blocks until released,
// recording how many summaries ran at once.
type gate struct {
	started chan struct{}
	release chan struct{}
	mu      sync.Mutex
	cur     int
	max     int
	calls   int
}

func newGate() *gate {
	return &gate{started: make(chan struct{}, 64), release: make(chan struct{})}
}

func (g *gate) summarizer() compact.Summarizer {
	return compact.SummarizerFunc(func(ctx context.Context, req compact.SummarizeRequest) (compact.SummaryRecord, error) {
		g.mu.Lock()
		g.cur++
		g.calls++
		g.max = max(g.max, g.cur)
		g.mu.Unlock()
		g.started <- struct{}{}
		<-g.release
		g.mu.Lock()
		g.cur--
		g.mu.Unlock()
		return compact.SummaryRecord{Summary: fmt.Sprintf("%d earlier messages about the task", len(req.Messages)), Mode: compact.ModeLLM}, nil
	})
}

func TestAsyncNeverBlocksATurn(t *testing.T) {
	ctx := context.Background()
	ins, outs := corpusTexts(t)
	g := newGate()
	m := New(testCompactor(t, 3000, compact.WithCustomSummarizer(g.summarizer())), WithAsync(2))
	turn := 0
	save := func() string {
		out := fmt.Sprintf("answer %d: %s", turn, outs[turn%len(outs)])
		require.NoError(t, m.SaveContext(ctx, map[string]any{"input": fmt.Sprintf("q%d %s", turn, ins[turn%len(ins)])}, map[string]any{"output": out}))
		turn++
		return out
	}
	for turn < 40 {
		save()
		_, err := m.LoadMemoryVariables(ctx, nil)
		require.NoError(t, err)
		if len(g.started) > 0 {
			break
		}
	}
	<-g.started // a background compaction is now blocked in the summarizer

	// Turns go on while it is blocked: if SaveContext or LoadMemoryVariables
	// waited for it, this test would hang.
	for i := 0; i < 3; i++ {
		out := save()
		v, err := m.LoadMemoryVariables(ctx, nil)
		require.NoError(t, err)
		require.True(t, strings.HasSuffix(v["history"].(string), "AI: "+out), "the newest turn is in the context")
	}
	g.mu.Lock()
	require.Equal(t, 1, g.calls, "one compaction at a time for the session")
	g.mu.Unlock()

	close(g.release)
	require.NoError(t, m.Flush(ctx))
	v, err := m.LoadMemoryVariables(ctx, nil)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(v["history"].(string), compact.SummaryPreamble), "the next load uses the background result")
	require.NoError(t, m.Close())
	g.mu.Lock()
	assert.Equal(t, 1, g.max)
	g.mu.Unlock()
	sums, err := m.Summaries(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, sums)
	require.NoError(t, m.Verify(ctx))
}

func TestAsyncSharedPoolIsBounded(t *testing.T) {
	ctx := context.Background()
	ins, outs := corpusTexts(t)
	g := newGate()
	c := testCompactor(t, 3000, compact.WithCustomSummarizer(g.summarizer()))
	pool := NewPool(2)
	defer pool.Close()
	mems := make([]*Memory, 5)
	for i := range mems {
		mems[i] = New(c, WithPool(pool), WithSessionID(fmt.Sprint("s", i)))
	}
	// Enough turns for every session to pass its trigger.
	for i := 0; i < 12; i++ {
		for _, m := range mems {
			require.NoError(t, m.SaveContext(ctx, map[string]any{"input": ins[i%len(ins)]}, map[string]any{"output": outs[i%len(outs)]}))
		}
	}
	<-g.started
	<-g.started
	// Both workers are blocked in a summarizer; the other sessions' jobs
	// wait in the queue, one per session.
	pool.mu.Lock()
	queued := len(pool.queue)
	pool.mu.Unlock()
	assert.Equal(t, 3, queued)
	close(g.release)
	for _, m := range mems {
		require.NoError(t, m.Close())
		sums, err := m.Summaries(ctx)
		require.NoError(t, err)
		assert.NotEmpty(t, sums, m.SessionID())
	}
	g.mu.Lock()
	assert.Equal(t, 2, g.max, "never more summaries at once than workers")
	g.mu.Unlock()
}

func TestAsyncClosedPoolFallsBackToSync(t *testing.T) {
	ctx := context.Background()
	pool := NewPool(1)
	pool.Close()
	m := New(testCompactor(t, 3000), WithPool(pool), WithReturnMessages(true))
	talk(t, m, 0, 30)
	view := loadMessages(t, m)
	require.True(t, strings.HasPrefix(view[0].GetContent(), compact.SummaryPreamble))
	require.NoError(t, m.Close())
	require.NoError(t, m.Verify(ctx))
}

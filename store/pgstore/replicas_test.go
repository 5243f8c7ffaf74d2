package pgstore

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/summary"
)

// countingSummarizer is an LLM-like summarizer that counts its calls and
// takes a while, as a model does.
type countingSummarizer struct {
	calls atomic.Int32
	delay time.Duration
}

func (c *countingSummarizer) Summarize(ctx context.Context, req summary.Request) (summary.Record, error) {
	c.calls.Add(1)
	select {
	case <-time.After(c.delay):
	case <-ctx.Done():
		return summary.Record{}, ctx.Err()
	}
	return summary.Record{Summary: fmt.Sprintf("%d earlier messages about orders", len(req.Messages))}, nil
}

func newCompactor(t testing.TB, sum summary.Summarizer) *compact.Compactor {
	t.Helper()
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(2_000), compact.WithReservedOutput(400),
		compact.WithCustomSummarizer(sum))
	require.NoError(t, err)
	return c
}

// turn runs one conversation turn on mem.
func turn(t testing.TB, mem *memory.Memory, q, a string) {
	t.Helper()
	ctx := context.Background()
	_, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": q})
	require.NoError(t, err)
	require.NoError(t, mem.SaveContext(ctx, map[string]any{"input": q}, map[string]any{"output": a}))
}

func question(i int) string { return fmt.Sprintf("Q%03d: what is the status of order %d?", i, 5000+i) }
func answer(i int) string {
	return fmt.Sprintf("A%03d: order %d %s", i, 5000+i, strings.Repeat("is in the warehouse and ships soon; ", 8))
}

// requireTurnsInOrder checks the history: every question is followed at
// once by its answer, and no turn is lost or doubled.
func requireTurnsInOrder(t testing.TB, msgs []llms.ChatMessage, turns int) {
	t.Helper()
	require.Len(t, msgs, 2*turns, "every turn stored once")
	seen := map[string]bool{}
	for i := 0; i < len(msgs); i += 2 {
		q, a := msgs[i].GetContent(), msgs[i+1].GetContent()
		require.Equal(t, llms.ChatMessageTypeHuman, msgs[i].GetType())
		require.Equal(t, llms.ChatMessageTypeAI, msgs[i+1].GetType())
		require.Equal(t, q[1:4], a[1:4], "the reply right after its input: %q then %q", q, a)
		require.False(t, seen[q], "turn %q stored twice", q)
		seen[q] = true
	}
}

// TestMemoryReplicasInTurns: two replicas (separate stores and pools, as
// separate processes) serve one conversation in turns. They run as many
// summarizer calls as one process does, and lose nothing.
func TestMemoryReplicasInTurns(t *testing.T) {
	const turns = 40
	one := &countingSummarizer{}
	single := memory.New(newCompactor(t, one), memory.WithStore(newTestStore(t)), memory.WithSessionID("conv"))
	for i := 0; i < turns; i++ {
		turn(t, single, question(i), answer(i))
	}

	a := newTestStore(t)
	b, err := New(context.Background(), testDSN(t), WithTablePrefix(a.t.prefix))
	require.NoError(t, err)
	defer b.Close()
	two := &countingSummarizer{}
	c := newCompactor(t, two)
	mems := []*memory.Memory{
		memory.New(c, memory.WithStore(a), memory.WithSessionID("conv")),
		memory.New(c, memory.WithStore(b), memory.WithSessionID("conv")),
	}
	for i := 0; i < turns; i++ {
		turn(t, mems[i%2], question(i), answer(i))
	}
	require.Positive(t, one.calls.Load(), "the conversation was summarized")
	t.Logf("summarizer calls: one process %d, two replicas in turns %d", one.calls.Load(), two.calls.Load())
	assert.Equal(t, one.calls.Load(), two.calls.Load(), "two replicas in turns summarize as often as one process")
	msgs, err := a.History("conv").Messages(context.Background())
	require.NoError(t, err)
	requireTurnsInOrder(t, msgs, turns)
	s1, err := mems[0].Summaries(context.Background())
	require.NoError(t, err)
	s2, err := mems[1].Summaries(context.Background())
	require.NoError(t, err)
	assert.Equal(t, len(s1), len(s2), "both replicas see one summary chain")
}

// TestMemoryReplicasAtOnce: two replicas serve one conversation at the
// same time, each turn's input and reply written together; the summarizer
// runs under the lease, so no more often than the compactions need.
func TestMemoryReplicasAtOnce(t *testing.T) {
	const turns = 30
	a := newTestStore(t)
	b, err := New(context.Background(), testDSN(t), WithTablePrefix(a.t.prefix))
	require.NoError(t, err)
	defer b.Close()
	sum := &countingSummarizer{delay: 30 * time.Millisecond}
	c := newCompactor(t, sum)
	mems := []*memory.Memory{
		memory.New(c, memory.WithStore(a), memory.WithSessionID("conv")),
		memory.New(c, memory.WithStore(b), memory.WithSessionID("conv")),
	}
	var wg sync.WaitGroup
	for r := range mems {
		wg.Add(1)
		go func(r int) {
			defer wg.Done()
			for i := r; i < turns; i += 2 {
				turn(t, mems[r], question(i), answer(i))
			}
		}(r)
	}
	wg.Wait()
	msgs, err := a.History("conv").Messages(context.Background())
	require.NoError(t, err)
	requireTurnsInOrder(t, msgs, turns)
	st, err := a.Load(context.Background(), "conv")
	require.NoError(t, err)
	require.NotEmpty(t, st.Chain)
	t.Logf("two replicas at once: %d summarizer calls, %d summaries stored", sum.calls.Load(), len(st.Chain))
	assert.Equal(t, len(st.Chain), int(sum.calls.Load()),
		"every summarizer call made a stored summary: none was wasted on a state another replica replaced")
}

// TestManySessionsTwoReplicas: 64 sessions, each served by two replicas
// at once (run with -race).
func TestManySessionsTwoReplicas(t *testing.T) {
	const sessions, turns = 64, 8
	a := newTestStore(t, WithMaxConns(8))
	b, err := New(context.Background(), testDSN(t), WithTablePrefix(a.t.prefix), WithMaxConns(8))
	require.NoError(t, err)
	defer b.Close()
	c := newCompactor(t, &countingSummarizer{})
	var wg sync.WaitGroup
	for sidx := 0; sidx < sessions; sidx++ {
		for r, s := range []*Store{a, b} {
			wg.Add(1)
			go func(sid string, r int, s *Store) {
				defer wg.Done()
				mem := memory.New(c, memory.WithStore(s), memory.WithSessionID(sid))
				for i := r; i < turns; i += 2 {
					turn(t, mem, question(i), answer(i))
				}
			}(fmt.Sprintf("session-%02d", sidx), r, s)
		}
	}
	wg.Wait()
	for sidx := 0; sidx < sessions; sidx++ {
		msgs, err := a.History(fmt.Sprintf("session-%02d", sidx)).Messages(context.Background())
		require.NoError(t, err)
		requireTurnsInOrder(t, msgs, turns)
	}
}

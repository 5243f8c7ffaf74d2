package middleware

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/internal/trajectory"
	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/summary"
)

// countingStore counts the round trips of the store it wraps (every
// method call); it keeps all four contracts of the wrapped store.Memory.
type countingStore struct {
	*store.Memory
	n atomic.Int64
}

func (c *countingStore) Load(ctx context.Context, id string) (store.State, error) {
	c.n.Add(1)
	return c.Memory.Load(ctx, id)
}

func (c *countingStore) Save(ctx context.Context, st store.State, from int) (int64, error) {
	c.n.Add(1)
	return c.Memory.Save(ctx, st, from)
}

func (c *countingStore) Version(ctx context.Context, id string) (int64, error) {
	c.n.Add(1)
	return c.Memory.Version(ctx, id)
}

func (c *countingStore) TryLease(ctx context.Context, id, h string, ttl time.Duration) (bool, error) {
	c.n.Add(1)
	return c.Memory.TryLease(ctx, id, h, ttl)
}

func (c *countingStore) ReleaseLease(ctx context.Context, id, h string) error {
	c.n.Add(1)
	return c.Memory.ReleaseLease(ctx, id, h)
}

func (c *countingStore) PutOriginals(ctx context.Context, id string, list []store.Original) error {
	c.n.Add(1)
	return c.Memory.PutOriginals(ctx, id, list)
}

// summaries is a summarizer that counts its calls.
type summaries struct{ calls atomic.Int32 }

func (s *summaries) Summarize(_ context.Context, req summary.Request) (summary.Record, error) {
	s.calls.Add(1)
	return summary.Record{Summary: fmt.Sprintf("%d earlier messages: files read, commands run", len(req.Messages))}, nil
}

// replay sends every prefix of msgs that ends before an assistant message
// through models[call % len(models)], as an agent's turns landing on
// replicas in turn.
func replay(t *testing.T, msgs []llms.MessageContent, models []*Model, rec *recorder) {
	t.Helper()
	ctx := WithSession(context.Background(), "conversation-1")
	n := 0
	for i := 1; i < len(msgs); i++ {
		if msgs[i].Role != llms.ChatMessageTypeAI {
			continue
		}
		_, err := models[n%len(models)].GenerateContent(ctx, msgs[:i])
		require.NoError(t, err, "call %d", n)
		n++
	}
}

// stableShare is the share of calls whose messages extend the previous
// call's (a provider's prefix cache hits).
func stableShare(calls [][]llms.MessageContent) float64 {
	stable := 0
	for k := 1; k < len(calls); k++ {
		prev, cur := calls[k-1], calls[k]
		ok := len(prev) <= len(cur)
		for j := 0; ok && j < len(prev); j++ {
			ok = msg.Equal(prev[j], cur[j])
		}
		if ok {
			stable++
		}
	}
	return float64(stable) / float64(max(len(calls)-1, 1))
}

func storeTrajectory(t *testing.T) []llms.MessageContent {
	t.Helper()
	msgs, err := trajectory.ReadFile(filepath.Join("..", "testdata", "trajectories", "mini-gemini3pro__django__django-10973.jsonl"))
	require.NoError(t, err)
	return msgs
}

func newStoreCompactor(t *testing.T, sum summary.Summarizer) *compact.Compactor {
	t.Helper()
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(8_000), compact.WithCustomSummarizer(sum))
	require.NoError(t, err)
	return c
}

// TestReplicasShareState: two wrapped models taking turns on one
// conversation summarize as often as one process and keep its prefix
// stability when they share a store; without one they do not.
func TestReplicasShareState(t *testing.T) {
	msgs := storeTrajectory(t)
	run := func(replicas int, st store.Store) (int32, float64) {
		sum := &summaries{}
		c := newStoreCompactor(t, sum)
		rec := &recorder{}
		var models []*Model
		for range replicas {
			models = append(models, Wrap(rec, c, WithStore(st)))
		}
		if st == nil { // no store: each replica its own table
			models = models[:0]
			for range replicas {
				models = append(models, Wrap(rec, c))
			}
		}
		replay(t, msgs, models, rec)
		return sum.calls.Load(), stableShare(rec.calls)
	}
	oneCalls, oneStable := run(1, nil)
	aloneCalls, aloneStable := run(2, nil)
	cs := &countingStore{Memory: store.NewMemory()}
	sharedCalls, sharedStable := run(2, cs)
	t.Logf("summarizer calls: one process %d, two replicas without a store %d, with a shared store %d", oneCalls, aloneCalls, sharedCalls)
	t.Logf("prefix-stable calls: one process %.1f%%, two replicas without a store %.1f%%, with a shared store %.1f%%",
		100*oneStable, 100*aloneStable, 100*sharedStable)
	require.Positive(t, oneCalls, "the run compacts with the summarizer")
	assert.Equal(t, oneCalls, sharedCalls, "a shared store: one summarizer call per compaction across replicas")
	assert.InDelta(t, oneStable, sharedStable, 0.001, "a shared store: the same prefixes as one process")
	assert.Greater(t, aloneCalls, oneCalls, "without a store each replica summarizes on its own")
	assert.Less(t, aloneStable, oneStable, "without a store the replicas send different prefixes")
}

// TestStoreRoundTrips: one round trip per call when nothing compacts.
func TestStoreRoundTrips(t *testing.T) {
	cs := &countingStore{Memory: store.NewMemory()}
	m := Wrap(&recorder{}, newStoreCompactor(t, &summaries{}), WithStore(cs))
	ctx := WithSession(context.Background(), "c")
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are terse.")}
	for i := 0; i < 10; i++ {
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprintf("question %d", i)))
		before := cs.n.Load()
		_, err := m.GenerateContent(ctx, msgs)
		require.NoError(t, err)
		assert.Equal(t, int64(1), cs.n.Load()-before, "call %d: one round trip (the version check)", i)
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeAI, "answer"))
	}
}

// TestReplicasAtOnceShareState: two replicas serve many conversations at
// the same time (run with -race); every call succeeds and every session's
// summarizer calls match its stored summaries.
func TestReplicasAtOnceShareState(t *testing.T) {
	msgs := storeTrajectory(t)
	st := store.NewMemory()
	sum := &summaries{}
	c := newStoreCompactor(t, sum)
	models := []*Model{Wrap(&recorder{}, c, WithStore(st)), Wrap(&recorder{}, c, WithStore(st))}
	var wg sync.WaitGroup
	const sessions = 4
	for s := 0; s < sessions; s++ {
		for r := range models {
			wg.Add(1)
			go func(s, r int) {
				defer wg.Done()
				ctx := WithSession(context.Background(), fmt.Sprintf("conv-%d", s))
				for i := 1 + r; i < len(msgs); i++ {
					if msgs[i].Role == llms.ChatMessageTypeAI {
						_, err := models[r].GenerateContent(ctx, msgs[:i])
						assert.NoError(t, err)
					}
				}
			}(s, r)
		}
	}
	wg.Wait()
	var stored int
	for s := 0; s < sessions; s++ {
		state, err := st.Load(context.Background(), fmt.Sprintf("conv-%d", s))
		require.NoError(t, err)
		stored += len(state.Chain)
	}
	require.Positive(t, stored)
	t.Logf("%d sessions x 2 replicas at once: %d summarizer calls, %d summaries stored", sessions, sum.calls.Load(), stored)
	assert.LessOrEqual(t, int(sum.calls.Load()), stored+sessions, "at most one wasted call per session")
}

// TestRecallAcrossReplicas: what one replica compacted, the other's recall
// tool brings back, from the store.
func TestRecallAcrossReplicas(t *testing.T) {
	msgs := storeTrajectory(t)
	st := store.NewMemory()
	c := newStoreCompactor(t, &summaries{})
	a, b := Wrap(&recorder{}, c, WithStore(st)), Wrap(&recorder{}, c, WithStore(st))
	replay(t, msgs, []*Model{a}, nil)
	res, err := c.View(context.Background(), a.Session("conversation-1"), msgs[:len(msgs)-1])
	require.NoError(t, err)
	var ref string
	for _, r := range res.Refs {
		if r != "" {
			ref = r
			break
		}
	}
	require.NotEmpty(t, ref)
	out, err := b.RecallTool().Call(WithSession(context.Background(), "conversation-1"), "ref:"+ref)
	require.NoError(t, err)
	assert.Contains(t, out, "ref:"+ref+" lines", "replica b brings back what replica a compacted: %.120q", out)
}

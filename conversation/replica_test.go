package conversation_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/store"
)

// counter is an Adapter whose state is a count of steps, saved as its
// window's HistoryLen.
type counter struct {
	n     int // local count, possibly unsaved
	takes int
}

func (c *counter) Take(_ context.Context, st store.State) (bool, error) {
	c.n = st.HistoryLen
	c.takes++
	return true, nil
}
func (c *counter) Step(context.Context, int64, compact.SummarizeGate) (conversation.Step, error) {
	c.n++
	return conversation.Step{Session: compact.NewSession("c"), Changed: true, Window: conversation.Window{HistoryLen: c.n}}, nil
}

// flaky fails the first fails Saves with a non-conflict error.
type flaky struct {
	*store.Memory
	fails atomic.Int64
}

func (f *flaky) Save(ctx context.Context, st store.State, from int) (int64, error) {
	if f.fails.Add(-1) >= 0 {
		return 0, errors.New("connection terminated")
	}
	return f.Memory.Save(ctx, st, from)
}

var fast = conversation.Backoff{Attempts: 4, Base: time.Microsecond, Max: time.Microsecond}

// TestTurnRevertsAFailedSave: a save that fails reverts the copy to the
// stored state and the turn tries again; when every attempt fails, the
// error says so and the copy holds nothing unsaved.
func TestTurnRevertsAFailedSave(t *testing.T) {
	ctx := context.Background()
	s := &flaky{Memory: store.NewMemory()}
	r := conversation.NewReplica(s, conversation.WithBackoff(fast))
	c, cp := &counter{}, conversation.NewCopy("c")
	s.fails.Store(2)
	require.NoError(t, r.Turn(ctx, cp, c))
	assert.Equal(t, 3, c.takes, "the load, then a revert after each failed save")
	st, err := s.Load(ctx, "c")
	require.NoError(t, err)
	assert.Equal(t, 1, st.HistoryLen, "the unsaved steps were dropped, one step stored")

	s.fails.Store(10)
	err = r.Turn(ctx, cp, c)
	require.ErrorContains(t, err, "4 attempts")
	require.ErrorContains(t, err, "connection terminated")
	assert.Equal(t, 1, c.n, "the copy is the stored state again")
	assert.False(t, cp.Changed(), "and holds nothing unsaved")
	s.fails.Store(0)
	require.NoError(t, r.Turn(ctx, cp, c))
	st, _ = s.Load(ctx, "c")
	assert.Equal(t, 2, st.HistoryLen, "the next turn starts from the stored state")
}

// TestTurnAdoptsANewerVersion: another writer's save is adopted before
// the step, so a step never pairs an old copy with the newer version.
func TestTurnAdoptsANewerVersion(t *testing.T) {
	ctx := context.Background()
	s := store.NewMemory()
	a, b := conversation.NewReplica(s), conversation.NewReplica(s)
	ca, cb := &counter{}, &counter{}
	pa, pb := conversation.NewCopy("c"), conversation.NewCopy("c")
	require.NoError(t, a.Turn(ctx, pa, ca))
	require.NoError(t, b.Turn(ctx, pb, cb))
	require.NoError(t, a.Turn(ctx, pa, ca))
	st, err := s.Load(ctx, "c")
	require.NoError(t, err)
	assert.Equal(t, int64(3), st.Version)
	assert.Equal(t, 3, st.HistoryLen, "each step built on the one before")
	assert.Equal(t, 2, ca.takes, "a took b's save")
}

// TestLockHonoursContext: waiting for a conversation's lock ends with the
// caller's context; other conversations are not blocked.
func TestLockHonoursContext(t *testing.T) {
	var l conversation.Locks
	unlock, err := l.Lock(context.Background(), "c")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = l.Lock(ctx, "c")
	require.ErrorIs(t, err, context.DeadlineExceeded)
	other, err := l.Lock(context.Background(), "d")
	require.NoError(t, err)
	other()
	unlock()
	again, err := l.Lock(context.Background(), "c")
	require.NoError(t, err)
	again()

	// A turn waiting for the lock returns the caller's error.
	r := conversation.NewReplica(store.NewMemory())
	hold := make(chan struct{})
	started := make(chan struct{})
	go func() {
		_ = r.Turn(context.Background(), conversation.NewCopy("c"), stepFunc(func() { close(started); <-hold }))
	}()
	<-started
	ctx2, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	err = r.Turn(ctx2, conversation.NewCopy("c"), &counter{})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	close(hold)
}

// stepFunc is an Adapter whose Step runs f and changes nothing.
type stepFunc func()

func (stepFunc) Take(context.Context, store.State) (bool, error) { return true, nil }
func (f stepFunc) Step(context.Context, int64, compact.SummarizeGate) (conversation.Step, error) {
	f()
	return conversation.Step{}, nil
}

// TestBackoffDelay: full jitter below a doubling bound capped at Max.
func TestBackoffDelay(t *testing.T) {
	b := conversation.Backoff{Base: 10 * time.Millisecond, Max: 50 * time.Millisecond, Rand: func() float64 { return 0.5 }}
	assert.Equal(t, time.Duration(0), b.Delay(0))
	assert.Equal(t, 5*time.Millisecond, b.Delay(1))
	assert.Equal(t, 10*time.Millisecond, b.Delay(2))
	assert.Equal(t, 20*time.Millisecond, b.Delay(3))
	assert.Equal(t, 25*time.Millisecond, b.Delay(4), "capped at Max")
	assert.Equal(t, 25*time.Millisecond, b.Delay(40))
	b.Rand = func() float64 { return 7 } // out of range: no wait
	assert.Equal(t, time.Duration(0), b.Delay(3))
}

// conflicting loses every compare-and-swap.
type conflicting struct{ *store.Memory }

func (conflicting) Save(context.Context, store.State, int) (int64, error) {
	return 0, store.ErrConflict
}

// TestTurnServedAfterConflicts: a turn whose every attempt loses the
// compare-and-swap is served by one more step, rule-based and not stored,
// instead of failing.
func TestTurnServedAfterConflicts(t *testing.T) {
	ctx := context.Background()
	s := conflicting{store.NewMemory()}
	r := conversation.NewReplica(s, conversation.WithBackoff(fast))
	var skipped bool
	l := &gated{onStep: func(ctx context.Context, gate compact.SummarizeGate) {
		skipped = gate != nil && errors.Is(gate(ctx, compact.ReasonTrigger), compact.ErrSkipSummarizer)
	}}
	cp := conversation.NewCopy("c")
	require.NoError(t, r.Turn(ctx, cp, l))
	assert.Equal(t, fast.Attempts+1, l.steps)
	assert.True(t, skipped, "the last step is rule-based")
	assert.Zero(t, l.n, "and not kept")
	assert.False(t, cp.Changed())
	v, err := s.Version(ctx, "c")
	require.NoError(t, err)
	assert.Zero(t, v, "nothing stored")
}

// gated is an Adapter that always changes its state and calls onStep with
// the gate it is given.
type gated struct {
	counter
	steps  int
	onStep func(context.Context, compact.SummarizeGate)
}

func (g *gated) Step(ctx context.Context, v int64, gate compact.SummarizeGate) (conversation.Step, error) {
	g.steps++
	g.onStep(ctx, gate)
	return g.counter.Step(ctx, v, gate)
}

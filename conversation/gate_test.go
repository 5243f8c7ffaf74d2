package conversation_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/store"
)

// plainStore is a Store that is not a Leaser.
type plainStore struct{ store.Store }

func TestSummarizeGate(t *testing.T) {
	ctx := context.Background()
	short := store.LeaseTiming{TTL: time.Minute, Wait: 400 * time.Millisecond}

	t.Run("first takes the lease, emergency does not wait", func(t *testing.T) {
		s := store.NewMemory()
		a, releaseA := conversation.NewSummarizeGate(s, "c", "a", 0, short)
		b, _ := conversation.NewSummarizeGate(s, "c", "b", 0, short)
		require.NoError(t, a(ctx, compact.ReasonTrigger))
		start := time.Now()
		require.ErrorIs(t, b(ctx, compact.ReasonEmergency), compact.ErrSkipSummarizer)
		assert.Less(t, time.Since(start), 200*time.Millisecond, "no wait at the emergency ratio")
		releaseA(ctx)
		require.NoError(t, b(ctx, compact.ReasonEmergency), "a released lease is taken")
	})
	t.Run("the loser adopts the winner's state", func(t *testing.T) {
		s := store.NewMemory()
		a, _ := conversation.NewSummarizeGate(s, "c", "a", 0, short)
		b, _ := conversation.NewSummarizeGate(s, "c", "b", 0, store.LeaseTiming{Wait: 5 * time.Second})
		require.NoError(t, a(ctx, compact.ReasonTrigger))
		go func() {
			time.Sleep(150 * time.Millisecond)
			_, err := s.Save(ctx, store.State{SessionID: "c"}, 0)
			assert.NoError(t, err)
		}()
		start := time.Now()
		err := b(ctx, compact.ReasonTrigger)
		require.ErrorIs(t, err, store.ErrConflict, "a newer version is stored: adopt it")
		assert.Less(t, time.Since(start), 2*time.Second)
	})
	t.Run("a dead holder blocks until its lease expires", func(t *testing.T) {
		s := store.NewMemory()
		a, _ := conversation.NewSummarizeGate(s, "c", "a", 0, store.LeaseTiming{TTL: 200 * time.Millisecond})
		b, _ := conversation.NewSummarizeGate(s, "c", "b", 0, store.LeaseTiming{Wait: 5 * time.Second})
		require.NoError(t, a(ctx, compact.ReasonTrigger)) // and a dies without releasing
		require.NoError(t, b(ctx, compact.ReasonTrigger), "the expired lease is taken")
		ok, err := s.TryLease(ctx, "c", "a", time.Minute)
		require.NoError(t, err)
		assert.False(t, ok, "b holds it now")
	})
	t.Run("the wait is bounded", func(t *testing.T) {
		s := store.NewMemory()
		a, _ := conversation.NewSummarizeGate(s, "c", "a", 0, short)
		b, _ := conversation.NewSummarizeGate(s, "c", "b", 0, short)
		require.NoError(t, a(ctx, compact.ReasonTrigger))
		start := time.Now()
		require.ErrorIs(t, b(ctx, compact.ReasonTrigger), compact.ErrSkipSummarizer, "rule-based after the wait")
		assert.GreaterOrEqual(t, time.Since(start), short.Wait)
	})
	t.Run("cancellation", func(t *testing.T) {
		s := store.NewMemory()
		a, _ := conversation.NewSummarizeGate(s, "c", "a", 0, short)
		b, _ := conversation.NewSummarizeGate(s, "c", "b", 0, store.LeaseTiming{Wait: time.Minute})
		require.NoError(t, a(ctx, compact.ReasonTrigger))
		cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		require.ErrorIs(t, b(cctx, compact.ReasonTrigger), context.DeadlineExceeded)
	})
	t.Run("a store without leases has no gate", func(t *testing.T) {
		g, release := conversation.NewSummarizeGate(plainStore{store.NewMemory()}, "c", "a", 0, short)
		assert.Nil(t, g)
		release(ctx)
	})
}

func TestNewHolderID(t *testing.T) {
	a, b := store.NewHolderID(), store.NewHolderID()
	assert.NotEqual(t, a, b)
	assert.NotEmpty(t, a)
}

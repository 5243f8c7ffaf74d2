package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/require"
)

// RunLease runs the conformance tests of a [store.Leaser] as subtests of t.
// open is called as in [Run]. The expiry checks sleep for about a second in
// all (leases of 300 ms, so that a database's clock resolution and a
// loaded machine's scheduling do not matter).
func RunLease(t *testing.T, open func(t *testing.T) store.Leaser) {
	t.Helper()
	runChecks(t, open, []check[store.Leaser]{
		{"Exclusive", leaseExclusive},
		{"Renew", leaseRenew},
		{"Release", leaseRelease},
		{"Expiry", leaseExpiry},
		{"PerSession", leasePerSession},
		{"Race", leaseRace},
		{"BadArguments", leaseBadArguments},
		{"Cancelled", leaseCancelled},
	})
}

func tryLease(t *testing.T, s store.Leaser, sid, holder string, ttl time.Duration) bool {
	t.Helper()
	ok, err := s.TryLease(context.Background(), sid, holder, ttl)
	require.NoError(t, err)
	return ok
}

func leaseExclusive(t *testing.T, s store.Leaser) {
	sid := id(t, "exclusive")
	require.True(t, tryLease(t, s, sid, "a", time.Minute), "a free lease is taken")
	require.False(t, tryLease(t, s, sid, "b", time.Minute), "a held lease is not taken by another holder")
}

func leaseRenew(t *testing.T, s store.Leaser) {
	sid := id(t, "renew")
	require.True(t, tryLease(t, s, sid, "a", 300*time.Millisecond))
	require.True(t, tryLease(t, s, sid, "a", time.Minute), "the holder extends its own lease")
	time.Sleep(500 * time.Millisecond)
	require.False(t, tryLease(t, s, sid, "b", time.Minute), "the extended lease has not expired")
}

func leaseRelease(t *testing.T, s store.Leaser) {
	sid := id(t, "release")
	ctx := context.Background()
	require.True(t, tryLease(t, s, sid, "a", time.Minute))
	require.NoError(t, s.ReleaseLease(ctx, sid, "b"), "releasing another's lease is no error")
	require.False(t, tryLease(t, s, sid, "b", time.Minute), "and does not release it")
	require.NoError(t, s.ReleaseLease(ctx, sid, "a"))
	require.True(t, tryLease(t, s, sid, "b", time.Minute), "a released lease is free")
	require.NoError(t, s.ReleaseLease(ctx, id(t, "never"), "a"), "releasing a lease never taken is no error")
}

func leaseExpiry(t *testing.T, s store.Leaser) {
	sid := id(t, "expiry")
	require.True(t, tryLease(t, s, sid, "a", 300*time.Millisecond))
	time.Sleep(500 * time.Millisecond)
	require.True(t, tryLease(t, s, sid, "b", time.Minute), "an expired lease is taken over")
	require.False(t, tryLease(t, s, sid, "a", time.Minute), "the old holder lost it")
}

func leasePerSession(t *testing.T, s store.Leaser) {
	sids := ids(t, "one", "two")
	require.True(t, tryLease(t, s, sids[0], "a", time.Minute))
	require.True(t, tryLease(t, s, sids[1], "b", time.Minute), "leases of other sessions are independent")
	for _, name := range trickyNames() {
		sid := sids[0] + name
		require.True(t, tryLease(t, s, sid, "c", time.Minute), "session %.40q is its own", sid)
	}
}

func leaseRace(t *testing.T, s store.Leaser) {
	sid := id(t, "race")
	const holders = 8
	var wg sync.WaitGroup
	won := make(chan string, holders)
	for i := 0; i < holders; i++ {
		wg.Add(1)
		go func(h string) {
			defer wg.Done()
			ok, err := s.TryLease(context.Background(), sid, h, time.Minute)
			if err == nil && ok {
				won <- h
			}
		}(string(rune('a' + i)))
	}
	wg.Wait()
	close(won)
	var winners []string
	for h := range won {
		winners = append(winners, h)
	}
	require.Len(t, winners, 1, "exactly one of %d concurrent holders gets the lease", holders)
}

func leaseBadArguments(t *testing.T, s store.Leaser) {
	sid := id(t, "bad")
	_, err := s.TryLease(context.Background(), sid, "", time.Minute)
	require.Error(t, err, "an empty holder")
	_, err = s.TryLease(context.Background(), sid, "a", 0)
	require.Error(t, err, "a zero ttl")
	require.True(t, tryLease(t, s, sid, "a", time.Minute), "bad calls took nothing")
}

func leaseCancelled(t *testing.T, s store.Leaser) {
	sid := id(t, "cancelled")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.TryLease(ctx, sid, "a", time.Minute)
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, s.ReleaseLease(ctx, sid, "a"), context.Canceled)
	require.True(t, tryLease(t, s, sid, "b", time.Minute), "a cancelled call took nothing")
}

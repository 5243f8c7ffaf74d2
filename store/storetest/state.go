package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/agentcompact/compact/store"
	summaryrecord "github.com/agentcompact/compact/summary/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runState(t *testing.T, open func(t *testing.T) store.Store) {
	runChecks(t, open, []check[store.Store]{
		{"Empty", stateEmpty},
		{"RoundTrip", stateRoundTrip},
		{"CompareAndSwap", stateCompareAndSwap},
		{"Chain", stateChain},
		{"Copies", stateCopies},
		{"Isolation", stateIsolation},
		{"ConcurrentWriters", stateConcurrent},
		{"Cancelled", stateCancelled},
		{"Large", stateLarge},
		{"InvalidUTF8", stateInvalidUTF8},
	})
}

// fullState returns a state with every field set.
func fullState(sessionID string) store.State {
	return store.State{
		SessionID: sessionID, UpTo: 9, Kept: []int{1, 4}, HistoryLen: 12,
		Engine:    json.RawMessage(`{"version":1,"summary":{"id":"r2"},"covered":["a","b"]}`),
		Chain:     []store.Record{record("r1"), record("r2")},
		UpdatedAt: at(8),
	}
}

// requireState checks that the stored state of st.SessionID is st (compared
// as canonState does).
func requireState(t *testing.T, s store.Store, want store.State, msgAndArgs ...any) {
	t.Helper()
	ctx := context.Background()
	got, err := s.Load(ctx, want.SessionID)
	require.NoError(t, err, msgAndArgs...)
	require.Equal(t, canonState(want), canonState(got), msgAndArgs...)
	v, err := s.Version(ctx, want.SessionID)
	require.NoError(t, err, msgAndArgs...)
	require.Equal(t, want.Version, v, msgAndArgs...)
}

func save(t *testing.T, s store.Store, st store.State, chainFrom int) int64 {
	t.Helper()
	v, err := s.Save(context.Background(), st, chainFrom)
	require.NoError(t, err, "save session %q at version %d from %d", st.SessionID, st.Version, chainFrom)
	require.Equal(t, st.Version+1, v, "Save returns the new version")
	return v
}

func stateEmpty(t *testing.T, s store.Store) {
	sid := id(t, "never-saved")
	requireState(t, s, store.State{SessionID: sid}, "a session never saved is a zero State with its id")
	got, err := s.Load(context.Background(), sid)
	require.NoError(t, err)
	assert.Equal(t, store.State{SessionID: sid}, got)
}

func stateRoundTrip(t *testing.T, s store.Store) {
	st := fullState(id(t, "round-trip"))
	st.Version = save(t, s, st, 0)
	require.Equal(t, int64(1), st.Version)
	requireState(t, s, st, "every field comes back")

	// A state as the middleware keeps it: engine and chain only.
	mw := store.State{SessionID: id(t, "middleware"), Engine: json.RawMessage(`{"version":1}`),
		Chain: []store.Record{record("m1")}, UpdatedAt: at(9)}
	mw.Version = save(t, s, mw, 0)
	requireState(t, s, mw)

	// Saves go on from the returned version.
	for i := 2; i <= 5; i++ {
		st.UpTo = i
		st.Version = save(t, s, st, len(st.Chain))
		require.Equal(t, int64(i), st.Version)
		requireState(t, s, st)
	}
}

func stateCompareAndSwap(t *testing.T, s store.Store) {
	ctx := context.Background()
	st := fullState(id(t, "cas"))
	st.Version = save(t, s, st, 0)

	for _, stale := range []int64{0, 2, 7, -1} {
		other := fullState(st.SessionID)
		other.Version, other.UpTo, other.Chain = stale, 99, []store.Record{record("other")}
		_, err := s.Save(ctx, other, 0)
		require.ErrorIs(t, err, store.ErrConflict, "a save at version %d when %d is stored", stale, st.Version)
		requireState(t, s, st, "a conflicting save (at version %d) stores nothing", stale)
	}

	// A first save must be at version 0.
	fresh := fullState(id(t, "cas-fresh"))
	fresh.Version = 3
	_, err := s.Save(ctx, fresh, 0)
	require.ErrorIs(t, err, store.ErrConflict)
	requireState(t, s, store.State{SessionID: fresh.SessionID}, "a conflicting first save stores nothing")

	// Of two writers that loaded one version, the second conflicts.
	a, err := s.Load(ctx, st.SessionID)
	require.NoError(t, err)
	b, err := s.Load(ctx, st.SessionID)
	require.NoError(t, err)
	a.UpTo = 10
	a.Version = save(t, s, a, len(a.Chain))
	b.UpTo = 11
	_, err = s.Save(ctx, b, len(b.Chain))
	require.ErrorIs(t, err, store.ErrConflict)
	requireState(t, s, a)
}

func stateChain(t *testing.T, s store.Store) {
	ctx := context.Background()
	st := store.State{SessionID: id(t, "chain"), Chain: []store.Record{record("r1"), record("r2")}}
	st.Version = save(t, s, st, 0)
	requireState(t, s, st)

	// chainFrom keeps the stored records before it and does not read the
	// caller's.
	junk := record("junk")
	in := st
	in.Chain = []store.Record{junk, junk, record("r3")}
	st.Version = save(t, s, in, 2)
	st.Chain = []store.Record{record("r1"), record("r2"), record("r3")}
	requireState(t, s, st, "chainFrom 2 appends r3 after the stored r1 r2")

	// ... and replaces the records from it on.
	in = st
	in.Chain = []store.Record{junk, record("r4")}
	st.Version = save(t, s, in, 1)
	st.Chain = []store.Record{record("r1"), record("r4")}
	requireState(t, s, st, "chainFrom 1 replaces r2 r3 by r4")

	// chainFrom equal to both lengths changes nothing of the chain.
	in = st
	in.UpTo = 3
	st.Version = save(t, s, in, 2)
	st.UpTo = 3
	requireState(t, s, st)

	// chainFrom 0 replaces the whole chain, here by nothing.
	st.Chain = nil
	st.Version = save(t, s, st, 0)
	requireState(t, s, st, "chainFrom 0 with no records empties the chain")

	// Out-of-range chainFrom values are errors (not conflicts) and store
	// nothing.
	st.Chain = []store.Record{record("r5")}
	st.Version = save(t, s, st, 0)
	requireState(t, s, st)
	for _, tc := range []struct {
		name      string
		chain     int
		chainFrom int
	}{
		{"negative", 1, -1},
		{"beyond the given chain", 1, 2},
		{"beyond the stored chain", 4, 3},
	} {
		in := st
		in.Chain = make([]store.Record, tc.chain)
		for i := range in.Chain {
			in.Chain[i] = record(fmt.Sprint("bad", i))
		}
		in.UpTo = 77
		_, err := s.Save(ctx, in, tc.chainFrom)
		require.Error(t, err, tc.name)
		require.NotErrorIs(t, err, store.ErrConflict, tc.name)
		requireState(t, s, st, "an out-of-range chainFrom (%s) stores nothing", tc.name)
	}
}

func stateCopies(t *testing.T, s store.Store) {
	ctx := context.Background()
	st := fullState(id(t, "copies"))
	want := st.Clone()
	v := save(t, s, st, 0)
	want.Version = v
	// The caller's state is not retained.
	mutateState(st)
	requireState(t, s, want, "Save does not retain the caller's slices")

	// A loaded state is the caller's.
	got, err := s.Load(ctx, st.SessionID)
	require.NoError(t, err)
	mutateState(got)
	requireState(t, s, want, "Load returns a copy")

	// So is one appended from an index.
	got, err = s.Load(ctx, st.SessionID)
	require.NoError(t, err)
	got.Chain = append(got.Chain, record("r3"))
	want.Version = save(t, s, got, 2)
	want.Chain = append(want.Chain, record("r3"))
	mutateState(got)
	requireState(t, s, want, "Save does not retain appended records")
}

// mutateState changes every slice element st holds.
func mutateState(st store.State) {
	for i := range st.Kept {
		st.Kept[i] = -1
	}
	for i := range st.Engine {
		st.Engine[i] = ' '
	}
	for i := range st.Chain {
		r := &st.Chain[i]
		r.ID = "changed"
		for _, s := range [][]string{r.KeyPoints, r.OriginalMessageIDs, r.Context.Participants, r.Context.Decisions,
			r.Context.Unresolved, r.Context.DomainEntities} {
			for k := range s {
				s[k] = "changed"
			}
		}
		for k := range r.Context.ActionItems {
			r.Context.ActionItems[k].Task = "changed"
		}
		for k := range r.Positions {
			r.Positions[k] = -1
		}
	}
}

func stateIsolation(t *testing.T, s store.Store) {
	names := trickyNames()
	sids := ids(t, names...)
	var want []store.State
	for i, sid := range sids {
		st := store.State{SessionID: sid, UpTo: i + 1, Kept: []int{i}, HistoryLen: i + 2,
			Engine: json.RawMessage(fmt.Sprintf(`{"session":%d}`, i)), Chain: []store.Record{record(fmt.Sprint("rec-", i))},
			UpdatedAt: at(i % 60)}
		// Session i is saved i%3+1 times, so versions differ too.
		for k := 0; k <= i%3; k++ {
			st.Version = save(t, s, st, 0)
		}
		want = append(want, st)
	}
	for i, st := range want {
		requireState(t, s, st, "session %q sees only its own state", names[i])
	}
	for _, n := range []string{"a%b", "a_b", "never'", "%%", ""} {
		sid := id(t, n)
		requireState(t, s, store.State{SessionID: sid}, "session %q was never saved", n)
	}
}

func stateConcurrent(t *testing.T, s store.Store) {
	const writers, saves = 8, 6
	ctx := context.Background()
	sid := id(t, "concurrent")
	var wg sync.WaitGroup
	var mu sync.Mutex
	succeeded := 0
	for g := 0; g < writers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < saves; i++ {
				for attempt := 0; ; attempt++ {
					if attempt == 10_000 {
						assert.Fail(t, "no progress", "writer %d, save %d: 10000 conflicts", g, i)
						return
					}
					st, err := s.Load(ctx, sid)
					if !assert.NoError(t, err) {
						return
					}
					runtime.Gosched() // let another writer save in between
					from := len(st.Chain)
					st.UpTo++
					st.Chain = append(st.Chain, record(fmt.Sprintf("w%d-%d", g, i)))
					v, err := s.Save(ctx, st, from)
					if errors.Is(err, store.ErrConflict) {
						continue
					}
					if !assert.NoError(t, err) || !assert.Equal(t, st.Version+1, v) {
						return
					}
					mu.Lock()
					succeeded++
					mu.Unlock()
					break
				}
			}
		}()
	}
	wg.Wait()
	require.Equal(t, writers*saves, succeeded)
	st, err := s.Load(ctx, sid)
	require.NoError(t, err)
	require.Equal(t, int64(succeeded), st.Version, "the final version is the number of successful saves")
	require.Equal(t, succeeded, st.UpTo, "no update was lost")
	require.Len(t, st.Chain, succeeded, "no record was lost or duplicated")
	next := make([]int, writers)
	for _, r := range st.Chain {
		var g, i int
		_, err := fmt.Sscanf(r.ID, "w%d-%d", &g, &i)
		require.NoError(t, err, r.ID)
		require.Equal(t, next[g], i, "writer %d's records are stored once each, in order", g)
		next[g]++
	}
}

func stateCancelled(t *testing.T, s store.Store) {
	ctx := cancelled()
	st := fullState(id(t, "cancelled"))
	_, err := s.Save(ctx, st, 0)
	require.ErrorIs(t, err, context.Canceled, "Save")
	requireState(t, s, store.State{SessionID: st.SessionID}, "a cancelled first Save stores nothing")

	st.Version = save(t, s, st, 0)
	next := st
	next.UpTo, next.Chain = 50, append(st.Clone().Chain, record("r3"))
	_, err = s.Save(ctx, next, 2)
	require.ErrorIs(t, err, context.Canceled, "Save")
	requireState(t, s, st, "a cancelled Save stores nothing")

	_, err = s.Load(ctx, st.SessionID)
	require.ErrorIs(t, err, context.Canceled, "Load")
	_, err = s.Version(ctx, st.SessionID)
	require.ErrorIs(t, err, context.Canceled, "Version")
}

func stateLarge(t *testing.T, s store.Store) {
	big := strings.Repeat("0123456789abcdef", 1<<17) // 2 MiB
	st := fullState(id(t, "large"))
	st.Engine = json.RawMessage(`{"blob":"` + big + `"}`)
	r := record("big")
	r.Summary = big + "end"
	r.KeyPoints = []string{big[:1<<20]}
	st.Chain = []store.Record{r}
	for i := 0; i < 200; i++ {
		st.Chain = append(st.Chain, record(fmt.Sprint("r", i)))
	}
	st.Kept = make([]int, 10_000)
	for i := range st.Kept {
		st.Kept[i] = i
	}
	st.Version = save(t, s, st, 0)
	requireState(t, s, st, "a state of a few MB round-trips")
}

func stateInvalidUTF8(t *testing.T, s store.Store) {
	ctx := context.Background()
	st := fullState(id(t, "invalid-utf8"))
	r := record("bad\xffid")
	r.Summary = "caf\xe9 \xff\xfe then \xe2\x82 and \xc0\x80 end"
	r.KeyPoints = []string{"ok", "\x80start", "end\xed\xa0\x80"}
	r.Context.Decisions = []string{"d\xf5"}
	r.Context.ActionItems = []summaryrecord.ActionItem{{Owner: "o\xff", Task: "t", Due: "\xfe"}}
	st.Chain = []store.Record{r, record("r2")}
	st.Version = save(t, s, st, 0)
	got, err := s.Load(ctx, st.SessionID)
	require.NoError(t, err)
	require.Len(t, got.Chain, 2)
	want := canonState(st)
	replaced := want.Clone()
	replaced.Chain[0] = replaceRecord(replaced.Chain[0])
	got = canonState(got)
	if !assert.ObjectsAreEqual(want, got) {
		require.Equal(t, replaced, got,
			"text that is not UTF-8 comes back exactly, or with each invalid byte replaced by U+FFFD")
	}
}

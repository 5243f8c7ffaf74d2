package conversation

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/store"
)

// NewSummarizeGate returns the gate (compact.WithSummarizeGate) with which
// an adapter compacting sessionID from the stored version runs one
// summarizer call per compaction across the processes sharing s, and the
// release to call once the compaction's state is saved or abandoned. When
// s is not a [store.Leaser] the gate is nil and release does nothing.
//
// The gate takes the session's lease for holder and, when the stored
// version is still the one given, lets the summarizer run (a newer one is
// adopted: an error wrapping [store.ErrConflict]). When another holder has the lease, it does not summarize: at the
// emergency ratio it has the engine compact rule-based at once
// (compact.ErrSkipSummarizer; the version compare-and-swap reconciles the
// two states); otherwise it waits up to lt.Wait for the holder's state and
// returns an error wrapping [store.ErrConflict] as soon as a newer version is
// stored, so that the adapter adopts it instead of summarizing again; it
// takes the lease if the holder released it or died (its lease expired)
// without storing anything, and compacts rule-based when the wait ends.
// A store error while taking the lease lets the summarizer run (the
// compare-and-swap still keeps the state right).
func NewSummarizeGate(s store.Store, sessionID, holder string, version int64, lt store.LeaseTiming) (compact.SummarizeGate, func(context.Context)) {
	l, ok := s.(store.Leaser)
	if !ok {
		return nil, func(context.Context) {}
	}
	g := newGate(s, l, sessionID, holder, version, lt)
	return g.ask, g.release
}

func newGate(s store.Store, l store.Leaser, sessionID, holder string, version int64, lt store.LeaseTiming) *gate {
	return &gate{s: s, l: l, sid: sessionID, holder: holder, version: version, lt: leaseDefaults(lt)}
}

// gate is one compaction's summarize gate.
type gate struct {
	s       store.Store
	l       store.Leaser
	sid     string
	holder  string
	version int64
	lt      store.LeaseTiming
	mu      sync.Mutex
	held    bool
	skipped bool // the last answer was compact.ErrSkipSummarizer
}

func (g *gate) ask(ctx context.Context, reason string) error {
	err := g.decide(ctx, reason)
	g.mu.Lock()
	g.skipped = errors.Is(err, compact.ErrSkipSummarizer)
	g.mu.Unlock()
	return err
}

// wasSkipped reports whether the gate's last answer had the engine
// compact rule-based because another replica holds the lease.
func (g *gate) wasSkipped() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.skipped
}

func (g *gate) decide(ctx context.Context, reason string) error {
	ok, err := g.l.TryLease(ctx, g.sid, g.holder, g.lt.TTL)
	if err != nil {
		return ctx.Err() // a store failure lets the summarizer run
	}
	if ok {
		g.setHeld()
		return g.current(ctx)
	}
	if reason == compact.ReasonEmergency {
		return fmt.Errorf("session %s: another replica holds the compaction lease: %w", idtext.Quote(g.sid), compact.ErrSkipSummarizer)
	}
	return g.wait(ctx)
}

// wait waits for the holder's state, or for the lease.
func (g *gate) wait(ctx context.Context) error {
	deadline := time.Now().Add(g.lt.Wait)
	t := time.NewTicker(store.LeasePoll)
	defer t.Stop()
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		if v, err := g.s.Version(ctx, g.sid); err == nil && v != g.version {
			return fmt.Errorf("session %s: version %d was stored by the replica holding the compaction lease (compacting from %d): %w",
				idtext.Quote(g.sid), v, g.version, store.ErrConflict)
		}
		if ok, err := g.l.TryLease(ctx, g.sid, g.holder, g.lt.TTL); err == nil && ok {
			g.setHeld()
			return g.current(ctx)
		}
	}
	return fmt.Errorf("session %s: waited %v for the replica holding the compaction lease: %w", idtext.Quote(g.sid), g.lt.Wait, compact.ErrSkipSummarizer)
}

// current checks, under the lease, that the stored state is still the one
// the compaction started from: another replica may have stored its
// compaction and released the lease in between, and summarizing again
// would waste a call whose result the compare-and-swap then rejects.
func (g *gate) current(ctx context.Context) error {
	v, err := g.s.Version(ctx, g.sid)
	if err != nil || v == g.version {
		return ctx.Err() // a store failure lets the summarizer run
	}
	return fmt.Errorf("session %s: version %d was stored by another replica (compacting from %d): %w",
		idtext.Quote(g.sid), v, g.version, store.ErrConflict)
}

func (g *gate) setHeld() {
	g.mu.Lock()
	g.held = true
	g.mu.Unlock()
}

// release gives the lease up if the gate took it.
func (g *gate) release(ctx context.Context) {
	g.mu.Lock()
	held := g.held
	g.held = false
	g.mu.Unlock()
	if held {
		_ = g.l.ReleaseLease(ctx, g.sid, g.holder) // on failure the lease expires
	}
}

// leaseDefaults fills in lt's zero fields with the store's defaults.
func leaseDefaults(lt store.LeaseTiming) store.LeaseTiming {
	if lt.TTL <= 0 {
		lt.TTL = store.DefaultLeaseTTL
	}
	if lt.Wait <= 0 {
		lt.Wait = store.DefaultLeaseWait
	}
	return lt
}

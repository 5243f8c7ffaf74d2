package middleware

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/store"
)

// maxStoreAttempts bounds how often a call adopts a state another replica
// stored meanwhile and compacts again.
const maxStoreAttempts = 4

// WithStore keeps the sessions' compaction state in s, shared by every
// process (replica) wrapping a model with the same store, so that a
// conversation's calls can land on any of them: the in-process session
// table becomes a cache in front of the store. Default: none, the state
// lives in this process only.
//
// Per call: one round trip when nothing compacts (the stored version is
// checked; the state is loaded only when another replica changed it, so a
// replica adopts the stored session before it compacts and the context is
// the previous one plus what is new, whichever replica serves the call).
// A compaction saves the state with a version compare-and-swap; when the
// store is a store.Leaser the summarizer runs under the session's lease, so
// one summarizer call serves all replicas (see store.NewSummarizeGate and
// [WithLeaseTiming]); when it is a store.OriginalStore the compacted
// originals are written there and the recall tool reads them from it, so
// any replica can recall what another compacted. The state saved is the
// engine's session and its summary records (store.State, see there); the
// middleware and memory.Memory share the store's namespace of session ids.
// A store error fails the call (with what was attempted), and the next call
// tries again.
func WithStore(s store.Store) Option { return func(o *options) { o.store = s } }

// WithLeaseTiming sets the compaction lease used with a store that has
// leases: its ttl, and how long a replica that finds another compacting the
// same session waits for its state before compacting rule-based. Defaults
// store.DefaultLeaseTTL and store.DefaultLeaseWait; values <= 0 keep them.
func WithLeaseTiming(ttl, wait time.Duration) Option {
	return func(o *options) { o.lease = store.LeaseTiming{TTL: ttl, Wait: wait} }
}

// compactStored is Compact for a session kept in the store: sync with the
// stored version, compact under the lease, save with compare-and-swap,
// adopting newer states as needed.
func (m *Model) compactStored(ctx context.Context, p *prepared, key string, opts []compact.CallOption) (*compact.Result, error) {
	for range maxStoreAttempts {
		sess, ver, err := m.syncSession(ctx, p.id, key)
		if err != nil {
			return nil, err
		}
		p.sess = sess
		res, again, err := m.compactOnce(ctx, p, key, sess, ver, opts)
		if err != nil || !again {
			return res, err
		}
	}
	return nil, fmt.Errorf("middleware: session %q: %d attempts: %w", p.id, maxStoreAttempts, store.ErrConflict)
}

// syncSession returns the table's session of key, first replacing it by
// the stored state when the store holds a version it has not seen.
func (m *Model) syncSession(ctx context.Context, id, key string) (*compact.Session, int64, error) {
	sess, _ := m.table.get(key)
	ver, _ := m.table.stored(key)
	v, err := m.o.store.Version(ctx, id)
	if err != nil {
		return nil, 0, fmt.Errorf("middleware: read the stored version of session %q: %w", id, err)
	}
	if v == ver {
		return sess, ver, nil
	}
	st, err := m.o.store.Load(ctx, id)
	if err != nil {
		return nil, 0, fmt.Errorf("middleware: load the stored state of session %q (version %d): %w", id, v, err)
	}
	adopted := compact.NewSession(id)
	if len(st.Engine) > 0 {
		if err := adopted.UnmarshalJSON(st.Engine); err != nil {
			return nil, 0, fmt.Errorf("middleware: decode the stored state of session %q (version %d): %w", id, st.Version, err)
		}
	}
	m.table.put(key, adopted)
	m.table.setStored(key, st.Version, len(st.Chain))
	return adopted, st.Version, nil
}

// compactOnce compacts once under the session's lease and saves the state
// when it changed; again reports a newer stored state to adopt.
func (m *Model) compactOnce(ctx context.Context, p *prepared, key string, sess *compact.Session, ver int64, opts []compact.CallOption) (*compact.Result, bool, error) {
	gate, release := store.NewSummarizeGate(m.o.store, p.id, m.holder, ver, m.o.lease)
	defer release(context.WithoutCancel(ctx))
	opts = slices.Clip(opts) // appending below copies
	if gate != nil {
		opts = append(opts, compact.WithSummarizeGate(gate))
	}
	res, err := m.c.Compact(ctx, sess, p.in, opts...)
	if errors.Is(err, store.ErrConflict) {
		return nil, true, nil
	}
	if err != nil || (!res.Compacted && !res.Restarted) {
		return res, false, err
	}
	_, chain := m.table.stored(key)
	st, from, err := m.stateOf(p.id, sess, ver, chain, res)
	if err != nil {
		return nil, false, err
	}
	v, err := m.o.store.Save(ctx, st, from)
	if errors.Is(err, store.ErrConflict) {
		return nil, true, nil // another replica saved first: adopt its state
	}
	if err != nil {
		return nil, false, fmt.Errorf("middleware: save the state of session %q (version %d): %w", p.id, ver, err)
	}
	m.table.setStored(key, v, len(st.Chain))
	return res, false, nil
}

// stateOf is the state to save after a compaction of a session synced at
// version ver with chain records stored: the engine's session, and the new
// summary record appended to the stored chain. Only the new record is
// filled in (Save does not read the records before chainFrom).
func (m *Model) stateOf(id string, sess *compact.Session, ver int64, chain int, res *compact.Result) (store.State, int, error) {
	js, err := sess.MarshalJSON()
	if err != nil {
		return store.State{}, 0, fmt.Errorf("middleware: encode the state of session %q: %w", id, err)
	}
	st := store.State{SessionID: id, Version: ver, Engine: js, UpdatedAt: time.Now().UTC(), Chain: make([]store.Record, chain)}
	if res.Compacted && res.Summary != nil && res.Event != nil && res.Event.SummaryID != "" {
		st.Chain = append(st.Chain, store.Record{SummaryRecord: *res.Summary})
	}
	return st, chain, nil
}

// putOriginals writes the originals of what res compacted to the store,
// when it keeps originals.
func (m *Model) putOriginals(ctx context.Context, p *prepared, res *compact.Result) error {
	os, ok := m.o.store.(store.OriginalStore)
	if !ok || (!res.Compacted && !res.Restarted) {
		return nil
	}
	var list []store.Original
	for i, ref := range res.Refs {
		if ref != "" && i < len(p.in) {
			list = append(list, m.originalOf(p, ref, p.in[i]))
		}
	}
	if err := os.PutOriginals(ctx, p.id, list); err != nil {
		return fmt.Errorf("middleware: store %d originals of session %q: %w", len(list), p.id, err)
	}
	return nil
}

package middleware

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/internal/optcheck"
	"github.com/agentcompact/compact/store"
)

// WithStore keeps the sessions' compaction state in s, shared by every
// process (replica) wrapping a model with the same store, so that a
// conversation's calls can land on any of them: the in-process session
// table becomes a cache in front of the store. Default: none, the state
// lives in this process only.
//
// The protocol is package conversation's ([conversation.Replica], the
// same as memory.Memory's): per call one round trip when nothing compacts
// (the stored version is checked; the state is loaded only when another
// replica changed it, so a replica adopts the stored session before it
// compacts, and the context is the previous one plus what is new,
// whichever replica serves the call). A compaction runs under the
// session's lease when s is a store.Leaser (one summarizer call serves all
// replicas; see [WithLeaseTiming]), stores the compacted originals first
// when s is a store.OriginalStore (the recall tool reads them from there,
// so any replica can recall what another compacted), then saves the state
// with a version compare-and-swap. Conflicts and store errors (a
// terminated connection) are retried with backoff and jitter
// ([WithBackoff]); a compaction that could not be saved is dropped and
// the session is the stored one again, never a half state. Calls of one
// conversation are serialized in this process while they compact (not
// while the wrapped model runs); waiting honours the call's context.
//
// A call whose messages do not continue the stored conversation (a stale
// or retried request: the session's summary covers none of its messages)
// is served as a branch: it is compacted on its own, the reply uses that,
// and the shared state is left as it is (CallInfo.Branched reports it).
//
// The state saved is the engine's session and its summary records
// (store.State, see there); the middleware and memory.Memory share the
// store's namespace of session ids. Only conversations named by
// [WithSession] are stored: a conversation keyed automatically (its id is
// computable from its opening) stays in this process's table, and nothing
// of it is written to or read from s (I9).
func WithStore(s store.Store) Option { return func(o *options) { o.store = s } }

// WithLeaseTiming sets the compaction lease used with a store that has
// leases: its ttl, and how long a replica that finds another compacting the
// same session waits for its state before compacting rule-based. Defaults
// store.DefaultLeaseTTL and store.DefaultLeaseWait; a value of 0 keeps its
// default, a negative one is an invalid option.
func WithLeaseTiming(ttl, wait time.Duration) Option {
	return func(o *options) {
		if bad := optcheck.Lease(ttl, wait); bad != "" {
			o.badOption("WithLeaseTiming", "%s", bad)
			return
		}
		o.lease = store.LeaseTiming{TTL: ttl, Wait: wait}
	}
}

// WithBackoff sets how a call with [WithStore] retries a version conflict
// or a store error. Default: the zero conversation.Backoff
// (conversation.DefaultAttempts tries, jittered exponential waits); a zero
// field keeps its default, a negative one is an invalid option.
func WithBackoff(b conversation.Backoff) Option {
	return func(o *options) {
		if bad := optcheck.Backoff(b); bad != "" {
			o.badOption("WithBackoff", "%s", bad)
			return
		}
		o.backoff = b
	}
}

// compactStored is Compact (CompactNow with a force reason) for a session
// kept in the store: one turn of the conversation protocol.
func (m *Model) compactStored(ctx context.Context, p *prepared, key string, opts []compact.CallOption, force string) (*compact.Result, error) {
	t := &storedTurn{m: m, p: p, key: key, opts: opts, force: force}
	if err := m.replica.Turn(ctx, p.id, t); err != nil {
		return nil, fmt.Errorf("middleware: %w", err)
	}
	return t.res, nil
}

// storedTurn is the table entry of one session as a conversation.Local.
type storedTurn struct {
	m     *Model
	p     *prepared
	key   string
	opts  []compact.CallOption
	force string
	res   *compact.Result
}

// Synced implements conversation.Local.
func (t *storedTurn) Synced() (int64, bool) { return t.m.table.syncedAt(t.key) }

// Adopt implements conversation.Local.
func (t *storedTurn) Adopt(_ context.Context, st store.State) error {
	adopted := compact.NewSession(t.p.id)
	if len(st.Engine) > 0 {
		if err := adopted.UnmarshalJSON(st.Engine); err != nil {
			return fmt.Errorf("decode the engine state: %w", err)
		}
	}
	t.m.table.adopt(t.key, adopted, st.Version, len(st.Chain), st.Engine)
	return nil
}

// Revert implements conversation.Local: the session is rebuilt from the
// stored state it was synced at (the turn's version check then tells
// whether that is still the store's), or is new and unsynced.
func (t *storedTurn) Revert() {
	js, ver, chain, ok := t.m.table.storedJSON(t.key)
	if ok {
		s := compact.NewSession(t.p.id)
		if s.UnmarshalJSON(js) == nil {
			t.m.table.adopt(t.key, s, ver, chain, js)
			return
		}
	}
	t.m.table.revert(t.key, t.p.id)
}

// Saved implements conversation.Local.
func (t *storedTurn) Saved(v int64, ch conversation.Change) {
	t.m.table.setStored(t.key, v, len(ch.State.Chain), ch.State.Engine)
}

// Step implements conversation.Local: the engine over the table's session.
func (t *storedTurn) Step(ctx context.Context, ver int64, gate compact.SummarizeGate) (conversation.Change, error) {
	sess, _ := t.m.table.get(t.key)
	t.p.sess = sess
	opts := slices.Clip(t.opts) // appending below copies
	if gate != nil {
		opts = append(opts, compact.WithSummarizeGate(gate))
	}
	var res *compact.Result
	var err error
	if t.force != "" {
		res, err = t.m.c.CompactNow(ctx, sess, t.p.in, t.force, opts...)
	} else {
		res, err = t.m.c.Compact(ctx, sess, t.p.in, opts...)
	}
	if err != nil {
		return conversation.Change{}, err
	}
	t.res = res
	if !res.Compacted && !res.Restarted {
		return conversation.Change{}, nil
	}
	ch := conversation.Change{Originals: t.m.originalsOf(t.p, res)}
	if res.Restarted && ver > 0 {
		// A branch: served, not saved; the table's session is the stored
		// one again at the next call.
		t.p.branched = true
		t.Revert()
		return ch, nil
	}
	_, chain := t.m.table.stored(t.key)
	st, err := t.m.stateOf(t.p.id, sess, ver, chain, res)
	if err != nil {
		return conversation.Change{}, err
	}
	ch.State, ch.ChainFrom = &st, chain
	return ch, nil
}

// stateOf is the state to save after a compaction of a session synced at
// version ver with chain records stored: the engine's session, and the new
// summary record appended to the stored chain. Only the new record is
// filled in (Save does not read the records before chainFrom).
func (m *Model) stateOf(id string, sess *compact.Session, ver int64, chain int, res *compact.Result) (store.State, error) {
	js, err := sess.MarshalJSON()
	if err != nil {
		return store.State{}, fmt.Errorf("encode the state of session %s: %w", idtext.Quote(id), err)
	}
	st := store.State{SessionID: id, Version: ver, Engine: js, UpdatedAt: time.Now().UTC(), Chain: make([]store.Record, chain)}
	if res.Compacted && res.Summary != nil && res.Event != nil && res.Event.SummaryID != "" {
		st.Chain = append(st.Chain, store.Record{SummaryRecord: *res.Summary})
	}
	return st, nil
}

// originalsOf returns the originals of what res compacted, for a store
// that keeps them (nil otherwise).
func (m *Model) originalsOf(p *prepared, res *compact.Result) []store.Original {
	if _, ok := m.o.store.(store.OriginalStore); !ok {
		return nil
	}
	var list []store.Original
	for i, ref := range res.Refs {
		if ref != "" && i < len(p.in) {
			list = append(list, m.originalOf(p, ref, p.in[i]))
		}
	}
	return list
}

package middleware

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
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
// kept in the store: one turn of the conversation protocol on the
// session's copy of its stored state.
func (m *Model) compactStored(ctx context.Context, p *prepared, key string, opts []compact.CallOption, force string) (*compact.Result, error) {
	t := &storedTurn{m: m, p: p, key: key, opts: opts, force: force}
	t.conv = m.table.copyOf(key, p.id)
	if err := m.replica.Turn(ctx, t.conv, t); err != nil {
		return nil, fmt.Errorf("middleware: %w", err)
	}
	return t.res, nil
}

// storedTurn is one session of the table as the conversation.Adapter of
// its copy: the engine over the table's session.
type storedTurn struct {
	m     *Model
	p     *prepared
	key   string
	conv  *conversation.Copy
	opts  []compact.CallOption
	force string
	res   *compact.Result
}

// Take implements conversation.Adapter: the table's session becomes the
// stored engine state.
func (t *storedTurn) Take(_ context.Context, st store.State) (bool, error) {
	s := compact.NewSession(t.p.id)
	if len(st.Engine) > 0 {
		if err := s.UnmarshalJSON(st.Engine); err != nil {
			return false, fmt.Errorf("decode the engine state: %w", err)
		}
	}
	t.m.table.take(t.key, t.conv, s)
	return true, nil
}

// Step implements conversation.Adapter: the engine over the table's
// session.
func (t *storedTurn) Step(ctx context.Context, ver int64, gate compact.SummarizeGate) (conversation.Step, error) {
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
		return conversation.Step{}, err
	}
	t.res = res
	if !res.Compacted && !res.Restarted {
		return conversation.Step{}, nil
	}
	s := conversation.Step{Session: sess, Result: res, Changed: true, Originals: t.m.originalsOf(t.p, res)}
	if res.Restarted && ver > 0 {
		// A branch: served, not saved; the table's session is the stored
		// one again at the next call.
		t.p.branched = true
		s.Unsaved = true
	}
	return s, nil
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

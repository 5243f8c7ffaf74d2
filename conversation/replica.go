package conversation

import (
	"context"
	"errors"
	"fmt"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/ctxsleep"
	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/store"
)

// Replica is one process's side of the shared-state protocol of the
// conversations kept in a [store.Store]: the one owner of that protocol,
// used by both adapters (memory.Memory and middleware.Model). Build one
// with [NewReplica]; it is safe for concurrent use.
//
// A turn ([Replica.Turn]) of a conversation:
//
//  1. takes the conversation's lock in this process ([Locks]; waiting
//     honours the caller's context), so that the adapter's copy of the
//     state and the version it was synced at are read and replaced
//     together, never a stale copy paired with a newer version;
//  2. syncs: reads the stored version and, when it is not the copy's,
//     loads the stored state (its entry and version read together, by one
//     Load) and has the adapter adopt it;
//  3. has the adapter run the engine under the conversation's compaction
//     lease ([NewSummarizeGate]), so that one summarizer call serves every
//     replica;
//  4. stores the originals of what the engine compacted
//     ([store.OriginalStore]), then the state, with a compare-and-swap on
//     the version synced at.
//
// A turn whose every attempt lost the compare-and-swap to other replicas
// is served by a last rule-based step that is not stored, rather than
// failing.
//
// A replica that finds another holding the lease at the emergency ratio
// (or after waiting for it in vain) has the engine compact rule-based: that
// compaction serves its call but is not stored, and its copy is the stored
// state again at the next turn; the holder's summary becomes the chain's
// next record, so each summarizer call makes one record.
//
// Any failure of steps 2 to 4 (a version conflict: another replica saved
// first; a store read or write that failed: a terminated connection)
// reverts the adapter's copy to what the store holds and tries the turn
// again after a [Backoff] wait, up to its attempts; a compaction that was
// not saved is never kept. So the summary chain is one straight line
// whatever the number of replicas (each record's parent is the record
// before it), and a turn fails only when its context ends, the engine
// fails, or the store keeps failing for every attempt.
type Replica struct {
	s       store.Store
	holder  string
	lease   store.LeaseTiming
	backoff Backoff
	locks   Locks
}

// Option configures a [Replica].
type Option func(*Replica)

// WithBackoff sets the retry policy. Default: the zero Backoff, that is
// [DefaultAttempts] tries with waits from [DefaultBackoffBase] doubling up
// to [DefaultBackoffMax], full jitter.
func WithBackoff(b Backoff) Option { return func(r *Replica) { r.backoff = b } }

// WithLeaseTiming sets the compaction lease (see [NewSummarizeGate]).
// Default: store.DefaultLeaseTTL and store.DefaultLeaseWait.
func WithLeaseTiming(lt store.LeaseTiming) Option { return func(r *Replica) { r.lease = lt } }

// WithHolder sets the replica's lease holder id. Default:
// store.NewHolderID(), unique to the Replica.
func WithHolder(id string) Option {
	return func(r *Replica) {
		if id != "" {
			r.holder = id
		}
	}
}

// NewReplica returns the protocol over s for this process. s must not be
// nil.
func NewReplica(s store.Store, opts ...Option) *Replica {
	r := &Replica{s: s, holder: store.NewHolderID()}
	for _, o := range opts {
		if o != nil {
			o(r)
		}
	}
	r.backoff = r.backoff.orDefaults()
	r.lease = leaseDefaults(r.lease)
	return r
}

// Store returns the store the Replica shares.
func (r *Replica) Store() store.Store { return r.s }

// Holder returns the Replica's lease holder id.
func (r *Replica) Holder() string { return r.holder }

// Local is an adapter's copy of one conversation's shared state. The
// Replica calls its methods with the conversation's lock held, one at a
// time.
type Local interface {
	// Synced returns the store version the copy was synced at; ok is false
	// when the copy holds none (never synced, or reverted), and the stored
	// state is then loaded and adopted.
	Synced() (version int64, ok bool)
	// Adopt replaces the copy by st, as one Load returned it (st.Version
	// is the version of exactly that state).
	Adopt(ctx context.Context, st store.State) error
	// Step runs the engine on the copy, synced at version, with gate as
	// its summarize gate (nil when the store has no leases; pass it with
	// compact.WithSummarizeGate). It returns what to store. An error
	// wrapping store.ErrConflict (the gate's, when another replica stored
	// a newer version) has the turn adopt that version and step again; any
	// other error ends the turn.
	Step(ctx context.Context, version int64, gate compact.SummarizeGate) (Change, error)
	// Saved records that ch.State was stored as version v.
	Saved(v int64, ch Change)
	// Revert drops whatever the copy holds that the store does not: after
	// it, Synced reports ok false.
	Revert()
}

// VersionReader is implemented by a [Local] that reads the stored
// version together with data of its own (a history that returns the
// state's version with its messages), in one round trip. The Replica then
// uses it instead of [store.Store].Version when syncing.
type VersionReader interface {
	ReadVersion(ctx context.Context) (int64, error)
}

// Change is what a [Local.Step] asks the turn to store.
type Change struct {
	// State is the state to save (its Version the one synced at), or nil
	// when nothing changed.
	State *store.State
	// ChainFrom is the first record of State.Chain not stored yet (see
	// store.Store.Save).
	ChainFrom int
	// Originals are stored (when the store is a store.OriginalStore)
	// before State, so that every ref a stored state shows can be
	// recalled; they are stored even when State is nil.
	Originals []store.Original
}

// Turn runs one turn of conversation id with the adapter's copy l (see
// [Replica]). It returns nil once the turn's change is stored (or there
// was none), the engine's error, ctx's error, or, after the last attempt,
// the last store error (wrapping store.ErrConflict when every attempt
// lost a compare-and-swap). An id [CheckID] refuses is an error wrapping
// ErrInvalidID, and nothing is read or written.
func (r *Replica) Turn(ctx context.Context, id string, l Local) error {
	if err := CheckID(id); err != nil {
		return err
	}
	k, err := r.locks.lock(ctx, id)
	if err != nil {
		return fmt.Errorf("conversation %s: wait for its lock: %w", idtext.Quote(id), err)
	}
	defer r.locks.unlock(id, k)
	var last error
	for k := range r.backoff.Attempts {
		if err := ctxsleep.Sleep(ctx, r.backoff.Delay(k)); err != nil {
			return fmt.Errorf("conversation %s: %w (after %w)", idtext.Quote(id), err, errOr(last))
		}
		again, err := r.attempt(ctx, id, l)
		if !again {
			return err
		}
		last = err
		l.Revert()
	}
	if errors.Is(last, store.ErrConflict) && r.serveUnsaved(ctx, id, l) == nil {
		return nil
	}
	return fmt.Errorf("conversation %s: %d attempts: %w", idtext.Quote(id), r.backoff.Attempts, last)
}

// serveUnsaved is the last resort of a turn whose every attempt lost the
// compare-and-swap to other replicas (a conversation compacting on every
// turn from many replicas at once): one more step on the stored state,
// rule-based (the gate skips the summarizer), whose result serves the
// call and is not stored; the copy is the stored state again after it.
func (r *Replica) serveUnsaved(ctx context.Context, id string, l Local) error {
	ver, err := r.sync(ctx, id, l, r.backoff)
	if err != nil {
		return err
	}
	skip := func(context.Context, string) error {
		return fmt.Errorf("conversation %s: serving unsaved after conflicts: %w", idtext.Quote(id), compact.ErrSkipSummarizer)
	}
	ch, err := l.Step(ctx, ver, skip)
	if err == nil {
		err = r.putOriginals(ctx, id, ch.Originals)
	}
	l.Revert()
	return err
}

// errOr returns err, or a placeholder for nil.
func errOr(err error) error {
	if err == nil {
		return errors.New("no failure")
	}
	return err
}

// attempt is one try of a turn; again reports a failure that a later try
// may not meet (a conflict, a store error), err what it was.
func (r *Replica) attempt(ctx context.Context, id string, l Local) (again bool, err error) {
	ver, err := r.sync(ctx, id, l, Backoff{Attempts: 1}) // the turn's own loop retries
	if err != nil {
		return !isContextErr(ctx, err), err
	}
	var ask compact.SummarizeGate
	var g *gate
	if ls, ok := r.s.(store.Leaser); ok {
		g = newGate(r.s, ls, id, r.holder, ver, r.lease)
		defer g.release(context.WithoutCancel(ctx))
		ask = g.ask
	}
	ch, err := l.Step(ctx, ver, ask)
	switch {
	case errors.Is(err, store.ErrConflict):
		return true, err
	case err != nil:
		return false, err
	}
	if err := r.putOriginals(ctx, id, ch.Originals); err != nil {
		return !isContextErr(ctx, err), err
	}
	if ch.State == nil {
		return false, nil
	}
	if g != nil && g.wasSkipped() {
		// Another replica holds the lease and summarizes: this rule-based
		// compaction serves the call, and the holder's record is the
		// chain's next one (no summarizer call is wasted).
		l.Revert()
		return false, nil
	}
	st := *ch.State
	st.SessionID, st.Version = id, ver
	v, err := r.s.Save(ctx, st, ch.ChainFrom)
	if err != nil {
		return !isContextErr(ctx, err), fmt.Errorf("conversation %s: save at version %d: %w", idtext.Quote(id), ver, err)
	}
	l.Saved(v, ch)
	return false, nil
}

// Sync brings l up to the stored state of conversation id, for a read
// that does not run the engine. It does not take the conversation's lock,
// so that reads go on while a turn waits for a summarizer: l's Adopt may
// run during a Step of a turn, and a Local that allows it detects it (the
// memory's state generation) and has Step return an error wrapping
// store.ErrConflict, so that the turn steps again. Store reads are retried
// per the Replica's [Backoff].
func (r *Replica) Sync(ctx context.Context, id string, l Local) error {
	_, err := r.sync(ctx, id, l, r.backoff)
	return err
}

// sync reads the stored version and, when l is not at it, loads the state
// and has l adopt it; it returns the version l is now at. Reads are
// retried per b.
func (r *Replica) sync(ctx context.Context, id string, l Local, b Backoff) (int64, error) {
	if v, ok := l.Synced(); ok {
		sv, err := r.readVersion(ctx, id, l)
		if err != nil && b.Attempts > 1 {
			err = retry(ctx, b, func() (err error) {
				sv, err = r.readVersion(ctx, id, l)
				return err
			})
		}
		if err != nil {
			return 0, fmt.Errorf("conversation %s: read the stored version: %w", idtext.Quote(id), err)
		}
		if sv == v {
			return v, nil
		}
	}
	st, err := r.s.Load(ctx, id)
	if err != nil && b.Attempts > 1 {
		err = retry(ctx, b, func() (err error) {
			st, err = r.s.Load(ctx, id)
			return err
		})
	}
	if err != nil {
		return 0, fmt.Errorf("conversation %s: load the stored state: %w", idtext.Quote(id), err)
	}
	if err := l.Adopt(ctx, st); err != nil {
		return 0, fmt.Errorf("conversation %s: adopt the stored state (version %d): %w", idtext.Quote(id), st.Version, err)
	}
	return st.Version, nil
}

// readVersion reads the stored version, through l when it is a
// VersionReader.
func (r *Replica) readVersion(ctx context.Context, id string, l Local) (int64, error) {
	if vr, ok := l.(VersionReader); ok {
		return vr.ReadVersion(ctx)
	}
	return r.s.Version(ctx, id)
}

// putOriginals stores list when the store keeps originals.
func (r *Replica) putOriginals(ctx context.Context, id string, list []store.Original) error {
	os, ok := r.s.(store.OriginalStore)
	if !ok || len(list) == 0 {
		return nil
	}
	if err := os.PutOriginals(ctx, id, list); err != nil {
		return fmt.Errorf("conversation %s: store %d originals: %w", idtext.Quote(id), len(list), err)
	}
	return nil
}

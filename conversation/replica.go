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
// conversations kept in a [store.Store], used by both adapters
// (memory.Memory and middleware.Model). Build one with [NewReplica]; it is
// safe for concurrent use.
//
// A turn ([Replica.Turn]) of a conversation, on its [Copy] with the
// adapter's [Adapter]:
//
//  1. takes the conversation's lock in this process ([Locks]; waiting
//     honours the caller's context), so that turns of one conversation
//     run one at a time;
//  2. syncs: reads the stored version and, when it is not the copy's,
//     loads the stored state (its entry and version read together, by one
//     Load), which the copy and the adapter take;
//  3. has the adapter run the engine (Adapter.Step) under the
//     conversation's compaction lease ([NewSummarizeGate]), so that one
//     summarizer call serves every replica;
//  4. stores the originals of what the engine compacted
//     ([store.OriginalStore]), then the state the copy builds from the
//     step, with a compare-and-swap on the version synced at.
//
// A turn whose last attempt lost the compare-and-swap to another replica
// is served by a last rule-based step that is not stored, rather than
// failing.
//
// A replica that finds another holding the lease at the emergency ratio
// (or after waiting for it in vain) has the engine compact rule-based: that
// compaction serves its call but is not stored (the copy reverts); the
// holder's summary becomes the chain's next record, so each summarizer
// call makes one record.
//
// Any failure of steps 2 to 4 (a version conflict: another replica saved
// first; a store read or write that failed: a terminated connection)
// reverts the copy to its revert point and tries the turn again after a
// [Backoff] wait, up to its attempts; a compaction that was not saved is
// never kept. So the summary chain is one straight line whatever the
// number of replicas (each record's parent is the record before it), and
// a turn fails only when its context ends, the engine fails, or the store
// keeps failing for every attempt (for conflicts: the unstored step of the
// last resort failed too).
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

// Turn runs one turn of the conversation whose copy is c, with the
// adapter a (see [Replica]). It returns nil once the turn's change is
// stored, or there was none, or the step served the call unstored (a
// branch, or a rule-based compaction while another replica held the
// lease). When the last of the [Backoff]'s attempts lost the
// compare-and-swap to another replica (store.ErrConflict), a last
// rule-based step on the stored state, not stored, serves the call and
// Turn returns nil. Otherwise it returns the engine's error, ctx's error
// (while waiting for the lock or between attempts; with the previous
// attempt's failure, if any), or, once the attempts are spent, an error
// wrapping the last attempt's: a store error, or store.ErrConflict when
// the unstored step failed too. An id [CheckID] refuses is an error
// wrapping ErrInvalidID, and nothing is read or written.
func (r *Replica) Turn(ctx context.Context, c *Copy, a Adapter) error {
	id := c.ID()
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
		again, err := r.attempt(ctx, c, a)
		if !again {
			return err
		}
		last = err
		r.revert(ctx, c, a)
	}
	if errors.Is(last, store.ErrConflict) && r.serveUnsaved(ctx, c, a) == nil {
		return nil
	}
	return fmt.Errorf("conversation %s: %d attempts: %w", idtext.Quote(id), r.backoff.Attempts, last)
}

// revert takes c's revert point again: what was never stored is dropped.
// When the adapter cannot take it, c is unsynced and the next sync loads
// the stored state.
func (r *Replica) revert(ctx context.Context, c *Copy, a Adapter) {
	_ = c.take(ctx, a, c.revertPoint()) // an error leaves c unsynced
}

// serveUnsaved is the last resort of a turn whose every attempt lost the
// compare-and-swap to other replicas (a conversation compacting on every
// turn from many replicas at once): one more step on the stored state,
// rule-based (the gate skips the summarizer), whose result serves the
// call and is not stored; the copy is the stored state again after it.
func (r *Replica) serveUnsaved(ctx context.Context, c *Copy, a Adapter) error {
	ver, _, err := r.sync(ctx, c, a, r.backoff)
	if err != nil {
		return err
	}
	skip := func(context.Context, string) error {
		return fmt.Errorf("conversation %s: serving unsaved after conflicts: %w", idtext.Quote(c.ID()), compact.ErrSkipSummarizer)
	}
	s, err := a.Step(ctx, ver, skip)
	if err == nil {
		err = r.putOriginals(ctx, c.ID(), s.Originals)
	}
	r.revert(ctx, c, a)
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
func (r *Replica) attempt(ctx context.Context, c *Copy, a Adapter) (again bool, err error) {
	id := c.ID()
	ver, replace, err := r.sync(ctx, c, a, Backoff{Attempts: 1}) // the turn's own loop retries
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
	s, err := a.Step(ctx, ver, ask)
	switch {
	case errors.Is(err, store.ErrConflict):
		return true, err
	case err != nil:
		return false, err
	}
	if err := r.putOriginals(ctx, id, s.Originals); err != nil {
		return !isContextErr(ctx, err), err
	}
	if s.Unsaved || (g != nil && g.wasSkipped() && s.Changed) {
		// A branch, or a rule-based compaction while another replica holds
		// the lease and summarizes: it serves the call, and the holder's
		// record is the chain's next one (no summarizer call is wasted).
		r.revert(ctx, c, a)
		return false, nil
	}
	st, from, save, err := c.commit(replace, s)
	if err != nil || !save {
		return err != nil, err
	}
	v, err := r.s.Save(ctx, st, from)
	if err != nil {
		return !isContextErr(ctx, err), fmt.Errorf("conversation %s: save at version %d: %w", idtext.Quote(id), ver, err)
	}
	c.stored(replace, st, v)
	return false, nil
}

// Sync brings the copy c up to the stored state of its conversation, for
// a read that does not run the engine. It does not take the
// conversation's lock, so that reads go on while a turn waits for a
// summarizer: a's Take may run during a Step of a turn; the copy then
// does not commit that step (the turn steps again on the state taken).
// Store reads are retried per the Replica's [Backoff].
func (r *Replica) Sync(ctx context.Context, c *Copy, a Adapter) error {
	_, _, err := r.sync(ctx, c, a, r.backoff)
	return err
}

// sync reads the stored version and, when c is not at it, loads the
// state and has a take it; it returns the version c is now at and its
// replacement count. Reads are retried per b.
func (r *Replica) sync(ctx context.Context, c *Copy, a Adapter, b Backoff) (int64, uint64, error) {
	id := c.ID()
	if v, ok, replace := c.state(); ok {
		sv, err := r.readVersion(ctx, id, a)
		if err != nil && b.Attempts > 1 {
			err = retry(ctx, b, func() (err error) {
				sv, err = r.readVersion(ctx, id, a)
				return err
			})
		}
		if err != nil {
			return 0, 0, fmt.Errorf("conversation %s: read the stored version: %w", idtext.Quote(id), err)
		}
		if sv == v {
			return v, replace, nil
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
		return 0, 0, fmt.Errorf("conversation %s: load the stored state: %w", idtext.Quote(id), err)
	}
	if err := c.take(ctx, a, st); err != nil {
		return 0, 0, fmt.Errorf("conversation %s: take the stored state (version %d): %w", idtext.Quote(id), st.Version, err)
	}
	v, _, replace := c.state()
	return v, replace, nil
}

// readVersion reads the stored version, through a when it is a
// VersionReader.
func (r *Replica) readVersion(ctx context.Context, id string, a Adapter) (int64, error) {
	if vr, ok := a.(VersionReader); ok {
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

package conversation

import (
	"context"
	"fmt"
	"sync"
	"time"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/store"
)

// Copy is one process's copy of a conversation's stored state: the
// conversation's id, the store version it was synced at, its summary chain
// (the records stored at that version, then any record not stored yet),
// whether it holds a change the store does not, and its revert point (the
// state as stored at that version). It is the one writer of chain records
// ([store.Record]) and of [store.State] for both adapters: an adapter fills
// in what is its own through an [Adapter] and a [Step].
//
// The revert rule, the same for every adapter: a copy reverts to its
// revert point (what was never stored is dropped, the adapter takes the
// stored state again), and the next turn's version check tells whether
// that is still the store's.
//
// Build one with [NewCopy]; it is safe for concurrent use. Its lock is
// taken after the adapter's own locks, never before: it calls no adapter
// code while it holds it.
type Copy struct {
	id string
	// takeMu serializes the taking of stored states (a sync's, a
	// revert's), so that the adapter's state and the copy's change
	// together. It is taken before the adapter's locks.
	takeMu sync.Mutex

	mu      sync.Mutex
	synced  bool
	changed bool   // the copy holds a change the store does not
	replace uint64 // counts replacements (take, reset): a step's result is committed only over the copy it ran on
	chain   []store.Record
	base    store.State // the revert point; base.Chain is chain[:len(base.Chain)]
}

// NewCopy returns an empty, unsynced copy of conversation id: its first
// turn loads the stored state.
func NewCopy(id string) *Copy {
	return &Copy{id: id, base: store.State{SessionID: id}}
}

// ID returns the conversation's id.
func (c *Copy) ID() string { return c.id }

// Records returns the summary chain, oldest first, as a deep copy owned by
// the caller.
func (c *Copy) Records() []store.Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	return store.CloneRecords(c.chain)
}

// Len returns the number of records of the summary chain.
func (c *Copy) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.chain)
}

// Synced reports whether the copy holds a stored state (it was synced,
// and not reverted since to nothing).
func (c *Copy) Synced() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.synced
}

// Changed reports whether the copy holds a change the store does not (a
// [Copy.Reset], or a step not stored yet).
func (c *Copy) Changed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.changed
}

// Reset records that the adapter dropped its engine state (its data no
// longer matches the chain): the chain is emptied, the version kept, and
// the next turn stores the fresh state over the whole stored chain. A step
// running meanwhile is not committed.
func (c *Copy) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.chain = nil
	c.base = store.State{SessionID: c.id, Version: c.base.Version}
	c.changed = true
	c.replace++
}

// Adapter is what an adapter fills in of its conversation's [Copy]. The
// [Replica] calls its methods with the conversation's lock held when it
// runs a turn; a read's sync ([Replica.Sync]) calls Take without it.
//
// An Adapter may implement [VersionReader].
type Adapter interface {
	// Take makes st the adapter's engine state: a stored state, as one
	// Load returned it (st.Version is the version of exactly that state),
	// or the copy's revert point. fits is false when st does not fit the
	// adapter's own data (the memory: a chain that does not match its
	// history); the adapter then starts a fresh engine state, and the copy
	// holds st's version with an empty chain and a change to store. An
	// error (the adapter's data could not be read) leaves the copy
	// unsynced: the next sync loads the stored state again.
	Take(ctx context.Context, st store.State) (fits bool, err error)
	// Step runs the engine on the adapter's state, synced at version, with
	// gate as its summarize gate (nil when the store has no leases; pass it
	// with compact.WithSummarizeGate), and returns what the copy is to
	// record. An error wrapping store.ErrConflict (the gate's, when another
	// replica stored a newer version) has the turn take that version and
	// step again; any other error ends the turn.
	Step(ctx context.Context, version int64, gate compact.SummarizeGate) (Step, error)
}

// VersionReader is implemented by an [Adapter] that reads the stored
// version together with data of its own (a history that returns the
// state's version with its messages), in one round trip. The Replica then
// uses it instead of [store.Store].Version when syncing.
type VersionReader interface {
	ReadVersion(ctx context.Context) (int64, error)
}

// Step is what one engine call of an [Adapter] gives its [Copy].
type Step struct {
	// Session is the engine state after the call, stored (as its JSON)
	// when Changed is set or the copy holds a change; nil stores nothing.
	Session *compact.Session
	// Result is the engine's result: its new summary record, if any (see
	// [NewSummary]), becomes the chain's next record.
	Result *compact.Result
	// Changed reports that the call changed what the store keeps.
	Changed bool
	// Unsaved has the call serve without being stored (a branch of the
	// conversation): the copy reverts after it.
	Unsaved bool
	// Audit is the adapter's part of the new record, if any.
	Audit Audit
	// Window is the adapter's history window, for a conversation whose
	// history is kept with it (the memory); zero otherwise.
	Window Window
	// Originals are stored (when the store is a store.OriginalStore)
	// before the state, so that every ref a stored state shows can be
	// recalled; they are stored even when nothing else is.
	Originals []store.Original
}

// Audit is an adapter's part of a chain record (see [store.Record]).
type Audit struct {
	// OriginalMessageIDs replace the summary's own when not nil: the ids
	// of the originals in the whole history.
	OriginalMessageIDs []string
	// Positions, SHA256 and UpTo are the record's fields of those names.
	Positions []int
	SHA256    string
	UpTo      int
}

// Window is an adapter's history window, saved with the state: the
// [store.State] fields of the same names.
type Window struct {
	UpTo       int
	Kept       []int
	HistoryLen int
}

// NewSummary returns the summary record that res adds to the chain, or
// nil: a record is added when the engine compacted and made a new summary
// (the event names it), not when it kept the one in force.
func NewSummary(res *compact.Result) *compact.SummaryRecord {
	if res == nil || !res.Compacted || res.Summary == nil || res.Event == nil ||
		res.Event.SummaryID == "" || res.Event.SummaryID != res.Summary.ID {
		return nil
	}
	return res.Summary
}

// state returns the copy's version, whether it is synced, and its
// replacement count.
func (c *Copy) state() (version int64, synced bool, replace uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.base.Version, c.synced, c.replace
}

// take has a take st, and records the outcome.
func (c *Copy) take(ctx context.Context, a Adapter, st store.State) error {
	c.takeMu.Lock()
	defer c.takeMu.Unlock()
	fits, err := a.Take(ctx, st)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.replace++
	c.changed = false
	switch {
	case err != nil:
		c.synced = false
		return err
	case !fits:
		c.chain = nil
		c.base = store.State{SessionID: c.id, Version: st.Version}
		c.changed = true
	default:
		st.Chain = st.Chain[:len(st.Chain):len(st.Chain)] // an append copies
		c.chain, c.base = st.Chain, st
	}
	c.synced = true
	return nil
}

// revertPoint returns the state the copy reverts to.
func (c *Copy) revertPoint() store.State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.base
}

// commit records step s, run on the copy as of replacement count replace,
// and returns the state to store (save false when nothing is to be
// stored) and the chain index to store from. A copy replaced since is an
// error wrapping store.ErrConflict.
func (c *Copy) commit(replace uint64, s Step) (st store.State, from int, save bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.replace != replace {
		return store.State{}, 0, false, fmt.Errorf("conversation %s: state replaced during the step: %w", idtext.Quote(c.id), store.ErrConflict)
	}
	if sum := NewSummary(s.Result); sum != nil {
		c.chain = append(c.chain, newRecord(*sum, s.Audit))
		c.changed = true
	}
	if s.Changed {
		c.changed = true
	}
	if !c.changed || s.Session == nil {
		return store.State{}, 0, false, nil
	}
	js, err := s.Session.MarshalJSON()
	if err != nil {
		return store.State{}, 0, false, fmt.Errorf("conversation %s: encode the engine state: %w", idtext.Quote(c.id), err)
	}
	st = store.State{SessionID: c.id, Version: c.base.Version, UpTo: s.Window.UpTo, Kept: s.Window.Kept,
		HistoryLen: s.Window.HistoryLen, Engine: js, Chain: c.chain, UpdatedAt: time.Now().UTC()}
	return st, len(c.base.Chain), true, nil
}

// newRecord is the chain record of summary sum with the adapter's audit.
func newRecord(sum compact.SummaryRecord, a Audit) store.Record {
	rec := store.Record{SummaryRecord: sum, Positions: a.Positions, SHA256: a.SHA256, UpTo: a.UpTo}
	if a.OriginalMessageIDs != nil {
		rec.OriginalMessageIDs = a.OriginalMessageIDs
	}
	return rec
}

// stored records that st, committed as of replacement count replace, was
// stored as version v: it becomes the revert point.
func (c *Copy) stored(replace uint64, st store.State, v int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.replace != replace {
		return
	}
	st.Version = v
	st.Chain = st.Chain[:len(st.Chain):len(st.Chain)]
	c.base, c.changed = st, false
}

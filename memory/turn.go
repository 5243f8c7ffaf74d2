package memory

import (
	"context"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/store"
)

// turn is the Memory as a conversation.Local for one engine call (or a
// sync): the protocol itself (lock, sync, lease, compare-and-swap save,
// retries) is the Replica's.
type turn struct {
	m     *Memory
	force string        // a reason to compact now, or ""
	pend  *pendingInput // the input to budget for, or nil
	clear bool          // save the (cleared) state as it is, without the engine
	// The outcome of the last Step.
	res      *compact.Result
	inputErr error
	stepErr  error
	gen      uint64
}

var (
	_ conversation.Local         = (*turn)(nil)
	_ conversation.VersionReader = (*turn)(nil)
)

// Synced implements conversation.Local.
func (t *turn) Synced() (int64, bool) {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	return t.m.version, t.m.loaded
}

// ReadVersion implements conversation.VersionReader: the history's new
// messages and, in the same round trip when the history is the store's
// own, the stored version.
func (t *turn) ReadVersion(ctx context.Context) (int64, error) {
	v, ok, err := t.m.refreshVersion(ctx, true)
	if err != nil || ok {
		return v, err
	}
	return t.m.store.Version(ctx, t.m.o.sessionID)
}

// Adopt implements conversation.Local. The state was read before the
// history, so that the history holds at least every message it refers to.
func (t *turn) Adopt(ctx context.Context, st store.State) error {
	if err := t.m.refresh(ctx); err != nil {
		return err
	}
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	if !t.m.loaded || st.Version != t.m.version {
		t.m.adoptLocked(st)
	}
	return nil
}

// Step implements conversation.Local.
func (t *turn) Step(ctx context.Context, _ int64, gate compact.SummarizeGate) (conversation.Change, error) {
	t.res, t.inputErr = nil, nil
	if t.clear {
		t.m.mu.Lock()
		defer t.m.mu.Unlock()
		st := t.m.stateLocked()
		t.gen = t.m.gen
		return conversation.Change{State: &st}, nil
	}
	ch, err := t.m.step(ctx, t, gate)
	t.stepErr = err
	return ch, err
}

// Saved implements conversation.Local.
func (t *turn) Saved(v int64, ch conversation.Change) {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	if t.m.gen == t.gen {
		t.m.version = v
		t.m.stored = len(ch.State.Chain)
		t.m.dirty = false
	}
}

// Revert implements conversation.Local: the next sync loads the stored
// state (adoptLocked drops what was never stored).
func (t *turn) Revert() {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	t.m.loaded = false
	t.m.version = -1
	t.m.dirty = false
	t.m.view = cachedView{}
	t.m.gen++
}

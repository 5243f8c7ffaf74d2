package memory

import (
	"context"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/store"
)

// turn is the Memory as the conversation.Adapter of its copy
// (conversation.Copy) for one engine call, or for a sync: the protocol
// (lock, sync, lease, compare-and-swap save, retries) is the Replica's,
// the stored state the Copy's; the turn fills in the Memory's part.
type turn struct {
	m     *Memory
	force string        // a reason to compact now, or ""
	pend  *pendingInput // the input to budget for, or nil
	save  bool          // store the state as it is, without the engine: when the copy holds a change
	clear bool          // with save: store it even when the copy holds none
	// The outcome of the last Step.
	res      *compact.Result
	buf      compact.Result // the Result every engine call fills (compact.WithResultInto)
	inputErr error
	stepErr  error
}

var (
	_ conversation.Adapter       = (*turn)(nil)
	_ conversation.VersionReader = (*turn)(nil)
)

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

// Take implements conversation.Adapter. The state was read before the
// history, so that the history holds at least every message it refers to.
func (t *turn) Take(ctx context.Context, st store.State) (bool, error) {
	if err := t.m.refresh(ctx); err != nil {
		return false, err
	}
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	return t.m.takeLocked(st), nil
}

// Step implements conversation.Adapter.
func (t *turn) Step(ctx context.Context, _ int64, gate compact.SummarizeGate) (conversation.Step, error) {
	t.res, t.inputErr = nil, nil
	if t.save {
		t.m.mu.Lock()
		defer t.m.mu.Unlock()
		s := t.m.stepLocked()
		s.Changed = t.clear
		return s, nil
	}
	s, err := t.m.step(ctx, t, gate)
	t.stepErr = err
	return s, err
}

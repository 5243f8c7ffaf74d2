package memory

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/internal/idtext"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// syncState brings the Memory up to date: the stored state when the store
// holds a version it has not adopted (or at first use), and the history
// (read with the version, or by Adopt; see turn.go).
func (m *Memory) syncState(ctx context.Context) error {
	if err := m.replica.Sync(ctx, m.o.sessionID, &m.reader); err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	return nil
}

// adoptLocked makes st the Memory's compaction state, after checking it
// against the history; a state that does not match the history is
// replaced by a fresh one (its version kept, so the next save replaces it).
func (m *Memory) adoptLocked(st store.State) {
	m.loaded = true
	if st.Version == 0 {
		if m.version != 0 { // reverted: what it held was never stored
			m.resetLocked()
			m.dirty = false
		}
		m.version = 0
		m.stored = 0
		return
	}
	sess, err := m.checkStateLocked(st)
	if err != nil {
		m.log.Warn("memory: stored state does not match the history; compaction state reset",
			"session", m.o.sessionID, "version", st.Version, "err", err)
		m.resetLocked()
		m.version = st.Version
		return
	}
	m.sess = sess
	m.chain = st.Chain
	m.noteChainRefsLocked()
	m.stored = len(st.Chain)
	m.verified = len(st.Chain)
	m.version = st.Version
	m.dirty = false
	m.seen = st.HistoryLen
	m.view = cachedView{}
	m.gen++
	_ = m.win.SetWindow(st.UpTo, st.Kept) // checked by checkStateLocked
}

func (m *Memory) checkStateLocked(st store.State) (*compact.Session, error) {
	n := len(m.msgs)
	if st.HistoryLen > n {
		return nil, fmt.Errorf("state saved over %d messages, history holds %d", st.HistoryLen, n)
	}
	if err := m.win.CheckWindow(st.UpTo, st.Kept); err != nil {
		return nil, err
	}
	at := func(i int) llms.ChatMessage { return m.msgs[i] }
	for i, r := range st.Chain {
		if i < m.verified && i < len(m.chain) && m.chain[i].ID == r.ID && m.chain[i].SHA256 == r.SHA256 {
			continue // already checked in this process
		}
		if err := verifyRecord(r, n, at); err != nil {
			return nil, err
		}
	}
	sess, err := sessionFrom(st.Engine, m.o.sessionID)
	if err != nil {
		return nil, err
	}
	if engineFormVersion(st.Engine) < 2 {
		m.migrateV1Locked(sess, st)
	}
	return sess, nil
}

// stateLocked returns the state to save.
func (m *Memory) stateLocked() store.State {
	js, err := m.sess.MarshalJSON()
	if err != nil {
		js = nil
		m.log.Error("memory: encode engine state", "session", m.o.sessionID, "err", err)
	}
	return store.State{SessionID: m.o.sessionID, Version: m.version, UpTo: m.win.Start(), Kept: m.win.Kept(), HistoryLen: m.seen,
		Engine: js, Chain: m.chain, UpdatedAt: time.Now().UTC()}
}

// runEngine runs one engine call over the current window (compacting when
// the trigger says so, or at once when force is a reason) as one turn of
// the conversation protocol (conversation.Replica: sync, lease, compact,
// compare-and-swap save, retries; see turn.go), and records the outcome
// (audit record, window move, cached view). It must be called with
// m.engineMu held. A state that cannot be saved is not kept: the Memory
// is the stored state again, and the error is returned.
//
// With a pending input (LoadMemoryVariables' input) the engine is also
// given that input (see engineCall), so that it makes room for it, and the
// result is returned without it. An input that cannot fit is an error
// wrapping ErrInputTooLarge: before the engine runs when it exceeds the
// budget with the reserve and the system messages, or when the engine
// cannot fit what it keeps beside it (compact.ErrBudgetTooSmall, also
// wrapped; the engine changed nothing), or, should the engine cut it, after
// the compaction, which stands.
func (m *Memory) runEngine(ctx context.Context, force string, pend *pendingInput) (*compact.Result, error) {
	if m.c == nil {
		return nil, m.cErr
	}
	t := &m.engineTurn // m.engineMu is held
	*t = turn{m: m, force: force, pend: pend}
	defer func() { t.pend, t.res = nil, nil }()
	if err := m.replica.Turn(ctx, m.o.sessionID, t); err != nil {
		if err == t.stepErr { // the engine's own error, as it is
			return nil, err
		}
		return nil, fmt.Errorf("memory: compact session %s: %w", idtext.Quote(m.o.sessionID), err)
	}
	return t.res, t.inputErr
}

// step is one engine call of a turn over the Memory synced at version
// ver, with gate as the summarize gate: it records the result and returns
// the state to save, if it changed.
func (m *Memory) step(ctx context.Context, t *turn, gate compact.SummarizeGate) (conversation.Change, error) {
	m.planRetrieval(ctx, t.pend) // retrieve.go
	m.mu.Lock()
	if t.pend != nil {
		if err := m.checkInputLocked(t.pend); err != nil {
			m.mu.Unlock()
			return conversation.Change{}, err
		}
	}
	call := m.engineCallLocked(t.pend, &m.scratch)
	opts := call.options()
	opts = append(opts, m.policyOptions(&call)...) // policy.go
	sess, gen := m.sess, m.gen
	m.mu.Unlock()
	if gate != nil {
		opts = append(opts, compact.WithSummarizeGate(gate))
	}
	var raw *compact.Result
	var err error
	if t.force != "" {
		raw, err = m.c.CompactNow(ctx, sess, call.Messages, t.force, opts...)
	} else {
		raw, err = m.c.Compact(ctx, sess, call.Messages, opts...)
	}
	if err != nil {
		if t.pend != nil && errors.Is(err, compact.ErrBudgetTooSmall) {
			err = fmt.Errorf("%w: %d tokens do not fit the budget of %d beside what the engine keeps: %w",
				ErrInputTooLarge, t.pend.tok, m.c.Budget(), err)
		}
		return conversation.Change{}, err
	}
	t.inputErr = call.pendingError(raw)
	t.res = raw
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.gen != gen {
		// The state was replaced meanwhile: run again on the new one.
		return conversation.Change{}, fmt.Errorf("memory: state of session %s replaced during compaction: %w", idtext.Quote(m.o.sessionID), store.ErrConflict)
	}
	st, from, changed := m.recordResultLocked(t.res, &call)
	if !changed {
		return conversation.Change{}, nil
	}
	t.gen = m.gen
	save := st // only a changed state escapes
	return conversation.Change{State: &save, ChainFrom: from}, nil
}

// recordResultLocked records an engine call's result (audit record,
// window move, cached view, refs) and returns the state to save, the chain
// index it saves from, and whether the state changed.
func (m *Memory) recordResultLocked(res *compact.Result, call *engineCall) (store.State, int, bool) {
	n := call.N
	m.seen = n
	pos := m.win.Positions(call.HistoryInput) // before the window moves
	if res.Compacted {
		m.recordCompactionLocked(res, call)
		m.dirty = true
	} else {
		m.win.Advance(call.HistoryInput, res) // past the turns the window left
	}
	m.view = m.buildViewLocked(res, n, call.From, pos)
	m.noteRefsLocked(res, pos)
	if !m.dirty {
		return store.State{}, 0, false
	}
	return m.stateLocked(), m.stored, true
}

// recordCompactionLocked appends the audit record of a new summary and
// moves the window past what the session now summarizes.
func (m *Memory) recordCompactionLocked(res *compact.Result, call *engineCall) {
	newRec := false
	if ev := res.Event; ev != nil && ev.SummaryID != "" && res.Summary != nil && res.Summary.ID == ev.SummaryID {
		pos := make(map[string]int, m.win.WindowLen())
		for i := range m.win.Window(call.N, 0) {
			pos[m.win.ID(i)] = i
		}
		rec := store.Record{SummaryRecord: *res.Summary}
		for _, id := range res.Summary.OriginalMessageIDs {
			if p, ok := pos[id]; ok {
				rec.Positions = append(rec.Positions, p)
			}
		}
		sort.Ints(rec.Positions)
		rec.OriginalMessageIDs = make([]string, len(rec.Positions))
		msgs := make([]llms.ChatMessage, len(rec.Positions))
		for k, p := range rec.Positions {
			rec.OriginalMessageIDs[k] = m.win.ID(p)
			msgs[k] = m.msgs[p]
		}
		sum, err := HashMessages(msgs)
		if err != nil {
			m.log.Error("memory: hash summarized messages", "session", m.o.sessionID, "err", err)
		}
		rec.SHA256 = sum
		m.chain = append(m.chain, rec)
		newRec = true
	}
	m.win.Advance(call.HistoryInput, res)
	if newRec {
		m.chain[len(m.chain)-1].UpTo = m.win.Start()
	}
}

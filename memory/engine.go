package memory

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/internal/idtext"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// takeLocked makes st, a stored state, the Memory's compaction state,
// after checking it against the history; it reports false for a state
// that does not match the history, and the Memory then starts a fresh
// compaction state (the copy stores it over the stored one at the next
// turn).
func (m *Memory) takeLocked(st store.State) bool {
	if st.Version == 0 || len(st.Engine) == 0 && len(st.Chain) == 0 {
		m.freshLocked()
		return true
	}
	sess, err := m.checkStateLocked(st)
	if err != nil {
		m.log.Warn("memory: stored state does not match the history; compaction state reset",
			"session", m.o.sessionID, "version", st.Version, "err", err)
		m.freshLocked()
		return false
	}
	m.sess = sess
	m.noteChainRefsLocked(st.Chain)
	m.verified = m.verified[:0]
	for _, r := range st.Chain {
		m.verified = append(m.verified, recordKey{r.ID, r.SHA256})
	}
	m.seen = st.HistoryLen
	m.view = cachedView{}
	m.gen++
	_ = m.win.SetWindow(st.UpTo, st.Kept) // checked by checkStateLocked
	return true
}

// recordKey names a chain record checked against the history.
type recordKey struct{ id, sha string }

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
		if i < len(m.verified) && m.verified[i] == (recordKey{r.ID, r.SHA256}) {
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

// stepLocked is the Memory's state as a step gives it to its copy.
func (m *Memory) stepLocked() conversation.Step {
	return conversation.Step{Session: m.sess,
		Window: conversation.Window{UpTo: m.win.Start(), Kept: m.win.Kept(), HistoryLen: m.seen}}
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
	*t = turn{m: m, force: force, pend: pend, buf: t.buf}
	defer func() { t.pend, t.res = nil, nil }()
	if err := m.replica.Turn(ctx, m.conv, t); err != nil {
		if err == t.stepErr { // the engine's own error, as it is
			return nil, err
		}
		return nil, fmt.Errorf("memory: compact session %s: %w", idtext.Quote(m.o.sessionID), err)
	}
	return t.res, t.inputErr
}

// step is one engine call of a turn over the Memory synced at version
// ver, with gate as the summarize gate: it records the result and returns
// it to the copy.
func (m *Memory) step(ctx context.Context, t *turn, gate compact.SummarizeGate) (conversation.Step, error) {
	m.planRetrieval(ctx, t.pend) // retrieve.go
	m.mu.Lock()
	if t.pend != nil {
		if err := m.checkInputLocked(t.pend); err != nil {
			m.mu.Unlock()
			return conversation.Step{}, err
		}
	}
	call := m.engineCallLocked(t.pend, &m.scratch)
	opts := call.options()
	opts = append(opts, m.policyOptions(&call)...) // policy.go
	opts = append(opts, compact.WithResultInto(&t.buf))
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
		return conversation.Step{}, err
	}
	t.inputErr = call.pendingError(raw)
	t.res = raw
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.gen != gen {
		// The state was replaced meanwhile: run again on the new one.
		return conversation.Step{}, fmt.Errorf("memory: state of session %s replaced during compaction: %w", idtext.Quote(m.o.sessionID), store.ErrConflict)
	}
	return m.recordResultLocked(t.res, &call), nil
}

// recordResultLocked records an engine call's result (window move, cached
// view, refs) and returns it as a step for the copy: with the audit of a
// new summary record.
func (m *Memory) recordResultLocked(res *compact.Result, call *engineCall) conversation.Step {
	n := call.N
	m.seen = n
	pos := m.win.Positions(call.Input) // before the window moves
	var audit conversation.Audit
	if conversation.NewSummary(res) != nil {
		audit = m.auditLocked(res.Summary, call)
	}
	m.win.Advance(call.Input, res) // past what the session summarizes, or the turns the window left
	audit.UpTo = m.win.Start()
	m.view = m.buildViewLocked(res, n, call.From, pos)
	m.noteRefsLocked(res, pos)
	s := m.stepLocked()
	s.Result, s.Changed, s.Audit = res, res.Compacted, audit
	return s
}

// auditLocked is the Memory's part of the chain record of summary sum:
// the history positions of the originals it condensed, their ids in the
// whole history, and the SHA-256 of those messages.
func (m *Memory) auditLocked(sum *compact.SummaryRecord, call *engineCall) conversation.Audit {
	pos := make(map[string]int, m.win.WindowLen())
	for i := range m.win.Window(call.N, 0) {
		pos[m.win.ID(i)] = i
	}
	var a conversation.Audit
	for _, id := range sum.OriginalMessageIDs {
		if p, ok := pos[id]; ok {
			a.Positions = append(a.Positions, p)
		}
	}
	sort.Ints(a.Positions)
	a.OriginalMessageIDs = make([]string, len(a.Positions))
	msgs := make([]llms.ChatMessage, len(a.Positions))
	for k, p := range a.Positions {
		a.OriginalMessageIDs[k] = m.win.ID(p)
		msgs[k] = m.msgs[p]
	}
	sum256, err := HashMessages(msgs)
	if err != nil {
		m.log.Error("memory: hash summarized messages", "session", m.o.sessionID, "err", err)
	}
	a.SHA256 = sum256
	return a
}

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

// moveBatch is how many summarized messages the window must be able to
// lose before it moves (a move rebuilds the window, O(window)); until then
// they simply stay in it, left out of the context by the engine.
const moveBatch = 16

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
	m.rebuildWindowLocked(st.UpTo, st.Kept)
}

func (m *Memory) checkStateLocked(st store.State) (*compact.Session, error) {
	n := len(m.entries)
	switch {
	case st.HistoryLen > n:
		return nil, fmt.Errorf("state saved over %d messages, history holds %d", st.HistoryLen, n)
	case st.UpTo < m.lead || st.UpTo > n:
		return nil, fmt.Errorf("summarized-up-to position %d outside [%d, %d]", st.UpTo, m.lead, n)
	}
	for i, p := range st.Kept {
		if p < m.lead || p >= st.UpTo || (i > 0 && p <= st.Kept[i-1]) {
			return nil, fmt.Errorf("kept position %d outside [%d, %d) or out of order", p, m.lead, st.UpTo)
		}
	}
	at := func(i int) llms.ChatMessage { return m.entries[i].msg }
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
	return store.State{SessionID: m.o.sessionID, Version: m.version, UpTo: m.start, Kept: m.kept, HistoryLen: m.seen,
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
	call := m.engineCallLocked(t.pend, true)
	opts := call.options()
	opts = append(opts, m.policyOptions(&call)...) // policy.go
	sess, gen, n := m.sess, m.gen, len(m.entries)
	m.mu.Unlock()
	if gate != nil {
		opts = append(opts, compact.WithSummarizeGate(gate))
	}
	var raw *compact.Result
	var err error
	if t.force != "" {
		raw, err = m.c.CompactNow(ctx, sess, call.msgs, t.force, opts...)
	} else {
		raw, err = m.c.Compact(ctx, sess, call.msgs, opts...)
	}
	if err != nil {
		if t.pend != nil && errors.Is(err, compact.ErrBudgetTooSmall) {
			err = fmt.Errorf("memory: input of %d tokens does not fit the budget of %d tokens beside what the engine keeps: %w: %w",
				t.pend.tok, m.c.Budget(), ErrInputTooLarge, err)
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
	st, from, changed := m.recordResultLocked(t.res, &call, n)
	if !changed {
		return conversation.Change{}, nil
	}
	t.gen = m.gen
	save := st // only a changed state escapes
	return conversation.Change{State: &save, ChainFrom: from}, nil
}

// recordResultLocked records an engine call's result over the window of
// n history messages (audit record, window move, cached view, refs) and
// returns the state to save, the chain index it saves from, and whether
// the state changed.
func (m *Memory) recordResultLocked(res *compact.Result, call *engineCall, n int) (store.State, int, bool) {
	m.seen = n
	pos := m.windowPositionsLocked(n, call.from) // before the window moves
	states := m.windowStatesLocked(call, res.States)
	if res.Compacted {
		m.recordCompactionLocked(res, n, states)
		m.dirty = true
	} else if call.from > m.lead {
		m.moveWindowLocked(n, states) // past the turns the window left
	}
	m.view = m.buildViewLocked(res, n, call.from, pos)
	m.noteRefsLocked(res, pos)
	if !m.dirty {
		return store.State{}, 0, false
	}
	return m.stateLocked(), m.stored, true
}

// recordCompactionLocked appends the audit record of a new summary and
// moves the window past what the session now summarizes, given the states
// of the window's messages below n (see windowStatesLocked).
func (m *Memory) recordCompactionLocked(res *compact.Result, n int, states []compact.MessageState) {
	newRec := false
	if ev := res.Event; ev != nil && ev.SummaryID != "" && res.Summary != nil && res.Summary.ID == ev.SummaryID {
		pos := make(map[string]int, m.windowLen(n))
		m.windowLocked(n, func(i int) { pos[m.entries[i].id] = i })
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
			rec.OriginalMessageIDs[k] = m.entries[p].id
			msgs[k] = m.entries[p].msg
		}
		sum, err := HashMessages(msgs)
		if err != nil {
			m.log.Error("memory: hash summarized messages", "session", m.o.sessionID, "err", err)
		}
		rec.SHA256 = sum
		m.chain = append(m.chain, rec)
		newRec = true
	}
	m.moveWindowLocked(n, states)
	if newRec {
		m.chain[len(m.chain)-1].UpTo = m.start
	}
}

// moveWindowLocked moves the window past what the engine summarized, given
// the states it reported for the window's messages below n: kept units (a
// message, or an AI message calling tools with its results) before start
// that are summarized now leave the window, and start advances over whole
// units below n - minWindow, a summarized unit leaving the window, another
// moving to the kept list. A unit partly summarized stops the advance, and
// a move that would put a system message first after the leading ones is
// not made (the engine would take it for a leading one). Nothing moves
// until at least moveBatch messages can leave.
func (m *Memory) moveWindowLocked(n int, states []compact.MessageState) {
	if len(states) != m.windowLen(n) {
		return
	}
	summarized := make(map[int]bool, len(states))
	j := 0
	m.windowLocked(n, func(i int) {
		summarized[i] = states[j].Summarized()
		j++
	})
	kept, excluded := m.prunedKeptLocked(summarized)
	x, more, ex := m.advanceLocked(n, summarized)
	kept, excluded = append(kept, more...), excluded+ex
	head := func(start int, kept []int) int {
		if len(kept) > 0 {
			return kept[0]
		}
		return start
	}
	if h := head(x, kept); excluded < moveBatch || (h < len(m.entries) && h != head(m.start, m.kept) &&
		m.entries[h].mc.Role == llms.ChatMessageTypeSystem) {
		return
	}
	m.rebuildWindowLocked(x, kept)
}

// isCallLocked and isToolLocked classify entry i for the engine's unit
// rules (compact.OpensToolRound, compact.IsToolResult).
func (m *Memory) isCallLocked(i int) bool { return compact.OpensToolRound(m.entries[i].mc) }

func (m *Memory) isToolLocked(i int) bool { return compact.IsToolResult(m.entries[i].mc) }

// prunedKeptLocked returns the kept list without its units that are now
// wholly summarized, and how many messages it left out.
func (m *Memory) prunedKeptLocked(summarized map[int]bool) (kept []int, excluded int) {
	kept = make([]int, 0, len(m.kept))
	for j := 0; j < len(m.kept); {
		k := j + 1
		if m.isCallLocked(m.kept[j]) {
			for k < len(m.kept) && m.kept[k] == m.kept[k-1]+1 && m.isToolLocked(m.kept[k]) {
				k++
			}
		}
		if all, _ := classifyUnit(m.kept[j:k], summarized); all {
			excluded += k - j
		} else {
			kept = append(kept, m.kept[j:k]...)
		}
		j = k
	}
	return kept, excluded
}

// advanceLocked returns how far start can advance over whole units below
// n - minWindow, the units it passes that stay in the context (for the kept
// list), and how many messages it passes that are summarized.
func (m *Memory) advanceLocked(n int, summarized map[int]bool) (x int, kept []int, excluded int) {
	x = m.start
	limit := n - m.o.minWindow
	unit := make([]int, 0, 8)
	for x < limit {
		unit = append(unit[:0], x)
		y := x + 1
		if m.isCallLocked(x) {
			for y < n && m.isToolLocked(y) {
				unit = append(unit, y)
				y++
			}
		}
		if y > limit {
			break
		}
		all, none := classifyUnit(unit, summarized)
		if !all && !none {
			break // partly summarized
		}
		if all {
			excluded += y - x
		} else {
			kept = append(kept, unit...)
		}
		x = y
	}
	return x, kept, excluded
}

// classifyUnit reports whether every message of unit is summarized, and
// whether none is.
func classifyUnit(unit []int, summarized map[int]bool) (all, none bool) {
	all, none = true, true
	for _, k := range unit {
		if summarized[k] {
			none = false
		} else {
			all = false
		}
	}
	return all, none
}

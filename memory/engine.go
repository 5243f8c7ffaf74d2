package memory

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// maxSaveAttempts bounds how often a compaction is redone after version
// conflicts with other writers of the same session.
const maxSaveAttempts = 8

// moveBatch is how many summarized messages the window must be able to
// lose before it moves (a move rebuilds the window, O(window)); until then
// they simply stay in it, left out of the context by the engine.
const moveBatch = 16

// syncState brings the Memory up to date: the stored state when the store
// holds a version it has not adopted (or at first use), then the history.
// The state is read before the history, so that the history read holds at
// least every message the state refers to.
func (m *Memory) syncState(ctx context.Context) error {
	m.mu.Lock()
	loaded, ver := m.loaded, m.version
	m.mu.Unlock()
	if loaded {
		// One round trip when the history reads the state's version too.
		if v, ok, err := m.refreshVersion(ctx, true); err != nil || (ok && v == ver) {
			return err
		}
		v, err := m.store.Version(ctx, m.o.sessionID)
		if err != nil {
			return fmt.Errorf("memory: read state version of session %q: %w", m.o.sessionID, err)
		}
		if v == ver {
			return m.refresh(ctx)
		}
	}
	st, err := m.store.Load(ctx, m.o.sessionID)
	if err != nil {
		return fmt.Errorf("memory: load state of session %q: %w", m.o.sessionID, err)
	}
	if err := m.refresh(ctx); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.loaded || st.Version != m.version {
		m.adoptLocked(st)
	}
	return nil
}

// adoptLocked makes st the Memory's compaction state, after checking it
// against the history; a state that does not match the history is
// replaced by a fresh one (its version kept, so the next save replaces it).
func (m *Memory) adoptLocked(st store.State) {
	m.loaded = true
	if st.Version == 0 {
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
// the trigger says so, or at once when force is a reason), records the
// outcome (audit record, window move, cached view) and saves the state
// when it changed. On a version conflict it adopts the newer state and
// runs again. It must be called with m.engineMu held. A failed save is
// logged and returned as persistErr; the compaction itself stands and is
// saved with the next one.
//
// With a pending input (LoadMemoryVariables' input) the engine is also
// given that input (see engineCall), so that it makes room for it, and the
// result is returned without it. An input that cannot fit is an error
// wrapping ErrInputTooLarge: before the engine runs when it exceeds the
// budget with the reserve and the system messages, or when the engine
// cannot fit what it keeps beside it (compact.ErrBudgetTooSmall, also
// wrapped; the engine changed nothing), or, should the engine cut it, after
// the compaction, which stands.
func (m *Memory) runEngine(ctx context.Context, force string, pend *pendingInput) (res *compact.Result, persistErr error, err error) {
	if m.c == nil {
		return nil, nil, m.cErr
	}
	for range maxSaveAttempts {
		res, persistErr, err, again := m.engineAttempt(ctx, force, pend)
		if !again {
			return res, persistErr, err
		}
	}
	return nil, nil, fmt.Errorf("memory: compact session %q: %d attempts: %w", m.o.sessionID, maxSaveAttempts, store.ErrConflict)
}

// engineAttempt is one attempt of runEngine: again reports that another
// writer stored a newer state meanwhile (the attempt saved nothing), to be
// adopted by the next attempt. With a store that has leases, the
// summarizer runs under the session's compaction lease
// (store.NewSummarizeGate), released once the state is saved.
func (m *Memory) engineAttempt(ctx context.Context, force string, pend *pendingInput) (res *compact.Result, persistErr, err error, again bool) {
	if err := m.syncState(ctx); err != nil {
		return nil, nil, err, false
	}
	m.planRetrieval(ctx, pend) // retrieve.go
	m.mu.Lock()
	if pend != nil {
		if err := m.checkInputLocked(pend); err != nil {
			m.mu.Unlock()
			return nil, nil, err, false
		}
	}
	call := m.engineCallLocked(pend, true)
	opts := []compact.CallOption{compact.WithMessageIDs(call.ids), compact.WithOmitted(call.omitted)}
	opts = append(opts, m.policyOptions(&call)...) // policy.go
	sess, gen, n, ver := m.sess, m.gen, len(m.entries), m.version
	m.mu.Unlock()
	gate, release := store.NewSummarizeGate(m.store, m.o.sessionID, m.holder, ver, m.o.lease)
	defer release(context.WithoutCancel(ctx))
	if gate != nil {
		opts = append(opts, compact.WithSummarizeGate(gate))
	}
	var raw *compact.Result
	if force != "" {
		raw, err = m.c.CompactNow(ctx, sess, call.msgs, force, opts...)
	} else {
		raw, err = m.c.Compact(ctx, sess, call.msgs, opts...)
	}
	if err != nil {
		switch {
		case errors.Is(err, store.ErrConflict):
			return nil, nil, nil, true // another replica compacted: adopt its state
		case pend != nil && errors.Is(err, compact.ErrBudgetTooSmall):
			return nil, nil, fmt.Errorf("memory: input of %d tokens does not fit the budget of %d tokens beside what the engine keeps: %w: %w",
				pend.tok, m.c.Budget(), ErrInputTooLarge, err), false
		}
		return nil, nil, fmt.Errorf("memory: compact session %q: %w", m.o.sessionID, err), false
	}
	inputErr := call.pendingError(raw)
	res = call.strip(raw, m.c.Counter())
	m.mu.Lock()
	if m.gen != gen {
		m.mu.Unlock()
		return nil, nil, nil, true // the state was replaced meanwhile: run again on the new one
	}
	st, from, changed := m.recordResultLocked(res, &call, n)
	m.mu.Unlock()
	if !changed {
		return res, nil, inputErr, false
	}
	v, err := m.store.Save(ctx, st, from)
	if errors.Is(err, store.ErrConflict) {
		return nil, nil, nil, true // syncState adopts the newer state on the next attempt
	}
	if err != nil {
		m.log.Error("memory: save compaction state", "session", m.o.sessionID, "err", err)
		return res, fmt.Errorf("memory: save state of session %q: %w", m.o.sessionID, err), inputErr, false
	}
	m.mu.Lock()
	if m.gen == gen {
		m.version = v
		m.stored = len(st.Chain)
		m.dirty = false
	}
	m.mu.Unlock()
	return res, nil, inputErr, false
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

// isCallLocked and isToolLocked classify entry i for the unit rules.
func (m *Memory) isCallLocked(i int) bool {
	e := m.entries[i]
	return e.mc.Role == llms.ChatMessageTypeAI && msg.HasToolCall(e.mc)
}

func (m *Memory) isToolLocked(i int) bool { return m.entries[i].mc.Role == llms.ChatMessageTypeTool }

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

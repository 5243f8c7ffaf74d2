package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	compact "github.com/agentcompact/compact"
)

// ErrConflict reports that a [Store] holds a newer version of a session's
// state than the one a Save expected: another Memory (or process) saved
// first. A [Memory] handles it by reloading the newer state and compacting
// again on top of it; it is returned to callers only when that keeps
// failing.
var ErrConflict = errors.New("memory: session state changed concurrently (version conflict)")

// Record is one link of a session's summary chain together with its audit
// data. Its SummaryRecord is the engine's record, except that
// OriginalMessageIDs are the ids of the originals in the whole history, as
// compact.MessageIDs(history) computes them.
type Record struct {
	compact.SummaryRecord
	// Positions are the history positions (0-based, ascending) of the
	// original messages this record condensed. With its ancestors' they
	// cover everything the summary replaces.
	Positions []int `json:"positions"`
	// SHA256 is the hex SHA-256 of the canonical encoding of those messages
	// in position order (see [HashMessages]): recomputing it from the history
	// proves the originals are intact.
	SHA256 string `json:"sha256"`
	// UpTo is the summarized-up-to position after this compaction (see
	// [State].UpTo).
	UpTo int `json:"upTo"`
}

// State is the persisted compaction state of one session.
type State struct {
	// SessionID identifies the session in its store.
	SessionID string `json:"sessionId"`
	// Version is the compare-and-swap version: 0 when nothing is stored,
	// incremented by every successful Save.
	Version int64 `json:"version"`
	// UpTo is the summarized-up-to position: every message of
	// history[lead:UpTo] (after the leading system messages) is covered by
	// the chain, except those at the Kept positions, and the engine's state
	// below refers to the window history[:lead] + history[Kept...] +
	// history[UpTo:].
	UpTo int `json:"upTo"`
	// Kept lists, ascending, the positions before UpTo that the engine keeps
	// in the context (the task, which it pins, and any message it never
	// dropped).
	Kept []int `json:"kept,omitempty"`
	// HistoryLen is the number of history messages when the state was saved.
	HistoryLen int `json:"historyLen"`
	// Engine is the compact.Session JSON (summary in force, covered ids,
	// masks, trigger state) for the window history[:lead] + history[UpTo:].
	// Its chain holds only the record in force; Chain holds them all.
	Engine json.RawMessage `json:"engine,omitempty"`
	// Chain is the whole summary chain, oldest first.
	Chain []Record `json:"chain,omitempty"`
	// UpdatedAt is when the state was saved.
	UpdatedAt time.Time `json:"updatedAt"`
}

// Store persists the compaction state of sessions. Implementations must be
// safe for concurrent use and, when shared by processes, make Save atomic:
// either all of it is stored or nothing.
type Store interface {
	// Load returns the state of a session; a session never saved yields a
	// zero State (Version 0) with its SessionID and no error.
	Load(ctx context.Context, sessionID string) (State, error)
	// Save stores st if the stored version equals st.Version (0 when
	// nothing is stored) and returns the new version (st.Version+1); else it
	// stores nothing and returns an error wrapping ErrConflict. The stored
	// chain keeps its records before index chainFrom and takes
	// st.Chain[chainFrom:] after them (chainFrom 0 replaces the whole chain).
	// Save does not retain st.Chain.
	Save(ctx context.Context, st State, chainFrom int) (int64, error)
	// Version returns the stored version of a session (0 when none).
	Version(ctx context.Context, sessionID string) (int64, error)
}

// HistoryStore is a [Store] that also keeps the sessions' message
// histories. A Memory given such a store with [WithStore] and no
// [WithChatHistory] uses History(sessionID) as its history.
type HistoryStore interface {
	Store
	// History returns the history of a session.
	History(sessionID string) IncrementalHistory
}

// MemoryStore is the default [Store]: sessions' states held in the
// process's memory, safe for concurrent use, lost when the process exits.
// The zero value is ready to use.
type MemoryStore struct {
	mu sync.Mutex
	m  map[string]State
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore { return &MemoryStore{} }

// Load implements [Store]. The returned state is a copy.
func (s *MemoryStore) Load(ctx context.Context, sessionID string) (State, error) {
	if err := ctx.Err(); err != nil {
		return State{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.m[sessionID]
	if !ok {
		return State{SessionID: sessionID}, nil
	}
	return cloneState(st), nil
}

// Save implements [Store].
func (s *MemoryStore) Save(ctx context.Context, st State, chainFrom int) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if chainFrom < 0 || chainFrom > len(st.Chain) {
		return 0, fmt.Errorf("memory: save session %q: chainFrom %d outside the chain of %d records",
			st.SessionID, chainFrom, len(st.Chain))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.m[st.SessionID]
	if cur.Version != st.Version {
		return 0, fmt.Errorf("save session %q at version %d, stored %d: %w", st.SessionID, st.Version, cur.Version, ErrConflict)
	}
	if chainFrom > len(cur.Chain) {
		return 0, fmt.Errorf("memory: save session %q: chainFrom %d beyond the stored chain of %d records",
			st.SessionID, chainFrom, len(cur.Chain))
	}
	next := st
	next.Engine = append(json.RawMessage(nil), st.Engine...)
	next.Kept = append([]int(nil), st.Kept...)
	// The stored chain's array is referenced by no one else (Load returns
	// copies), so appending in place keeps Save proportional to the new records.
	next.Chain = append(cur.Chain[:chainFrom], cloneRecords(st.Chain[chainFrom:])...)
	next.Version = cur.Version + 1
	if s.m == nil {
		s.m = map[string]State{}
	}
	s.m[st.SessionID] = next
	return next.Version, nil
}

// Version implements [Store].
func (s *MemoryStore) Version(ctx context.Context, sessionID string) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[sessionID].Version, nil
}

func cloneState(st State) State {
	st.Engine = append(json.RawMessage(nil), st.Engine...)
	st.Kept = append([]int(nil), st.Kept...)
	st.Chain = cloneRecords(st.Chain)
	return st
}

func cloneRecords(rs []Record) []Record {
	if rs == nil {
		return nil
	}
	out := make([]Record, len(rs))
	for i, r := range rs {
		out[i] = cloneRecord(r)
	}
	return out
}

func cloneRecord(r Record) Record {
	r.Positions = append([]int(nil), r.Positions...)
	r.KeyPoints = append([]string(nil), r.KeyPoints...)
	r.OriginalMessageIDs = append([]string(nil), r.OriginalMessageIDs...)
	c := r.Context
	c.Participants = append([]string(nil), c.Participants...)
	c.Decisions = append([]string(nil), c.Decisions...)
	c.ActionItems = append([]compact.ActionItem(nil), c.ActionItems...)
	c.Unresolved = append([]string(nil), c.Unresolved...)
	c.DomainEntities = append([]string(nil), c.DomainEntities...)
	r.Context = c
	return r
}

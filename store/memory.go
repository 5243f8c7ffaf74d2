package store

import (
	"context"
	"fmt"
	"sync"

	"github.com/agentcompact/compact/internal/idtext"
)

// Memory is the in-memory store: sessions' states, histories and originals
// held in the process's memory, lost when it exits. It implements [Store],
// [HistoryStore] and [OriginalStore], is safe for concurrent use, keeps
// copies of what it is given and returns copies (a session's history is one
// [ChatHistory], shared by every History call for that session). It is
// memory.Memory's default store. The zero value is ready to use.
type Memory struct {
	mu        sync.Mutex
	states    map[string]State
	histories map[string]*ChatHistory
	originals map[string]*HeldOriginals
	leases    map[string]lease
}

var (
	_ Store         = (*Memory)(nil)
	_ HistoryStore  = (*Memory)(nil)
	_ OriginalStore = (*Memory)(nil)
)

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory { return &Memory{} }

// Load implements [Store]. The returned state is a copy.
func (s *Memory) Load(ctx context.Context, sessionID string) (State, error) {
	if err := ctx.Err(); err != nil {
		return State{}, fmt.Errorf("store: load session %s: %w", idtext.Quote(sessionID), err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.states[sessionID]
	if !ok {
		return State{SessionID: sessionID}, nil
	}
	return st.Clone(), nil
}

// Save implements [Store]. It keeps a copy of st.
func (s *Memory) Save(ctx context.Context, st State, chainFrom int) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("store: save session %s at version %d: %w", idtext.Quote(st.SessionID), st.Version, err)
	}
	if chainFrom < 0 || chainFrom > len(st.Chain) {
		return 0, fmt.Errorf("store: save session %s at version %d: chainFrom %d outside the chain of %d records",
			idtext.Quote(st.SessionID), st.Version, chainFrom, len(st.Chain))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.states[st.SessionID]
	if cur.Version != st.Version {
		return 0, fmt.Errorf("store: save session %s at version %d, stored %d: %w", idtext.Quote(st.SessionID), st.Version, cur.Version, ErrConflict)
	}
	if chainFrom > len(cur.Chain) {
		return 0, fmt.Errorf("store: save session %s at version %d: chainFrom %d beyond the stored chain of %d records",
			idtext.Quote(st.SessionID), st.Version, chainFrom, len(cur.Chain))
	}
	next := st
	next.Engine = cloneSlice(st.Engine)
	next.Kept = cloneSlice(st.Kept)
	// The stored chain's array is referenced by no one else (Load returns
	// copies), so appending in place keeps Save proportional to the new records.
	next.Chain = append(cur.Chain[:chainFrom], CloneRecords(st.Chain[chainFrom:])...)
	next.Version = cur.Version + 1
	if s.states == nil {
		s.states = map[string]State{}
	}
	s.states[st.SessionID] = next
	return next.Version, nil
}

// Version implements [Store].
func (s *Memory) Version(ctx context.Context, sessionID string) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("store: version of session %s: %w", idtext.Quote(sessionID), err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.states[sessionID].Version, nil
}

// History implements [HistoryStore]: the session's history is a
// [ChatHistory], created empty on first use. It returns the values appended
// (pointer forms stay pointers).
func (s *Memory) History(sessionID string) IncrementalHistory {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.histories[sessionID]
	if !ok {
		h = &ChatHistory{}
		if s.histories == nil {
			s.histories = map[string]*ChatHistory{}
		}
		s.histories[sessionID] = h
	}
	return h
}

// PutOriginals implements [OriginalStore].
func (s *Memory) PutOriginals(ctx context.Context, sessionID string, list []Original) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store: put originals of session %s: %w", idtext.Quote(sessionID), err)
	}
	if err := CheckOriginals(sessionID, list); err != nil {
		return err
	}
	if len(list) == 0 {
		return nil
	}
	s.mu.Lock()
	o := s.originals[sessionID]
	if o == nil {
		o = NewHeldOriginals(0)
		if s.originals == nil {
			s.originals = map[string]*HeldOriginals{}
		}
		s.originals[sessionID] = o
	}
	s.mu.Unlock()
	o.Put(list...)
	return nil
}

// Original implements [OriginalStore].
func (s *Memory) Original(ctx context.Context, sessionID, ref string) (Original, error) {
	if err := ctx.Err(); err != nil {
		return Original{}, fmt.Errorf("store: original %s of session %s: %w", idtext.Quote(ref), idtext.Quote(sessionID), err)
	}
	s.mu.Lock()
	o := s.originals[sessionID]
	s.mu.Unlock()
	if o == nil {
		return Original{}, fmt.Errorf("store: original %s of session %s: %w", idtext.Quote(ref), idtext.Quote(sessionID), ErrNotFound)
	}
	x, err := o.Original(ref)
	if err != nil {
		return Original{}, fmt.Errorf("store: session %s: %w", idtext.Quote(sessionID), err)
	}
	return x, nil
}

// SearchOriginals implements [OriginalStore].
func (s *Memory) SearchOriginals(ctx context.Context, sessionID, query string, limit int) ([]Original, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("store: search originals of session %s: %w", idtext.Quote(sessionID), err)
	}
	if query == "" || limit <= 0 {
		return nil, nil
	}
	s.mu.Lock()
	o := s.originals[sessionID]
	s.mu.Unlock()
	if o == nil {
		return nil, nil
	}
	return o.Search(query, limit), nil
}

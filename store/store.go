package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/agentcompact/compact/summary/record"
)

// ErrConflict reports that a [Store] holds a newer version of a session's
// state than the one a Save expected: another writer (goroutine or process)
// saved first. Nothing was stored. The caller reloads the newer state, redoes
// its change on top of it and saves again. The adapters (memory.Memory, and
// middleware.Model with a store) do not retry themselves: package
// conversation's replica protocol (conversation.Replica.Turn) does, with
// backoff, and when the last attempt lost too it serves the call from a
// step that is not stored; an adapter returns an error wrapping
// ErrConflict only when that step fails too.
var ErrConflict = errors.New("store: session state changed concurrently (version conflict)")

// Record is one link of a session's summary chain together with its audit
// data. Its SummaryRecord is the engine's record (summary.Record, which
// compact.SummaryRecord aliases: the store does not import the engine),
// except that
// OriginalMessageIDs are the ids of the originals in the whole history, as
// compact.MessageIDs computes them over it.
type Record struct {
	SummaryRecord
	// Positions are the history positions (0-based, ascending) of the
	// original messages this record condensed. With its ancestors' they
	// cover everything the summary replaces.
	Positions []int `json:"positions"`
	// SHA256 is the hex SHA-256 of the canonical encoding of those messages
	// in position order (see memory.HashMessages): recomputing it from the
	// history proves the originals are intact.
	SHA256 string `json:"sha256"`
	// UpTo is the summarized-up-to position after this compaction (see
	// [State].UpTo).
	UpTo int `json:"upTo"`
}

// Clone returns a deep copy of r: it shares no slice with r.
func (r Record) Clone() Record {
	r.Positions = cloneSlice(r.Positions)
	r.KeyPoints = cloneSlice(r.KeyPoints)
	r.OriginalMessageIDs = cloneSlice(r.OriginalMessageIDs)
	c := r.Context
	c.Participants = cloneSlice(c.Participants)
	c.Decisions = cloneSlice(c.Decisions)
	c.ActionItems = cloneSlice(c.ActionItems)
	c.Unresolved = cloneSlice(c.Unresolved)
	c.DomainEntities = cloneSlice(c.DomainEntities)
	r.Context = c
	return r
}

// CloneRecords returns a deep copy of rs (nil for nil).
func CloneRecords(rs []Record) []Record {
	if rs == nil {
		return nil
	}
	out := make([]Record, len(rs))
	for i, r := range rs {
		out[i] = r.Clone()
	}
	return out
}

// State is the persisted compaction state of one session.
//
// Two adapters keep their sessions in a Store. memory.Memory sets every
// field. The middleware (middleware.WithStore) keeps its sessions' engine
// state: a State with SessionID, Version, Engine, Chain and UpdatedAt set,
// and UpTo, Kept and HistoryLen zero (its sessions have no history in the
// store). Both share one namespace of session ids: a Memory and a
// middleware session given the same id would overwrite each other's state,
// so callers give them distinct ids.
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
	// UpdatedAt is when the state was saved. Stores may return it in UTC.
	UpdatedAt time.Time `json:"updatedAt"`
}

// Clone returns a deep copy of st: it shares no slice with st.
func (st State) Clone() State {
	st.Engine = cloneSlice(st.Engine)
	st.Kept = cloneSlice(st.Kept)
	st.Chain = CloneRecords(st.Chain)
	return st
}

// Store persists the compaction state of sessions.
//
// Concurrency: implementations are safe for concurrent use by multiple
// goroutines, and a store shared by processes (a database) serializes
// writers per session: Save is a compare-and-swap on the version, so of two
// writers that loaded the same version exactly one succeeds and the other
// gets [ErrConflict]. A Load sees a State exactly as one successful Save
// stored it, never a mix of two.
//
// Crash semantics: a Save is atomic. Either all of it (the state and every
// new record of the chain) is stored or nothing is; a process killed during
// a Save leaves the previous state. A Save that returned no error is stored
// as durably as the implementation documents (the in-memory store: until
// the process exits).
//
// Every method takes a context and honours its cancellation: a context
// cancelled before or during the call makes it return an error wrapping the
// context's error, and a write that returns such an error has stored
// nothing. Values passed in are never retained and values returned are
// copies owned by the caller. Implementations are checked by
// storetest.Run.
type Store interface {
	// Load returns the state of a session; a session never saved yields a
	// zero State (Version 0) with its SessionID and no error.
	Load(ctx context.Context, sessionID string) (State, error)
	// Save stores st if the stored version equals st.Version (0 when
	// nothing is stored) and returns the new version (st.Version+1); else it
	// stores nothing and returns an error wrapping ErrConflict. The stored
	// chain keeps its records before index chainFrom and takes
	// st.Chain[chainFrom:] after them (chainFrom 0 replaces the whole
	// chain; st.Chain[:chainFrom] is not read), so saving a compaction
	// writes only its new records. chainFrom below 0, beyond len(st.Chain)
	// or beyond the stored chain's length is an error (not ErrConflict)
	// and stores nothing.
	Save(ctx context.Context, st State, chainFrom int) (int64, error)
	// Version returns the stored version of a session (0 when none).
	Version(ctx context.Context, sessionID string) (int64, error)
}

// SummaryRecord is the engine's summary record (compact.SummaryRecord is
// the same type), embedded in a [Record].
type SummaryRecord = record.Record

func cloneSlice[S ~[]E, E any](s S) S {
	if s == nil {
		return nil
	}
	return append(S{}, s...)
}

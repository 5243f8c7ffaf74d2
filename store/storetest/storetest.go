package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentcompact/compact/store"
	summaryrecord "github.com/agentcompact/compact/summary/record"
	"github.com/stretchr/testify/require"
)

// Run runs the conformance tests of a [store.Store] as subtests of t, and
// those of [store.HistoryStore], [store.OriginalStore] and [store.Leaser]
// (as RunHistory, RunOriginals and RunLease do) when the store implements
// them; they are skipped otherwise.
//
// open returns the store under test. It is called once per subtest, from
// the subtest's goroutine; it may return a new store each time or the same
// one, and registers any cleanup with t.Cleanup. The tests need no empty
// store: every subtest uses session ids of its own (a random prefix
// followed by a name).
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	t.Helper()
	t.Run("State", func(t *testing.T) { runState(t, open) })
	t.Run("History", func(t *testing.T) {
		if _, ok := open(t).(store.HistoryStore); !ok {
			t.Skip("the store does not implement store.HistoryStore")
		}
		RunHistory(t, func(t *testing.T) store.HistoryStore { return open(t).(store.HistoryStore) })
	})
	t.Run("Originals", func(t *testing.T) {
		if _, ok := open(t).(store.OriginalStore); !ok {
			t.Skip("the store does not implement store.OriginalStore")
		}
		RunOriginals(t, func(t *testing.T) store.OriginalStore { return open(t).(store.OriginalStore) })
	})
	t.Run("Lease", func(t *testing.T) {
		if _, ok := open(t).(store.Leaser); !ok {
			t.Skip("the store does not implement store.Leaser")
		}
		RunLease(t, func(t *testing.T) store.Leaser { return open(t).(store.Leaser) })
	})
}

// check is one conformance check of a store of type S.
type check[S any] struct {
	name string
	fn   func(t *testing.T, s S)
}

// runChecks runs each check as a subtest, on a store open returns for it.
func runChecks[S any](t *testing.T, open func(t *testing.T) S, checks []check[S]) {
	t.Helper()
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) { c.fn(t, open(t)) })
	}
}

// ids returns session ids of one subtest: a random prefix followed by the
// names, so that no two subtests (or runs on a persistent store) share one.
func ids(t *testing.T, names ...string) []string {
	t.Helper()
	var b [6]byte
	_, err := rand.Read(b[:])
	require.NoError(t, err)
	prefix := "storetest-" + hex.EncodeToString(b[:]) + "-"
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

// id returns one session id of a subtest (see ids).
func id(t *testing.T, name string) string { return ids(t, name)[0] }

// trickyNames are session-id suffixes that a store building queries from
// text, matching with patterns or folding case would mix up.
func trickyNames() []string {
	long := strings.Repeat("x", 10_000)
	return []string{
		"a", "A", "a ", "ab", "a%", "a_", "a'b", `a"b`, `a\b`,
		"'; DELETE FROM compact_sessions; --", "x' OR '1'='1", "%", "_", "*", ".*", "[a]", "$1", "?",
		"日本語", "Straße", "STRASSE", long + "1", long + "2",
	}
}

// cancelled returns a context that is already cancelled.
func cancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// at is a fixed time with whole microseconds (what PostgreSQL keeps).
func at(sec int) time.Time { return time.Date(2025, 3, 4, 5, 6, sec, 123_456_000, time.UTC) }

// record returns a summary record with every field set.
func record(id string) store.Record {
	return store.Record{
		SummaryRecord: store.SummaryRecord{
			ID: id, ParentID: "parent-of-" + id, Depth: 2, Timestamp: at(7), Summary: "summary of " + id,
			KeyPoints: []string{"point one", "point two"},
			Context: summaryrecord.Context{
				Participants: []string{"user", "assistant"}, Decisions: []string{"use " + id},
				ActionItems: []summaryrecord.ActionItem{{Owner: "user", Task: "check " + id, Due: "friday"}},
				Unresolved:  []string{"why"}, DomainEntities: []string{"parser.go"},
			},
			OriginalMessageIDs: []string{id + "-m1", id + "-m2"}, TokenEstimate: 42, Mode: summaryrecord.ModeRule,
		},
		Positions: []int{3, 4}, SHA256: strings.Repeat("ab", 32), UpTo: 5,
	}
}

// canonState returns st in the form states are compared in: empty slices
// as nil, times in UTC, and Engine as canonical JSON (a store may keep it in
// a JSON column that does not keep white space or key order).
func canonState(st store.State) store.State {
	st = st.Clone()
	st.Kept = nilIfEmpty(st.Kept)
	st.Engine = canonJSON(st.Engine)
	st.UpdatedAt = st.UpdatedAt.UTC()
	st.Chain = nilIfEmpty(st.Chain)
	for i, r := range st.Chain {
		st.Chain[i] = canonRecord(r)
	}
	return st
}

func canonRecord(r store.Record) store.Record {
	r.Timestamp = r.Timestamp.UTC()
	r.Positions = nilIfEmpty(r.Positions)
	r.KeyPoints = nilIfEmpty(r.KeyPoints)
	r.OriginalMessageIDs = nilIfEmpty(r.OriginalMessageIDs)
	c := &r.Context
	c.Participants = nilIfEmpty(c.Participants)
	c.Decisions = nilIfEmpty(c.Decisions)
	c.ActionItems = nilIfEmpty(c.ActionItems)
	c.Unresolved = nilIfEmpty(c.Unresolved)
	c.DomainEntities = nilIfEmpty(c.DomainEntities)
	return r
}

func canonJSON(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return b
	}
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return out
}

func nilIfEmpty[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return s
}

// replaceInvalid returns s with each byte that is not part of valid UTF-8
// replaced by U+FFFD, as encoding/json writes such text (one U+FFFD per
// byte). For text where no two invalid bytes are adjacent it is
// strings.ToValidUTF8(s, "\uFFFD").
func replaceInvalid(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// replaceRecord applies replaceInvalid to every string of r.
func replaceRecord(r store.Record) store.Record {
	r = r.Clone()
	r.ID, r.ParentID, r.Summary, r.Mode, r.SHA256 = replaceInvalid(r.ID), replaceInvalid(r.ParentID),
		replaceInvalid(r.Summary), replaceInvalid(r.Mode), replaceInvalid(r.SHA256)
	for _, s := range [][]string{r.KeyPoints, r.OriginalMessageIDs, r.Context.Participants, r.Context.Decisions,
		r.Context.Unresolved, r.Context.DomainEntities} {
		for i := range s {
			s[i] = replaceInvalid(s[i])
		}
	}
	for i, a := range r.Context.ActionItems {
		r.Context.ActionItems[i] = summaryrecord.ActionItem{Owner: replaceInvalid(a.Owner), Task: replaceInvalid(a.Task), Due: replaceInvalid(a.Due)}
	}
	return r
}

package reliability

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/sqlitestore"
	"github.com/tmc/langchaingo/llms"
)

// storeFault is a fault the faulty store injects.
type storeFault int

const (
	storeOK       storeFault = iota
	storeConflict            // Save reports a version conflict (store.ErrConflict) without saving
	storeClosed              // every call fails with "sql: database is closed" for a while
	storeLocked              // one call fails with "database is locked" (SQLITE_BUSY)
	numStoreFaults
)

var storeFaultNames = [numStoreFaults]string{"ok", "cas-conflict", "closed-db", "locked"}

// errClosedDB and errLocked are what a closed or busy SQLite database reports.
var (
	errClosedDB = errors.New("sql: database is closed")
	errLocked   = errors.New("database is locked (5) (SQLITE_BUSY)")
)

// faultyStore wraps a store.HistoryStore (the SQLite store) and fails its
// calls at random, before they reach the database (a failed call writes
// nothing). A "closed" fault fails every call of the store, history
// included, for the next closedFor calls. Safe for concurrent use.
type faultyStore struct {
	next store.HistoryStore
	rate float64

	mu        sync.Mutex
	r         *rand.Rand
	closedFor int
	injected  [numStoreFaults]atomic.Int64
}

func (s *faultyStore) fault(save bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closedFor > 0 {
		s.closedFor--
		return errClosedDB
	}
	if s.r.Float64() >= s.rate {
		return nil
	}
	f := storeFault(1 + s.r.Intn(int(numStoreFaults)-1))
	if f == storeConflict && !save {
		f = storeLocked
	}
	s.injected[f].Add(1)
	switch f {
	case storeConflict:
		return fmt.Errorf("injected: %w", store.ErrConflict)
	case storeClosed:
		s.closedFor = 2 + s.r.Intn(4)
		return errClosedDB
	}
	return errLocked
}

func (s *faultyStore) Load(ctx context.Context, id string) (store.State, error) {
	if err := s.fault(false); err != nil {
		return store.State{}, err
	}
	return s.next.Load(ctx, id)
}

func (s *faultyStore) Save(ctx context.Context, st store.State, chainFrom int) (int64, error) {
	if err := s.fault(true); err != nil {
		return 0, err
	}
	return s.next.Save(ctx, st, chainFrom)
}

func (s *faultyStore) Version(ctx context.Context, id string) (int64, error) {
	if err := s.fault(false); err != nil {
		return 0, err
	}
	return s.next.Version(ctx, id)
}

func (s *faultyStore) History(id string) store.IncrementalHistory {
	return &faultyHistory{IncrementalHistory: s.next.History(id), s: s}
}

func (s *faultyStore) counts() map[string]int64 {
	out := map[string]int64{}
	for f := storeFault(1); f < numStoreFaults; f++ {
		out[storeFaultNames[f]] = s.injected[f].Load()
	}
	return out
}

func (s *faultyStore) total() int64 {
	var n int64
	for f := storeFault(1); f < numStoreFaults; f++ {
		n += s.injected[f].Load()
	}
	return n
}

// faultyHistory fails the writes and reads of a history with its store's faults.
type faultyHistory struct {
	store.IncrementalHistory
	s *faultyStore
}

func (h *faultyHistory) AddMessages(ctx context.Context, msgs []llms.ChatMessage) error {
	if err := h.s.fault(false); err != nil {
		return err
	}
	return h.IncrementalHistory.AddMessages(ctx, msgs)
}

func (h *faultyHistory) MessagesSince(ctx context.Context, from int) ([]llms.ChatMessage, uint64, error) {
	if err := h.s.fault(false); err != nil {
		return nil, 0, err
	}
	return h.IncrementalHistory.MessagesSince(ctx, from)
}

func (h *faultyHistory) Messages(ctx context.Context) ([]llms.ChatMessage, error) {
	if err := h.s.fault(false); err != nil {
		return nil, err
	}
	return h.IncrementalHistory.Messages(ctx)
}

// memSoakSize returns the sessions and turns of TestSoakMemory: 6 x 24 by
// default (4 x 12 with -short), 200 x 100 with -soak or COMPACT_SOAK=1;
// COMPACT_SOAK_MEMORY_SESSIONS and COMPACT_SOAK_MEMORY_TURNS override.
func memSoakSize() (int, int) {
	s, n := 6, 24
	if testing.Short() {
		s, n = 4, 12
	}
	if *soakFlag || envInt("COMPACT_SOAK", 0) == 1 {
		s, n = 200, 100
	}
	return envInt("COMPACT_SOAK_MEMORY_SESSIONS", s), envInt("COMPACT_SOAK_MEMORY_TURNS", n)
}

// TestSoakMemory runs sessions of turns through memory.Memory on one shared
// SQLite file and one shared compactor, concurrently, with store faults
// injected at random (version conflicts, a closed database for several
// calls, SQLITE_BUSY) and real conflicts: every session is driven by two
// Memory values (two processes, in effect) taking turns. A turn is retried
// until SaveContext succeeds; a failing LoadMemoryVariables must return an
// error, never a wrong context. After every turn the loaded context fits
// the budget, keeps pairs and the latest input (checkLoaded); every fifth
// turn and the last, the store holds every original in the history, in
// order, once, and the chain verifies and links (checkMemory).
// Afterwards goroutines and heap return to their baseline.
func TestSoakMemory(t *testing.T) {
	sessions, turns := memSoakSize()
	names, convs := loadTrajectories(t)
	tools, users := toolSamples(convs, names), userTexts(convs, names)
	baseG, baseHeap := leakBaseline(t)

	var saveErrs, loadErrs, loads atomic.Int64
	var fs *faultyStore
	start := time.Now()
	func() {
		db, err := sqlitestore.Open(filepath.Join(t.TempDir(), "soak.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		fs = &faultyStore{next: db, rate: 0.08, r: rand.New(rand.NewSource(7))}
		c, err := compact.New(compact.WithContextWindow(4_000))
		if err != nil {
			t.Fatal(err)
		}
		work := make(chan int)
		var wg sync.WaitGroup
		var failed atomic.Bool
		var done atomic.Int64
		progress := func() {
			if d := done.Add(1); sessions >= 100 && d%int64(sessions/10) == 0 {
				t.Logf("progress: %d of %d sessions done after %s", d, sessions, time.Since(start).Round(time.Second))
			}
		}
		for w := 0; w < 2*runtime.GOMAXPROCS(0); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for id := range work {
					if failed.Load() {
						continue
					}
					if err := memSoakSession(c, fs, id, turns, tools, users, &saveErrs, &loadErrs, &loads); err != nil {
						failed.Store(true)
						t.Errorf("session %d: %v", id, err)
					}
					progress()
				}
			}()
		}
		for i := 0; i < sessions; i++ {
			work <- i
		}
		close(work)
		wg.Wait()
	}()
	t.Logf("memory soak: %d sessions x %d turns (two Memory values per session) in %s; %d loads checked",
		sessions, turns, time.Since(start).Round(time.Millisecond), loads.Load())
	t.Logf("memory soak: %d store faults injected (%v), all survived: %d SaveContext and %d LoadMemoryVariables calls returned an error and were retried",
		fs.total(), fs.counts(), saveErrs.Load(), loadErrs.Load())
	if t.Failed() {
		return
	}
	if fs.total() == 0 || loads.Load() == 0 {
		t.Fatal("no fault injected or nothing loaded: the soak tested nothing")
	}
	msg, err := leakCheck(baseG, baseHeap, 100)
	t.Logf("leak check: %s", msg)
	if err != nil {
		t.Error(err)
	}
}

// memSoakSession runs one session: two Memory values on the same session
// id take turns.
func memSoakSession(c *compact.Compactor, fs *faultyStore, id, n int, tools []toolSample, users []string, saveErrs, loadErrs, loads *atomic.Int64) error {
	ctx := context.Background()
	sid := fmt.Sprintf("soak-%d", id)
	a := memory.New(c, memory.WithStore(fs), memory.WithSessionID(sid), memory.WithReturnMessages(true))
	b := memory.New(c, memory.WithStore(fs), memory.WithSessionID(sid), memory.WithReturnMessages(true))
	defer a.Close()
	defer b.Close()
	turns := memTurns(rand.New(rand.NewSource(int64(id))), n, tools, users)
	for i, tr := range turns {
		m := a
		if i%2 == 1 {
			m = b
		}
		for attempt := 0; ; attempt++ {
			if attempt == 50 {
				return fmt.Errorf("turn %d: SaveContext failed 50 times", i)
			}
			err := tr.save(ctx, m)
			if err == nil {
				break
			}
			saveErrs.Add(1)
		}
		var msgs []llms.ChatMessage
		for attempt := 0; ; attempt++ {
			if attempt == 50 {
				return fmt.Errorf("turn %d: LoadMemoryVariables failed 50 times", i)
			}
			v, err := m.LoadMemoryVariables(ctx, nil)
			if err == nil {
				msgs, _ = v["history"].([]llms.ChatMessage)
				break
			}
			loadErrs.Add(1)
		}
		loads.Add(1)
		// The checks read the store directly: no faults there.
		hist, err := fs.next.History(sid).Messages(ctx)
		if err != nil {
			return err
		}
		if err := checkLoaded(c, hist, turns[:i+1], msgs); err != nil {
			return fmt.Errorf("turn %d (loaded context): %w", i, err)
		}
		if i%5 == 4 || i == len(turns)-1 {
			check := memory.New(c, memory.WithStore(fs.next), memory.WithSessionID(sid))
			if err := checkMemory(ctx, c, check, turns[:i+1], nil); err != nil {
				return fmt.Errorf("turn %d (store): %w", i, err)
			}
			_ = check.Close()
		}
	}
	return nil
}

// checkLoaded checks a loaded context against the history: I1, I2, no
// system promotion, the latest input kept or visibly cut.
func checkLoaded(c *compact.Compactor, hist []llms.ChatMessage, turns []memTurn, msgs []llms.ChatMessage) error {
	hc, mc := memory.Contents(hist), memory.Contents(msgs)
	if n := c.CountTokens(mc); n > c.Budget() {
		return fmt.Errorf("I1: %d tokens, budget %d", n, c.Budget())
	}
	if err := compact.CheckToolPairs(mc); err != nil {
		return fmt.Errorf("I2: %w", err)
	}
	if err := checkSystemRoles(hc, mc); err != nil {
		return err
	}
	last := turns[len(turns)-1].input
	for _, m := range mc {
		if m.Role == llms.ChatMessageTypeHuman && (textOf(m) == last || (isCut(m) && cutFrom(textOf(m), last))) {
			return nil
		}
	}
	return errors.New("I4: the latest input is neither in the loaded context nor visibly cut")
}

package pgstore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcompact/compact/internal/pgtest"
	"github.com/agentcompact/compact/store"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// terminated is the error of a statement whose backend was terminated.
var terminated = &pgconn.PgError{Severity: "FATAL", Code: "57P01", Message: "terminating connection due to administrator command"}

// TestSendOnce: how each kind of failure of a history write is resolved.
func TestSendOnce(t *testing.T) {
	ctx := context.Background()
	rejected := &pgconn.PgError{Code: "23505", Message: "duplicate key"}
	cases := []struct {
		name      string
		errs      []error // the sends' errors, in order
		applied   []bool  // the checks' answers, in order
		checkErr  error   // the checks' error, if any
		wantErr   string  // "" for success
		wantSends int
	}{
		{name: "terminated, applied", errs: []error{terminated}, applied: []bool{true}, wantSends: 1},
		{name: "terminated, not applied", errs: []error{terminated, nil}, applied: []bool{false}, wantSends: 2},
		{name: "rejected", errs: []error{rejected}, wantErr: "23505", wantSends: 1},
		{name: "partial", errs: []error{terminated}, checkErr: errPartialBatch, wantErr: "checking whether it was applied: the write was found in part", wantSends: 1},
		{name: "always terminated", errs: repeat(terminated, 200), applied: make([]bool, 200), wantErr: "57P01", wantSends: -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// A policy of 40 ms, 1 ms apart: the always-terminated write gives
			// up after a few dozen sends, each checked.
			s := &Store{retry: RetryPolicy{MaxWait: 40 * time.Millisecond, Backoff: func(int) time.Duration { return time.Millisecond }}}
			sends, checks := 0, 0
			err := s.sendOnce(ctx, func() error {
				sends++
				return c.errs[sends-1]
			}, func() (bool, error) {
				checks++
				if c.checkErr != nil {
					return false, c.checkErr
				}
				return c.applied[checks-1], nil
			})
			if c.wantErr == "" {
				require.NoError(t, err)
			} else {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.wantErr)
			}
			if c.wantSends < 0 {
				assert.Greater(t, sends, 2, "sent again until the policy's time is spent")
				assert.Less(t, sends, 200)
			} else {
				assert.Equal(t, c.wantSends, sends)
			}
			assert.Equal(t, int64(checks), s.checked.Load(), "each ambiguous failure is checked")
		})
	}
}

func repeat(err error, n int) []error {
	out := make([]error, n)
	for i := range out {
		out[i] = err
	}
	return out
}

// TestAmbiguous: which errors leave the outcome unknown.
func TestAmbiguous(t *testing.T) {
	assert.True(t, ambiguous(terminated))
	assert.True(t, ambiguous(fmt.Errorf("exec: %w", &pgconn.PgError{Code: "08006"})))
	assert.True(t, ambiguous(fmt.Errorf("read tcp 127.0.0.1:1->127.0.0.1:5432: %w", net.ErrClosed)), "the socket closed under a transaction (seen under kills)")
	assert.True(t, ambiguous(errors.New("read tcp 127.0.0.1:36410->127.0.0.1:5432: use of closed network connection")), "as pgx words it")
	assert.False(t, ambiguous(&pgconn.PgError{Code: "23505"}), "the server rejected it: rolled back")
	assert.False(t, ambiguous(errors.New("invalid input")))
}

// killRun is how long the tests write while backends are terminated:
// about 30 rounds of terminations.
const killRun = 3 * time.Second

// storeUnderKills opens a store on a connection application name of its
// own and terminates every backend of that name every 100 ms from another
// connection, for killRun: until end. ended waits for the terminations to
// stop and returns how many backends they ended. Calls still running at end
// finish without kills, so a call fails only if the retry policy's time ran
// out during the kills, whatever the machine's load.
func storeUnderKills(t *testing.T) (s *Store, end time.Time, ended func() int64) {
	t.Helper()
	dsn := testDSN(t)
	if !strings.Contains(dsn, "://") {
		t.Skip("skipping: the test adds application_name to a URL DSN")
	}
	app := "compact_batch_" + randomPrefix(t)
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	s = newTestStoreDSN(t, dsn+sep+"application_name="+app)
	stop := pgtest.Terminate(t, dsn, app, 100*time.Millisecond)
	end = time.Now().Add(killRun)
	done := make(chan int64, 1)
	go func() {
		time.Sleep(time.Until(end))
		done <- stop()
	}()
	var n int64
	var once sync.Once
	return s, end, func() int64 {
		once.Do(func() { n = <-done })
		return n
	}
}

// TestAppendsWhileBackendsTerminated, a soak test: concurrent appends
// while another connection terminates the store's backends every 100 ms.
// It asserts only what must always hold, whatever the timing: no append
// reaches its caller as an error, none is lost, none is stored twice
// (faults_test.go injects each ambiguous case deterministically).
func TestAppendsWhileBackendsTerminated(t *testing.T) {
	s, end, ended := storeUnderKills(t)
	ctx := context.Background()
	h := s.History("conv")

	const writers = 4
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed []error
	sent := make([]int, writers) // appends per writer
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(end); i++ {
				turn := []llms.ChatMessage{
					llms.HumanChatMessage{Content: fmt.Sprintf("w%d-%d user", w, i)},
					llms.AIChatMessage{Content: fmt.Sprintf("w%d-%d reply", w, i)},
				}
				if err := h.AddMessages(ctx, turn); err != nil {
					mu.Lock()
					failed = append(failed, err)
					mu.Unlock()
				}
				sent[w] = i + 1
			}
		}()
	}
	wg.Wait()
	n := ended()
	for _, err := range failed {
		t.Errorf("an append failed: %v", err)
	}

	msgs, err := h.Messages(ctx)
	require.NoError(t, err)
	seen := map[string]int{}
	for i, m := range msgs {
		seen[m.GetContent()]++
		if i%2 == 1 { // a turn's two messages stay together
			assert.Equal(t, strings.TrimSuffix(msgs[i-1].GetContent(), " user")+" reply", m.GetContent(), "message %d", i)
		}
	}
	total := 0
	for w := range writers {
		total += sent[w]
		for i := range sent[w] {
			for _, text := range []string{fmt.Sprintf("w%d-%d user", w, i), fmt.Sprintf("w%d-%d reply", w, i)} {
				assert.Equal(t, 1, seen[text], "%q stored once", text)
			}
		}
	}
	assert.Equal(t, 2*total, len(msgs), "messages stored")
	t.Logf("%d appends, %d backends terminated, %d ambiguous failures checked by batch id", total, n, s.checked.Load())
}

// TestReplacesWhileBackendsTerminated, a soak test: SetMessages in a loop
// while the store's backends are terminated every 100 ms: no error, and
// each call bumped the epoch exactly once (none applied twice, none lost).
func TestReplacesWhileBackendsTerminated(t *testing.T) {
	s, end, ended := storeUnderKills(t)
	ctx := context.Background()
	h := s.History("conv")
	calls := 0
	for ; time.Now().Before(end); calls++ {
		err := h.SetMessages(ctx, []llms.ChatMessage{llms.HumanChatMessage{Content: fmt.Sprintf("v%d", calls)}})
		assert.NoError(t, err, "call %d", calls)
	}
	n := ended()
	msgs, epoch, err := h.MessagesSince(ctx, 0)
	require.NoError(t, err)
	require.Len(t, msgs, 1)
	assert.Equal(t, fmt.Sprintf("v%d", calls-1), msgs[0].GetContent())
	assert.Equal(t, uint64(calls)+1, epoch, "each replace started one epoch (the first, epoch 2)")
	t.Logf("%d replaces, %d backends terminated, %d ambiguous failures checked by batch id", calls, n, s.checked.Load())
}

// TestBatchMigration: a database at schema version 2 (no batch columns)
// is migrated to 3; its rows stay readable, with no batch id, and writes
// work on it.
func TestBatchMigration(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	h := s.History("conv")
	require.NoError(t, h.AddMessage(ctx, llms.HumanChatMessage{Content: "old"}))
	_, err := s.pool.Exec(ctx, fmt.Sprintf(`ALTER TABLE %s DROP COLUMN batch; ALTER TABLE %s DROP COLUMN batch; UPDATE %s SET version = 2`,
		s.t.messages, s.t.histories, s.t.schema))
	require.NoError(t, err)
	require.NoError(t, s.Migrate(ctx))
	var nulls int
	require.NoError(t, s.pool.QueryRow(ctx, `SELECT count(*) FROM `+s.t.messages+` WHERE batch IS NULL`).Scan(&nulls))
	assert.Equal(t, 1, nulls, "the older row has no batch id")
	require.NoError(t, h.AddMessage(ctx, llms.AIChatMessage{Content: "new"}))
	msgs, err := h.Messages(ctx)
	require.NoError(t, err)
	require.Len(t, msgs, 2)
	assert.Equal(t, "old", msgs[0].GetContent())
	assert.Equal(t, "new", msgs[1].GetContent())
}

// TestSavesWhileBackendsTerminated, a soak test: compare-and-swap saves,
// each after a load, and originals and leases, in a loop while the store's
// backends are terminated every 100 ms: no call fails, every save is
// stored once (the version counts the saves, the chain holds each record
// once) and every original is there.
func TestSavesWhileBackendsTerminated(t *testing.T) {
	s, end, ended := storeUnderKills(t)
	ctx := context.Background()
	saves := 0
	for ; time.Now().Before(end); saves++ {
		st, err := s.Load(ctx, "conv")
		require.NoError(t, err, "load %d", saves)
		require.Equal(t, int64(saves), st.Version, "load %d", saves)
		require.Len(t, st.Chain, saves, "load %d", saves)
		st.Chain = append(st.Chain, record(fmt.Sprintf("s%d", saves)))
		v, err := s.Save(ctx, st, saves)
		require.NoError(t, err, "save %d", saves)
		require.Equal(t, int64(saves+1), v)
		ref := fmt.Sprintf("r%d", saves)
		require.NoError(t, s.PutOriginals(ctx, "conv", []store.Original{{Ref: ref, Role: llms.ChatMessageTypeTool, Text: ref}}))
		ok, err := s.TryLease(ctx, "conv", "me", time.Minute)
		require.NoError(t, err)
		require.True(t, ok)
		require.NoError(t, s.ReleaseLease(ctx, "conv", "me"))
	}
	n := ended()
	st, err := s.Load(ctx, "conv")
	require.NoError(t, err)
	assert.Equal(t, int64(saves), st.Version)
	for i, r := range st.Chain {
		assert.Equal(t, fmt.Sprintf("s%d", i), r.ID)
	}
	for i := range saves {
		o, err := s.Original(ctx, "conv", fmt.Sprintf("r%d", i))
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("r%d", i), o.Text)
	}
	t.Logf("%d saves, %d backends terminated, %d ambiguous failures checked by batch id", saves, n, s.checked.Load())
}

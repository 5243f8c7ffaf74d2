package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcompact/compact/internal/pgtest"
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
		{name: "always terminated", errs: repeat(terminated, attempts), applied: make([]bool, attempts), wantErr: "57P01", wantSends: attempts},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &Store{}
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
			assert.Equal(t, c.wantSends, sends)
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
	assert.False(t, ambiguous(&pgconn.PgError{Code: "23505"}), "the server rejected it: rolled back")
	assert.False(t, ambiguous(errors.New("invalid input")))
}

// killRun is how long the tests write while backends are terminated:
// about 30 rounds of terminations.
const killRun = 3 * time.Second

// storeUnderKills opens a store on a connection application name of its
// own and terminates every backend of that name every 100 ms from another
// connection, until stop, which returns how many it ended.
func storeUnderKills(t *testing.T) (s *Store, stop func() int64) {
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
	return s, pgtest.Terminate(t, dsn, app, 100*time.Millisecond)
}

// TestAppendsWhileBackendsTerminated: concurrent appends while another
// connection terminates the store's backends in a loop. No append reaches
// its caller as an error, none is lost, none is stored twice; some
// failures were ambiguous and resolved by batch id.
func TestAppendsWhileBackendsTerminated(t *testing.T) {
	s, stop := storeUnderKills(t)
	ctx := context.Background()
	h := s.History("conv")

	const writers = 4
	end := time.Now().Add(killRun)
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
	n := stop()
	for _, err := range failed {
		t.Errorf("an append failed: %v", err)
	}
	require.Positive(t, n, "backends were terminated")
	require.Positive(t, s.checked.Load(), "some appends failed ambiguously and were checked")

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

// TestReplacesWhileBackendsTerminated: SetMessages in a loop while the
// store's backends are terminated: no error, and each call bumped the
// epoch exactly once (none applied twice, none lost).
func TestReplacesWhileBackendsTerminated(t *testing.T) {
	s, stop := storeUnderKills(t)
	ctx := context.Background()
	h := s.History("conv")
	calls := 0
	for end := time.Now().Add(killRun); time.Now().Before(end); calls++ {
		err := h.SetMessages(ctx, []llms.ChatMessage{llms.HumanChatMessage{Content: fmt.Sprintf("v%d", calls)}})
		assert.NoError(t, err, "call %d", calls)
	}
	n := stop()
	require.Positive(t, n, "backends were terminated")
	require.Positive(t, s.checked.Load(), "some replaces failed ambiguously and were checked")
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

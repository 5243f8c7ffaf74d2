package pgstore

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact/store"
)

// TestNoPasswordInErrors: errors of New name the server, never the DSN's
// password, whatever failed.
func TestNoPasswordInErrors(t *testing.T) {
	const pw = "Sup3r-s3cret-pw"
	u, err := url.Parse(testDSN(t))
	require.NoError(t, err)
	wrongDB := *u
	wrongDB.User = url.UserPassword("postgres", pw)
	wrongDB.Path = "/no_such_database_for_compact"
	noServer := wrongDB
	noServer.Host = "127.0.0.1:1"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, dsn := range []string{wrongDB.String(), noServer.String(), "postgres://postgres:" + pw + "@127.0.0.1:5432/test?sslmode=bogus",
		"host=127.0.0.1 port=notaport password=" + pw} {
		s, err := New(ctx, dsn)
		if s != nil {
			s.Close()
		}
		require.Error(t, err, "%s", strings.ReplaceAll(dsn, pw, "xxx"))
		assert.NotContains(t, err.Error(), pw)
		assert.Contains(t, err.Error(), "pgstore:")
		t.Logf("%v", err)
	}
}

func TestBadOptionsAndIDs(t *testing.T) {
	for _, p := range []string{"", "Compact_", "1abc", "a-b", "a b", `a"b`, "a;drop table x;", strings.Repeat("a", 41)} {
		_, err := New(context.Background(), DefaultTestDSN, WithTablePrefix(p))
		require.Error(t, err, "prefix %q", p)
		assert.Contains(t, err.Error(), "table prefix")
	}
	s := newTestStore(t)
	ctx := context.Background()
	long := strings.Repeat("x", MaxSessionIDBytes+1)
	_, err := s.Load(ctx, long)
	require.ErrorIs(t, err, ErrSessionID)
	_, err = s.Save(ctx, store.State{SessionID: long}, 0)
	require.ErrorIs(t, err, ErrSessionID)
	require.ErrorIs(t, s.History(long).AddMessage(ctx, llms.HumanChatMessage{Content: "x"}), ErrSessionID)
	for _, id := range []string{"nul\x00inside", "caf\xe9", strings.Repeat("y", MaxSessionIDBytes)} {
		require.NoError(t, s.History(id).AddMessage(ctx, llms.HumanChatMessage{Content: "hello"}), "session id %.20q is data", id)
		msgs, err := s.History(id).Messages(ctx)
		require.NoError(t, err)
		require.Len(t, msgs, 1)
	}
}

// TestMigrateConcurrently: replicas starting at once on an empty database
// migrate it once; New and Migrate are idempotent.
func TestMigrateConcurrently(t *testing.T) {
	dsn := testDSN(t)
	prefix := randomPrefix(t)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	stores := make([]*Store, 6)
	for i := range stores {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			stores[i], errs[i] = New(context.Background(), dsn, WithTablePrefix(prefix), WithMaxConns(2))
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "replica %d", i)
	}
	defer func() {
		require.NoError(t, stores[0].dropAll(context.Background()))
		for _, s := range stores {
			s.Close()
		}
	}()
	require.NoError(t, stores[0].Migrate(context.Background()))
	var v int
	require.NoError(t, stores[0].pool.QueryRow(context.Background(), `SELECT version FROM `+stores[0].t.schema).Scan(&v))
	assert.Equal(t, SchemaVersion, v)
	_, err := stores[0].pool.Exec(context.Background(), `UPDATE `+stores[0].t.schema+` SET version = 99`)
	require.NoError(t, err)
	err = stores[1].Migrate(context.Background())
	require.Error(t, err, "a newer schema is refused")
	assert.Contains(t, err.Error(), "schema version 99")
	_, err = stores[0].pool.Exec(context.Background(), `UPDATE `+stores[0].t.schema+` SET version = $1`, SchemaVersion)
	require.NoError(t, err)
}

// TestConnectionsDropped: the server terminates the pool's connections
// between calls; the next calls succeed (the retry policy rides out the
// dead connections the pool still holds) and nothing is lost.
func TestConnectionsDropped(t *testing.T) {
	dsn := testDSN(t)
	app := "compact_drop_" + randomPrefix(t)
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	if !strings.Contains(dsn, "://") {
		t.Skip("the test adds application_name to a URL DSN")
	}
	s := newTestStoreDSN(t, dsn+sep+"application_name="+app)
	ctx := context.Background()
	h := s.History("conv")
	require.NoError(t, h.AddMessage(ctx, llms.HumanChatMessage{Content: "before"}))
	_, err := s.Save(ctx, store.State{SessionID: "conv"}, 0)
	require.NoError(t, err)

	admin, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer admin.Close(ctx)
	var killed int
	require.NoError(t, admin.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&killed))
	require.Positive(t, killed, "the pool's connections were terminated")

	v, err := s.Version(ctx, "conv")
	require.NoError(t, err, "a read after the connections were terminated")
	assert.Equal(t, int64(1), v)
	require.NoError(t, h.AddMessage(ctx, llms.HumanChatMessage{Content: "after"}))
	msgs, err := h.Messages(ctx)
	require.NoError(t, err)
	require.Len(t, msgs, 2, "nothing lost")
}

// newTestStoreDSN is newTestStore on a given DSN.
func newTestStoreDSN(t *testing.T, dsn string) *Store {
	t.Helper()
	s, err := New(context.Background(), dsn, WithTablePrefix(randomPrefix(t)))
	require.NoError(t, err)
	t.Cleanup(func() {
		assert.NoError(t, s.dropAll(context.Background()))
		s.Close()
	})
	return s
}

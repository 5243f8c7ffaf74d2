package reliability

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/pgtest"
	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/pgstore"
	"github.com/agentcompact/compact/summary"
)

// The replica tests run several replicas (each its own pgstore pool and
// adapter) on one conversation through PostgreSQL. They skip, saying so,
// when no server answers at COMPACT_POSTGRES_DSN (see internal/pgtest).
func replicaDSN(t testing.TB) string { return pgtest.DSN(t, nil) }

// withAppName returns dsn with application_name set, so that a test can
// terminate its own backends only.
func withAppName(t testing.TB, dsn, name string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	require.NoError(t, err, "COMPACT_POSTGRES_DSN must be a URL for the replica tests")
	q := u.Query()
	q.Set("application_name", name)
	u.RawQuery = q.Encode()
	return u.String()
}

// randomName returns a fresh lower-case name with prefix p.
func randomName(t testing.TB, p string) string {
	t.Helper()
	var b [5]byte
	_, err := rand.Read(b[:])
	require.NoError(t, err)
	return p + hex.EncodeToString(b[:])
}

// replicaStores opens n stores on the tables of prefix, the first one
// migrating them; the tables are dropped when the test ends.
func replicaStores(t testing.TB, dsn, prefix string, n int) []*pgstore.Store {
	t.Helper()
	ctx := context.Background()
	out := make([]*pgstore.Store, n)
	for i := range out {
		s, err := pgstore.New(ctx, dsn, pgstore.WithTablePrefix(prefix), pgstore.WithMaxConns(4))
		require.NoError(t, err)
		out[i] = s
	}
	t.Cleanup(func() {
		for _, s := range out {
			s.Close()
		}
		dropPrefix(t, dsn, prefix)
	})
	return out
}

// dropPrefix drops the tables whose names start with prefix.
func dropPrefix(t testing.TB, dsn, prefix string) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Logf("drop the tables of %s: %v", prefix, err)
		return
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND starts_with(tablename, $1)", prefix)
	if err != nil {
		t.Logf("list the tables of %s: %v", prefix, err)
		return
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Logf("list the tables of %s: %v", prefix, err)
		return
	}
	for _, n := range names {
		if _, err := conn.Exec(ctx, "DROP TABLE IF EXISTS "+pgx.Identifier{n}.Sanitize()+" CASCADE"); err != nil {
			t.Logf("drop %s: %v", n, err)
		}
	}
}

// Turn texts: each unique, so that a lost or repeated turn shows.
func replicaUser(i int) string {
	return fmt.Sprintf("U%04d: please read module m%d and tell me what function f%d does", i, i, i)
}

func replicaAnswer(i int) string {
	return fmt.Sprintf("A%04d: function f%d %s", i, i, strings.Repeat("reads the config, validates it and returns the parsed value; ", 6))
}

func replicaToolOutput(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "TOOLOUT-%04d\n", i)
	for k := range 30 {
		fmt.Fprintf(&b, "%d: func f%d_%d(x int) int { return x*%d + %d } // m%d.go\n", k+1, i, k, k, i, i)
	}
	return b.String()
}

// countingSummarizer is the rule-based digest marked as a model's
// (summary.ModeLLM), after a model's latency, counting its calls; each
// record it writes is therefore one summarizer call. onCall, when set,
// runs first.
type countingSummarizer struct {
	calls  atomic.Int64
	delay  time.Duration
	rule   compact.Summarizer
	onCall func(ctx context.Context) error
}

func newCountingSummarizer(delay time.Duration) *countingSummarizer {
	return &countingSummarizer{delay: delay, rule: compact.RuleSummarizer(nil)}
}

func (c *countingSummarizer) Summarize(ctx context.Context, req summary.Request) (summary.Record, error) {
	c.calls.Add(1)
	if c.onCall != nil {
		if err := c.onCall(ctx); err != nil {
			return summary.Record{}, err
		}
	}
	select {
	case <-time.After(c.delay):
	case <-ctx.Done():
		return summary.Record{}, ctx.Err()
	}
	r, err := c.rule.Summarize(ctx, req)
	r.Mode = summary.ModeLLM
	return r, err
}

// replicaCompactor is the replicas' engine: a small window, so that a
// few hundred turns compact many times.
func replicaCompactor(t testing.TB, sum compact.Summarizer) *compact.Compactor {
	t.Helper()
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(4000), compact.WithReservedOutput(400),
		compact.WithCustomSummarizer(sum))
	require.NoError(t, err)
	return c
}

// checkStraightChain checks that every record's parent is the record
// before it, that no message is summarized twice, and that the records
// written by the summarizer number its calls (none wasted, none repeated);
// with faults (a save whose connection was terminated loses the call it
// stored) only that every record was one call.
func checkStraightChain(t testing.TB, chain []store.Record, calls int64, faults bool) {
	t.Helper()
	seen := map[string]int{}
	llm := int64(0)
	for k, r := range chain {
		want := ""
		if k > 0 {
			want = chain[k-1].ID
		}
		require.Equal(t, want, r.ParentID, "record %d's parent is the record before it", k)
		for _, id := range r.OriginalMessageIDs {
			p, dup := seen[id]
			require.False(t, dup, "message %s summarized by records %d and %d", id, p, k)
			seen[id] = k
		}
		if r.Mode == summary.ModeLLM {
			llm++
		}
	}
	modes := make([]string, len(chain))
	for k, r := range chain {
		modes[k] = r.Mode
	}
	if faults {
		require.GreaterOrEqual(t, calls, llm, "each summarized record was a summarizer call")
		return
	}
	require.Equal(t, calls, llm, "one summarizer call per summarized record (record modes %v)", modes)
}

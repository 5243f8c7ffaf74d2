package pgtest

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Terminate ends, every period, the backends of the server at dsn whose
// application_name is app (not its own), from a connection of its own, as
// an operator's pg_terminate_backend would, until the returned stop is
// called; stop waits for the loop to end and returns how many backends it
// ended. It fails t when it cannot connect.
func Terminate(t testing.TB, dsn, app string, every time.Duration) (stop func() int64) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		cancel()
		t.Fatalf("pgtest: connect the terminator: %v", err)
	}
	var ended atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer conn.Close(context.Background())
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			var n int64
			err := conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
				WHERE application_name = $1 AND pid <> pg_backend_pid()`, app).Scan(&n)
			if err == nil {
				ended.Add(n)
			}
		}
	}()
	return func() int64 { cancel(); <-done; return ended.Load() }
}

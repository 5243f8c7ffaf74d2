package pgstore

import (
	"context"

	"github.com/jackc/pgx/v5/pgconn"
)

// appendAttempts bounds how often a history append is sent again after
// its connection failed without running it.
const appendAttempts = 4

// notRun reports whether err shows that the statement did not run, so that
// sending it again cannot apply it twice: pgx sent nothing
// (pgconn.SafeToRetry: a connection found dead before the statement was
// written). A backend terminated while the statement ran (SQLSTATE 57P01)
// is not retried: with the extended protocol the transaction commits at
// Sync, and the backend may have committed before it ended.
func notRun(err error) bool { return pgconn.SafeToRetry(err) }

// onceEach runs f, again (up to appendAttempts in all) while it fails in a
// way that shows it did not run and ctx is live.
func onceEach(ctx context.Context, f func() error) error {
	var err error
	for range appendAttempts {
		if err = f(); err == nil || !notRun(err) || ctx.Err() != nil {
			return err
		}
	}
	return err
}

package pgstore

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/agentcompact/compact/internal/ctxsleep"
	"github.com/jackc/pgx/v5/pgconn"
)

// attempts bounds the sends of one statement: with pause between them,
// about two seconds of connections ended as soon as they are made (a pool
// hands out the idle connections a server restart or a
// pg_terminate_backend ended, one a try, before it makes new ones).
const attempts = 10

// pause waits before send number attempt (from 1): 5 ms doubling up to
// 320 ms, with up to half of it again as jitter, so that replicas whose
// connections were ended at once do not all come back at once. It reports
// false when ctx ends first.
func pause(ctx context.Context, attempt int) bool {
	d := 5 * time.Millisecond << min(attempt-1, 6)
	d += rand.N(d/2 + 1)
	return ctxsleep.Sleep(ctx, d) == nil
}

// notRun reports whether err shows that the statement did not run, so that
// sending it again cannot apply it twice: pgx sent nothing
// (pgconn.SafeToRetry: a connection found dead before the statement was
// written). A backend terminated while the statement ran (SQLSTATE 57P01)
// is ambiguous: with the extended protocol the transaction commits at
// Sync, and the backend may have committed before it ended; a history
// write resolves that by its batch id (batch.go).
func notRun(err error) bool { return pgconn.SafeToRetry(err) }

// sendAgain runs f, again (up to attempts in all, a growing pause apart)
// while its error is one that may be sent again and ctx is live.
func sendAgain(ctx context.Context, again func(error) bool, f func() error) error {
	var err error
	for attempt := range attempts {
		if attempt > 0 && !pause(ctx, attempt) {
			return err
		}
		if err = f(); err == nil || !again(err) || ctx.Err() != nil {
			return err
		}
	}
	return err
}

// connLost reports whether err is the loss of the connection a statement
// ran on (its backend terminated, the server restarting, the network): a
// read can then be sent again on another connection.
func connLost(err error) bool {
	if pgconn.SafeToRetry(err) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	var ce *pgconn.ConnectError
	return errors.As(err, &ce) || strings.Contains(err.Error(), "conn closed") || strings.Contains(err.Error(), "unexpected EOF")
}

// readAgain runs the read f, again (up to attempts in all, a growing
// pause apart) while its connection was lost and ctx is live: a read
// applies nothing, so it is always safe to send again.
func readAgain(ctx context.Context, f func() error) error { return sendAgain(ctx, connLost, f) }

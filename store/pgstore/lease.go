package pgstore

import (
	"context"
	"fmt"
	"time"

	"github.com/agentcompact/compact/internal/idtext"
	"github.com/jackc/pgx/v5/pgconn"
)

// TryLease implements store.Leaser with a lease row per session, timed by
// the server's clock (clock_timestamp()), so the replicas' clocks need not
// agree: one statement, which takes a free or expired lease, or extends
// holder's own.
func (s *Store) TryLease(ctx context.Context, sessionID, holder string, ttl time.Duration) (bool, error) {
	op := fmt.Sprintf("lease session %s for %s", idtext.Quote(sessionID), idtext.Quote(holder))
	if holder == "" || ttl <= 0 {
		return false, s.fail(ctx, op, fmt.Errorf("a lease needs a holder and a positive ttl, got ttl %v", ttl))
	}
	k, err := key(sessionID)
	if err != nil {
		return false, s.fail(ctx, op, err)
	}
	// Sent again while the connection is lost: a lease this holder took
	// before the loss is extended by the retry, so the answer is the same.
	var ct pgconn.CommandTag
	err = s.readAgain(ctx, func() (err error) {
		ct, err = s.pool.Exec(ctx, fmt.Sprintf(`INSERT INTO %[1]s AS l (session_key, holder, expires_at)
		VALUES ($1, $2, clock_timestamp() + $3 * interval '1 microsecond')
		ON CONFLICT (session_key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
		WHERE l.holder = excluded.holder OR l.expires_at <= clock_timestamp()`, s.t.leases),
			k, []byte(holder), ttl.Microseconds())
		return err
	})
	if err != nil {
		return false, s.fail(ctx, op, err)
	}
	return ct.RowsAffected() == 1, nil
}

// ReleaseLease implements store.Leaser: one statement.
func (s *Store) ReleaseLease(ctx context.Context, sessionID, holder string) error {
	op := fmt.Sprintf("release the lease of session %s", idtext.Quote(sessionID))
	k, err := key(sessionID)
	if err != nil {
		return s.fail(ctx, op, err)
	}
	err = s.readAgain(ctx, func() error { // a delete: sending it again is safe
		_, err := s.pool.Exec(ctx, fmt.Sprintf(`DELETE FROM %s WHERE session_key = $1 AND holder = $2`, s.t.leases), k, []byte(holder))
		return err
	})
	if err != nil {
		return s.fail(ctx, op, err)
	}
	return nil
}

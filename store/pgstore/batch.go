package pgstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
)

// batchMigration (schema version 3) gives every history write an id of its
// own, so that a write whose outcome a lost connection hides can be
// checked: the messages of an append carry its batch id, and a replace
// (Clear, SetMessages) records its batch id on the session's history row.
// Both columns are nullable: rows written before version 3 have none, and
// stay valid.
const batchMigration = `ALTER TABLE %[1]smessages ADD COLUMN IF NOT EXISTS batch bytea;
	ALTER TABLE %[1]shistories ADD COLUMN IF NOT EXISTS batch bytea;`

// errPartialBatch reports a batch found in part: a history write is one
// statement, so this means the rows were changed by something else.
var errPartialBatch = errors.New("the write was found in part")

// newBatchID returns a random id for one history write.
func newBatchID() ([]byte, error) {
	u, err := uuid.NewRandom() // crypto/rand
	if err != nil {
		return nil, fmt.Errorf("a batch id: %w", err)
	}
	return u[:], nil
}

// ambiguous reports whether err leaves unknown whether the statement was
// applied: the connection was lost after the statement was written (its
// backend terminated, SQLSTATE 57P01; the server restarting; the network).
// An error the server returned for the statement itself is not ambiguous
// (the statement was rolled back), nor is one pgx raised before sending
// anything (notRun).
func ambiguous(err error) bool { return !notRun(err) && connLost(err) }

// sendOnce runs the write send until it is known to be applied exactly
// once, again under the store's [RetryPolicy]. A send that shows it never
// ran is sent again. After an ambiguous failure, applied (a read, retried
// while its connection is lost) tells whether the batch is there: then the
// write succeeded; if not, it is sent again with the same batch id. Any
// other error, a dead ctx, a spent policy or a failed check is returned.
func (s *Store) sendOnce(ctx context.Context, send func() error, applied func() (bool, error)) error {
	r := s.newRetrier()
	for {
		r.attempt++
		err := send()
		switch {
		case err == nil:
			return nil
		case ctx.Err() != nil:
			return err
		case notRun(err):
		case !ambiguous(err):
			return err
		default:
			s.checked.Add(1)
			var there bool
			cerr := s.readAgain(ctx, func() (cerr error) {
				there, cerr = applied()
				return cerr
			})
			if cerr != nil {
				return fmt.Errorf("%w; checking whether it was applied: %w", err, cerr)
			}
			if there {
				return nil
			}
		}
		if !r.again(ctx) {
			return err
		}
	}
}

// appendApplied reports whether the n messages of append batch id are in
// the session's history: all of them (true), none (false), or an
// errPartialBatch.
func (h *History) appendApplied(ctx context.Context, k, id []byte, n int) (bool, error) {
	var found int
	err := h.s.pool.QueryRow(ctx, fmt.Sprintf(`SELECT count(*) FROM %s WHERE session_key = $1 AND batch = $2`,
		h.s.t.messages), k, id).Scan(&found)
	switch {
	case err != nil:
		return false, err
	case found == n:
		return true, nil
	case found == 0:
		return false, nil
	}
	return false, fmt.Errorf("%w: %d of %d messages", errPartialBatch, found, n)
}

// replaceApplied reports whether the session's history was last replaced
// by batch id.
func (h *History) replaceApplied(ctx context.Context, k, id []byte) (bool, error) {
	var last []byte
	err := h.s.pool.QueryRow(ctx, fmt.Sprintf(`SELECT coalesce((SELECT batch FROM %s WHERE session_key = $1), '')`,
		h.s.t.histories), k).Scan(&last)
	if err != nil {
		return false, err
	}
	return bytes.Equal(last, id), nil
}

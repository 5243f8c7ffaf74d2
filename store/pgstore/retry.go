package pgstore

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/agentcompact/compact/internal/ctxsleep"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// RetryPolicy is how long and how often the store sends a statement again
// when its connection was lost: a backend terminated (SQLSTATE 57P01,
// 57P02, 57P03), a class 08 error, a closed socket, a pool that could not
// connect. Every call of the store follows it: reads, history writes,
// saves, originals and leases. A statement the server rejected is never
// sent again. The zero value of a field means its default.
type RetryPolicy struct {
	// MaxWait bounds the time one call keeps sending again, from its first
	// failure: past it the call returns the last error. The caller's
	// context bounds it too. Default [DefaultRetryMaxWait].
	MaxWait time.Duration
	// Backoff returns the pause before send number attempt (from 2).
	// Default [DefaultBackoff].
	Backoff func(attempt int) time.Duration
}

// DefaultRetryMaxWait is the default [RetryPolicy.MaxWait]: long enough to
// ride out a server restart or an operator terminating the pool's
// backends over and over (the pool hands out, one a try, the idle
// connections that were ended before it makes new ones).
const DefaultRetryMaxWait = 30 * time.Second

// DefaultBackoff is the default [RetryPolicy.Backoff]: 5 ms doubling up to
// 250 ms, with up to half of it again as jitter, so that replicas whose
// connections were ended at once do not all come back at once.
func DefaultBackoff(attempt int) time.Duration {
	d := min(5*time.Millisecond<<min(max(attempt-2, 0), 6), 250*time.Millisecond)
	return d + rand.N(d/2+1)
}

// WithRetry sets the store's [RetryPolicy]. Default: [DefaultRetryMaxWait]
// and [DefaultBackoff].
func WithRetry(p RetryPolicy) Option { return func(o *options) { o.retry = p } }

// withDefaults returns p with its zero fields set to their defaults.
func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxWait <= 0 {
		p.MaxWait = DefaultRetryMaxWait
	}
	if p.Backoff == nil {
		p.Backoff = DefaultBackoff
	}
	return p
}

// retrier runs a statement again under a policy for one call.
type retrier struct {
	p        RetryPolicy
	pool     *pgxpool.Pool // pruned before each new send; nil in unit tests
	deadline time.Time     // zero until the first failure
	attempt  int           // sends so far
}

// newRetrier returns the retrier of one call of s.
func (s *Store) newRetrier() *retrier { return &retrier{p: s.retry.withDefaults(), pool: s.pool} }

// again reports, after a failed send, whether to send once more: the
// policy's time is not spent and ctx is live, after the policy's pause
// and a check of the pool's idle connections.
func (r *retrier) again(ctx context.Context) bool {
	now := time.Now()
	if r.deadline.IsZero() {
		r.deadline = now.Add(r.p.MaxWait)
	}
	if ctx.Err() != nil || !now.Before(r.deadline) {
		return false
	}
	d := min(r.p.Backoff(r.attempt+1), r.deadline.Sub(now))
	if ctxsleep.Sleep(ctx, d) != nil {
		return false
	}
	pruneIdle(ctx, r.pool)
	return true
}

// pruneIdle pings the idle connections of pool and closes those that do
// not answer. An outage that ended one connection (a server restart, an
// operator terminating backends) has usually ended the idle ones too, and
// the pool would hand them out one a send, each failing at once; a pause
// longer than the outage's period would then meet a dead connection on
// every send. Only retries pay for it: one round trip per idle connection.
func pruneIdle(ctx context.Context, pool *pgxpool.Pool) {
	if pool == nil {
		return
	}
	for _, c := range pool.AcquireAllIdle(ctx) {
		if err := c.Ping(ctx); err != nil {
			_ = c.Conn().Close(ctx) // released closed: the pool destroys it
		}
		c.Release()
	}
}

// notRun reports whether err shows that the statement did not run, so that
// sending it again cannot apply it twice: pgx sent nothing
// (pgconn.SafeToRetry: a connection found dead before the statement was
// written, or one that could not be made). A backend terminated while the
// statement ran (SQLSTATE 57P01) is ambiguous: with the extended protocol
// the transaction commits at Sync, and the backend may have committed
// before it ended; a write resolves that by its batch id (batch.go).
func notRun(err error) bool { return pgconn.SafeToRetry(err) }

// connLost reports whether err is the loss of the connection a statement
// ran on (its backend terminated, the server restarting, the network) or
// the failure to get one: a read can then be sent again on another
// connection.
func connLost(err error) bool {
	if pgconn.SafeToRetry(err) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) || errors.Is(err, net.ErrClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "conn closed") || strings.Contains(msg, "unexpected EOF") ||
		strings.Contains(msg, "connection reset") || strings.Contains(msg, "broken pipe") ||
		strings.Contains(msg, "failed to connect") || strings.Contains(msg, "use of closed network connection")
}

// sendAgain runs f, again under the store's policy while its error is
// one that may be sent again and ctx is live.
func (s *Store) sendAgain(ctx context.Context, may func(error) bool, f func() error) error {
	r := s.newRetrier()
	for {
		r.attempt++
		err := f()
		if err == nil || !may(err) || !r.again(ctx) {
			return err
		}
	}
}

// readAgain runs f, again under the store's policy while its connection
// was lost and ctx is live. f must be safe to run twice: a read, or a
// write that is idempotent (a retried lease, an insert that keeps the
// first row).
func (s *Store) readAgain(ctx context.Context, f func() error) error {
	return s.sendAgain(ctx, connLost, f)
}

package conversation

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/agentcompact/compact/internal/ctxsleep"
)

// Backoff is the retry policy of a [Replica]: how often a turn is tried
// and how long it waits between tries. One count bounds every retry of a
// turn: a version conflict (another replica saved first), a failed store
// read or write (a terminated connection, a failover), alike.
//
// The wait before try k (k >= 1) is drawn uniformly from
// [0, min(Max, Base * 2^(k-1))) ("full jitter"), so that replicas which
// collided do not collide again in step.
type Backoff struct {
	// Attempts is how many times a turn is tried in all. Default
	// [DefaultAttempts].
	Attempts int
	// Base is the first wait's bound. Default [DefaultBackoffBase].
	Base time.Duration
	// Max caps every wait. Default [DefaultBackoffMax].
	Max time.Duration
	// Rand returns a number in [0, 1); default math/rand/v2's Float64. Tests
	// inject a fixed sequence.
	Rand func() float64
}

// Defaults of [Backoff].
const (
	// DefaultAttempts is the default of [Backoff].Attempts: enough for eight
	// replicas compacting one conversation at once.
	DefaultAttempts = 12
	// DefaultBackoffBase is the default of [Backoff].Base.
	DefaultBackoffBase = 5 * time.Millisecond
	// DefaultBackoffMax is the default of [Backoff].Max.
	DefaultBackoffMax = 500 * time.Millisecond
)

func (b Backoff) orDefaults() Backoff {
	if b.Attempts <= 0 {
		b.Attempts = DefaultAttempts
	}
	if b.Base <= 0 {
		b.Base = DefaultBackoffBase
	}
	if b.Max <= 0 {
		b.Max = DefaultBackoffMax
	}
	if b.Max < b.Base {
		b.Max = b.Base
	}
	if b.Rand == nil {
		b.Rand = rand.Float64
	}
	return b
}

// Delay returns the wait before try k (k >= 1; 0 for k < 1) with the
// defaults filled in.
func (b Backoff) Delay(k int) time.Duration {
	if k < 1 {
		return 0
	}
	b = b.orDefaults()
	bound := b.Base
	for i := 1; i < k && bound < b.Max; i++ {
		bound *= 2
	}
	bound = min(bound, b.Max)
	f := b.Rand()
	if f < 0 || f >= 1 {
		f = 0
	}
	return time.Duration(f * float64(bound))
}

// retry calls f until it succeeds, ctx is done, or b's attempts are spent;
// an error of f wrapping a context error is returned at once (the caller's
// deadline, not the store, ended it). It returns f's last error.
func retry(ctx context.Context, b Backoff, f func() error) error {
	b = b.orDefaults()
	var err error
	for k := range b.Attempts {
		if werr := ctxsleep.Sleep(ctx, b.Delay(k)); werr != nil {
			if err == nil {
				err = werr
			}
			return err
		}
		if err = f(); err == nil || isContextErr(ctx, err) {
			return err
		}
	}
	return err
}

// isContextErr reports whether err comes from ctx ending.
func isContextErr(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

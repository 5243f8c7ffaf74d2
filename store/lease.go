package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/agentcompact/compact/internal/idtext"
)

// Leaser is implemented by stores that let processes take turns compacting
// one session, so that a compaction runs the summarizer once across replicas
// (middleware.WithStore and memory.WithStore use it when the store has it).
//
// A lease on a session is held by one holder (an opaque id, unique per
// process or per adapter instance) until it expires or is released. A
// holder that dies holding a lease blocks the others only until its expiry.
// Times are the store's: a database store uses its server's clock, so the
// replicas' clocks need not agree.
//
// Concurrency: safe for concurrent use; of two holders trying at once, at
// most one gets the lease. Every method honours its context's cancellation
// and returns an error wrapping it.
type Leaser interface {
	// TryLease takes the lease on sessionID for holder until ttl from now,
	// or extends it when holder already has it. It returns false, with no
	// error, when another holder's lease has not expired. ttl must be
	// positive.
	TryLease(ctx context.Context, sessionID, holder string, ttl time.Duration) (bool, error)
	// ReleaseLease gives up holder's lease on sessionID. Releasing a lease
	// that holder does not have (expired, taken over, never taken) does
	// nothing and is no error.
	ReleaseLease(ctx context.Context, sessionID, holder string) error
}

// Defaults of [LeaseTiming].
const (
	// DefaultLeaseTTL is how long a compaction lease lasts: longer than a
	// summarizer call with its retry; a replica that dies holding one
	// blocks the others for at most this long.
	DefaultLeaseTTL = 30 * time.Second
	// DefaultLeaseWait is how long a replica that finds the lease held
	// waits for the holder's state before compacting rule-based.
	DefaultLeaseWait = 10 * time.Second
	// LeasePoll is how often a replica waiting for another's compaction
	// looks for its state.
	LeasePoll = 100 * time.Millisecond
)

// LeaseTiming sets the compaction lease of the adapters (see
// conversation.NewSummarizeGate); zero fields take the defaults.
type LeaseTiming struct {
	// TTL is the lease's duration. Default [DefaultLeaseTTL].
	TTL time.Duration
	// Wait bounds how long a replica waits for another's compaction.
	// Default [DefaultLeaseWait].
	Wait time.Duration
}

// NewHolderID returns a lease holder id unique to this process and call:
// host name, process id and 48 random bits.
func NewHolderID() string {
	host, _ := os.Hostname()
	var b [6]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%.64s/%d/%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// lease is one session's lease in [Memory].
type lease struct {
	holder string
	until  time.Time
}

var _ Leaser = (*Memory)(nil)

// errLeaseArgs reports a lease call without a holder or with a ttl <= 0.
var errLeaseArgs = errors.New("store: a lease needs a holder and a positive ttl")

// TryLease implements [Leaser] with the process's clock.
func (s *Memory) TryLease(ctx context.Context, sessionID, holder string, ttl time.Duration) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("store: lease session %s: %w", idtext.Quote(sessionID), err)
	}
	if holder == "" || ttl <= 0 {
		return false, fmt.Errorf("store: lease session %s for %s, ttl %v: %w", idtext.Quote(sessionID), idtext.Quote(holder), ttl, errLeaseArgs)
	}
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	cur, ok := s.leases[sessionID]
	if ok && cur.holder != holder && now.Before(cur.until) {
		return false, nil
	}
	if s.leases == nil {
		s.leases = map[string]lease{}
	}
	s.leases[sessionID] = lease{holder: holder, until: now.Add(ttl)}
	return true, nil
}

// ReleaseLease implements [Leaser].
func (s *Memory) ReleaseLease(ctx context.Context, sessionID, holder string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store: release lease of session %s: %w", idtext.Quote(sessionID), err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.leases[sessionID]; ok && cur.holder == holder {
		delete(s.leases, sessionID)
	}
	return nil
}

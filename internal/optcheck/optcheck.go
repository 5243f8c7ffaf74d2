// Package optcheck holds the range checks of the options that package
// memory and package middleware share (the lease timing and the backoff of
// a conversation in a store), so that both report them in the same words.
package optcheck

import (
	"fmt"
	"time"

	"github.com/agentcompact/compact/conversation"
)

// Lease returns why a lease timing (WithLeaseTiming) is out of its range,
// or "": a negative ttl or wait (0 keeps the default).
func Lease(ttl, wait time.Duration) string {
	if ttl < 0 || wait < 0 {
		return fmt.Sprintf("ttl %v and wait %v must be >= 0", ttl, wait)
	}
	return ""
}

// Backoff returns why a backoff (WithBackoff) is out of its range, or "":
// a negative field (0 keeps the default).
func Backoff(b conversation.Backoff) string {
	if b.Attempts < 0 || b.Base < 0 || b.Max < 0 {
		return fmt.Sprintf("attempts %d, base %v and max %v must be >= 0", b.Attempts, b.Base, b.Max)
	}
	return ""
}

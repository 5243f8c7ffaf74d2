package memory

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// ErrIntegrity reports that the history no longer holds the originals a
// summary record covers (a position beyond its end, or a SHA-256 mismatch).
var ErrIntegrity = errors.New("memory: history does not match the summary chain")

// HashMessages returns the hex SHA-256 of the canonical encoding of msgs:
// for each message in order, the length of its [store.MarshalMessage]
// encoding as 8 little-endian bytes, then the encoding. It is the integrity
// hash of [store.Record].SHA256. A nil message is an error.
func HashMessages(msgs []llms.ChatMessage) (string, error) {
	h := sha256.New()
	var n [8]byte
	for i, m := range msgs {
		b, err := store.MarshalMessage(m)
		if err != nil {
			return "", fmt.Errorf("memory: hash message %d: %w", i, err)
		}
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// verifyRecord checks r against a history of n messages, at(i) being the
// message at position i.
func verifyRecord(r store.Record, n int, at func(int) llms.ChatMessage) error {
	sel := make([]llms.ChatMessage, 0, len(r.Positions))
	prev := -1
	for _, p := range r.Positions {
		if p <= prev || p >= n {
			return fmt.Errorf("%w: summary %s: position %d outside the history of %d messages or out of order",
				ErrIntegrity, r.ID, p, n)
		}
		prev = p
		sel = append(sel, at(p))
	}
	sum, err := HashMessages(sel)
	if err != nil {
		return fmt.Errorf("%w: summary %s: %w", ErrIntegrity, r.ID, err)
	}
	if sum != r.SHA256 {
		return fmt.Errorf("%w: summary %s: sha256 %s, recorded %s", ErrIntegrity, r.ID, sum, r.SHA256)
	}
	return nil
}

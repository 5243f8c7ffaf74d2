package idtext

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"unicode/utf8"
)

// MaxQuoted is the longest id, in bytes, that Quote quotes whole.
const MaxQuoted = 64

// prefixBytes is how much of a longer id Quote shows.
const prefixBytes = 32

// Quote returns id quoted as by strconv.Quote when it is at most
// MaxQuoted bytes long; else its first 32 bytes (cut at a rune boundary),
// quoted, followed by "…" with the id's length and the first 12 hex digits
// of its SHA-256: `"aaaa…"…(1048576 bytes, sha256 1f2e3d4c5b6a)`. The
// result is at most about 150 bytes whatever the id, and two different ids
// of the same prefix quote differently.
func Quote(id string) string {
	if len(id) <= MaxQuoted {
		return strconv.Quote(id)
	}
	cut := prefixBytes
	for cut > 0 && !utf8.RuneStart(id[cut]) {
		cut--
	}
	sum := sha256.Sum256([]byte(id))
	return strconv.Quote(id[:cut]+"…") + "(" + strconv.Itoa(len(id)) + " bytes, sha256 " + hex.EncodeToString(sum[:6]) + ")"
}

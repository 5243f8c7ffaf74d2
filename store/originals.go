package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/internal/refid"
	"github.com/tmc/langchaingo/llms"
)

// ErrNotFound reports that a store holds nothing under the key asked for
// (an original's ref). Errors wrap it; test with errors.Is.
var ErrNotFound = errors.New("store: not found")

// Original is the original of something a compaction masked, cut or
// summarized, as the agent saw it, kept so that the recall tool can bring it
// back by its ref or find it by its text.
type Original struct {
	// Ref is the id the compaction's marker shows ("ref:ID"), unique within
	// its session; it matches [A-Za-z0-9_.-]+ (see [ValidRef]).
	Ref string `json:"ref"`
	// MessageID is the id of the original message (compact.MessageIDs).
	MessageID string `json:"messageId,omitempty"`
	// Role is the original message's role.
	Role llms.ChatMessageType `json:"role"`
	// Name is the tool's name for a tool call or result; may be empty.
	Name string `json:"name,omitempty"`
	// Text is the original as the agent saw it.
	Text string `json:"text"`
}

// OriginalStore keeps the originals of sessions for recall: by ref, and by
// a search of their text.
//
// Concurrency: implementations are safe for concurrent use by multiple
// goroutines (and, in a database, by processes). Of concurrent puts of one
// ref exactly one text is kept, and every reader sees that one.
//
// Crash semantics: PutOriginals is atomic: all the new originals of one
// call are stored or none is; a process killed during one leaves the store
// as it was before it.
//
// Every method takes a context and honours its cancellation: a context
// cancelled before or during the call makes it return an error wrapping the
// context's error, and a PutOriginals that returns such an error has stored
// nothing. The originals of one session are never visible through another
// session id. Implementations are checked by storetest.RunOriginals (and by
// storetest.Run for a [Store] that also implements OriginalStore).
type OriginalStore interface {
	// PutOriginals stores originals in the session, in order, after those
	// already stored. It is idempotent per (session, ref): an original
	// whose ref is already stored (earlier, or earlier in originals) is
	// skipped, so a ref keeps its first text. A ref that does not match
	// [A-Za-z0-9_.-]+ is an error, and then nothing of the call is stored.
	// No originals is a no-op. originals is not retained.
	PutOriginals(ctx context.Context, sessionID string, originals []Original) error
	// Original returns the session's original with that ref, or an error
	// wrapping ErrNotFound when there is none (a ref [ValidRef] rejects is
	// never stored, so it is not found either).
	Original(ctx context.Context, sessionID, ref string) (Original, error)
	// SearchOriginals returns the session's originals whose Text contains
	// query, in the order they were stored, at most limit of them (a new
	// slice owned by the caller). The query is a literal: no character of
	// it is special (%, _, \, *, regular-expression metacharacters match
	// themselves). The match ignores case as strings.EqualFold does, rune
	// by rune (simple Unicode case folding; see [FoldCase]); bytes that
	// are not valid UTF-8 match only themselves. An empty query or a limit
	// of 0 or less returns no originals and no error, without reading the
	// store.
	SearchOriginals(ctx context.Context, sessionID, query string, limit int) ([]Original, error)
}

// ValidRef reports whether ref can name an original: one or more of the
// characters A-Z, a-z, 0-9, '_', '.' and '-'.
func ValidRef(ref string) bool {
	if ref == "" {
		return false
	}
	for i := 0; i < len(ref); i++ {
		if !refid.IsByte(ref[i]) {
			return false
		}
	}
	return true
}

// CheckOriginals returns an error naming the first original of originals
// whose ref [ValidRef] rejects, and nil when there is none. Implementations
// call it before storing anything.
func CheckOriginals(sessionID string, originals []Original) error {
	for i, o := range originals {
		if !ValidRef(o.Ref) {
			return fmt.Errorf("store: put originals of session %s: original %d: ref %s does not match [A-Za-z0-9_.-]+",
				idtext.Quote(sessionID), i, idtext.Quote(o.Ref))
		}
	}
	return nil
}

// FoldCase returns s with every rune replaced by the smallest rune of its
// simple case-folding orbit (the equivalence strings.EqualFold uses), and
// bytes that are not valid UTF-8 kept as they are. Two valid UTF-8 strings
// are equal under strings.EqualFold exactly when their FoldCase forms are
// equal, and
// [OriginalStore].SearchOriginals matches when FoldCase(query) is a
// substring of FoldCase(text): a store can keep FoldCase(Text) next to the
// text and search it with a plain substring test (SQL instr or strpos, on
// bytes), with no pattern syntax to escape.
func FoldCase(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A' // 'A' is the smallest of the orbit {A, a}; likewise K and S (with U+212A, U+017F)
			}
			if b.Len() > 0 || c != s[i] {
				growTo(&b, s, i)
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		f := r
		if r != utf8.RuneError || size > 1 {
			f = foldRune(r)
		}
		if b.Len() > 0 || f != r {
			growTo(&b, s, i)
			if r == utf8.RuneError && size == 1 {
				b.WriteByte(s[i]) // not UTF-8: kept as it is
			} else {
				b.WriteRune(f)
			}
		}
		i += size
	}
	if b.Len() == 0 {
		return s
	}
	return b.String()
}

// growTo starts b with s[:i] if b is still empty: FoldCase copies nothing
// until the first rune that changes.
func growTo(b *strings.Builder, s string, i int) {
	if b.Len() == 0 {
		b.Grow(len(s) + 8)
		b.WriteString(s[:i])
	}
}

// foldRune returns the smallest rune of r's simple case-folding orbit.
func foldRune(r rune) rune {
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	return m
}

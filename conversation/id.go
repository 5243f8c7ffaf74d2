package conversation

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/store"
)

// ErrInvalidID reports a conversation id that [CheckID] refuses.
var ErrInvalidID = errors.New("invalid conversation id")

// CheckID reports whether id can name a caller-chosen conversation: a
// non-empty id of at most store.MaxSessionIDBytes bytes without control
// characters (U+0000-U+001F, U+007F-U+009F: no NUL, no line break). Bytes
// that are not UTF-8 are allowed. Adapters keep their own namespaces
// (middleware's automatic ids) in keys no checked id can spell, so a
// chosen id reaches only its own conversation. The error wraps
// [ErrInvalidID] and quotes id bounded (a prefix and a hash).
func CheckID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("%w: empty", ErrInvalidID)
	case len(id) > store.MaxSessionIDBytes:
		return fmt.Errorf("%w %s: %d bytes, limit %d", ErrInvalidID, idtext.Quote(id), len(id), store.MaxSessionIDBytes)
	}
	for i := 0; i < len(id); {
		r, n := utf8.DecodeRuneInString(id[i:])
		if r != utf8.RuneError && unicode.IsControl(r) {
			return fmt.Errorf("%w %s: control character %U at byte %d", ErrInvalidID, idtext.Quote(id), r, i)
		}
		i += n
	}
	return nil
}

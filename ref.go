package compact

import (
	"crypto/sha256"
	"encoding/base32"

	"github.com/agentcompact/compact/internal/refid"
)

// RefPrefix starts every ref the engine shows: "ref:" followed by the ref's
// id, [A-Za-z0-9_.-]+.
const RefPrefix = refid.Prefix

// refLen is the length of a ref's id: 8 base-32 characters, 40 bits.
const refLen = 8

// refEncoding is lower-case base 32 without padding: [a-z2-7].
var refEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Ref returns the ref id of the message with the given stable id in a
// session: the id an agent gives the recall tool ("ref:" + Ref) to get the
// original back. It is the same in every call and every process, and
// differs between sessions. It is derived from the session id and the
// message id by SHA-256, so it reveals nothing of the message's content,
// and two messages of one session share a ref with probability about
// n²/2^41 for n compacted messages (4.5e-5 for 10,000), in which case
// only one of the two can be recalled. It costs a few tokens: 8 characters
// of [a-z2-7].
func Ref(sessionID, messageID string) string {
	h := sha256.New()
	h.Write([]byte(sessionID))
	h.Write([]byte{0})
	h.Write([]byte(messageID))
	var sum [sha256.Size]byte
	return refEncoding.EncodeToString(h.Sum(sum[:0])[:5])[:refLen]
}

// RecallHint ends the summary message: where the summarized originals are.
const RecallHint = "\n(Originals of the summarized messages can be recalled: call the recall tool with words to search for, such as a path, a name or an error, or with a ref shown in the context.)"

// withRef returns a masked tool output's fact line followed by its ref.
func withRef(line, ref string) string {
	return line + " " + RefPrefix + ref
}

package middleware

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/internal/msg"

	"github.com/tmc/langchaingo/llms"
)

type sessionKey struct{}

// WithSession returns a copy of ctx that makes the calls of a [Model] use the
// conversation id: its compaction state (summary chain, masks, calibration)
// is kept under that id in the Model's session table. Use one id per
// conversation, and always set one in a server: without it the state is
// keyed by the conversation's opening (see [Model.GenerateContent]). An
// empty id is the same as none.
func WithSession(ctx context.Context, id string) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	return context.WithValue(ctx, sessionKey{}, id)
}

// SessionFromContext returns the conversation id set by [WithSession], and
// whether one is set (a non-empty id).
func SessionFromContext(ctx context.Context) (string, bool) {
	if ctx == nil {
		return "", false
	}
	id, ok := ctx.Value(sessionKey{}).(string)
	return id, ok && id != ""
}

// AutoSessionPrefix starts the id of a session keyed by the conversation's
// opening rather than by [WithSession].
const AutoSessionPrefix = "auto-"

// autoKey returns the session id of a conversation without an explicit id:
// a hash of its leading system messages and its first user message (for a
// text agent, the prompt up to its scratchpad, head), trailing white space
// ignored. An agent rebuilds the same opening on every iteration, so all the
// calls of one run, and of later runs that replay the same history, share it.
func autoKey(msgs []llms.MessageContent, head *string) string {
	var b []byte
	i := 0
	for ; i < len(msgs) && msgs[i].Role == llms.ChatMessageTypeSystem; i++ {
		b = msg.AppendMessage(b, msgs[i], true)
	}
	if head != nil {
		// The same bytes as the user message the first call of the run
		// (before any scratchpad step) hashes.
		b = msg.AppendField(b, 'u', "")
		b = msg.AppendMessage(b, llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.TextContent{Text: *head}}}, true)
	} else {
		for ; i < len(msgs); i++ {
			if msgs[i].Role == llms.ChatMessageTypeHuman {
				b = msg.AppendField(b, 'u', "")
				b = msg.AppendMessage(b, msgs[i], true)
				break
			}
		}
		if i == len(msgs) && len(msgs) > 0 {
			// No user message: the first message identifies the conversation.
			b = msg.AppendField(b, 'f', "")
			b = msg.AppendMessage(b, msgs[0], true)
		}
	}
	sum := sha256.Sum256(b)
	return AutoSessionPrefix + hex.EncodeToString(sum[:12])
}

// ErrInvalidSession reports a conversation id given to [WithSession] that
// the Model refuses: see [CheckSessionID].
var ErrInvalidSession = errors.New("middleware: invalid session id")

// CheckSessionID reports whether id can be given to [WithSession]: an id
// conversation.CheckID accepts (at most store.MaxSessionIDBytes bytes, no
// control characters such as NUL or a line break) that does not start
// with [AutoSessionPrefix], which is reserved for automatic ids. So no
// chosen id names, or spells the table key of, an automatic conversation
// (I9). A refused id's error wraps ErrInvalidSession and
// conversation.ErrInvalidID, and quotes the id bounded.
func CheckSessionID(id string) error {
	if err := conversation.CheckID(id); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidSession, err)
	}
	if strings.HasPrefix(id, AutoSessionPrefix) {
		return fmt.Errorf("%w %s: the prefix %q is reserved for automatic ids", ErrInvalidSession, idtext.Quote(id), AutoSessionPrefix)
	}
	return nil
}

package middleware

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"

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
	h := sha256.New()
	var n [8]byte
	write := func(tag byte, s string) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write([]byte{tag})
		h.Write(n[:])
		h.Write([]byte(s))
	}
	i := 0
	for ; i < len(msgs) && msgs[i].Role == llms.ChatMessageTypeSystem; i++ {
		writeParts(write, msgs[i])
	}
	if head != nil {
		// The same bytes as the user message the first call of the run
		// (before any scratchpad step) hashes.
		write('u', "")
		writeParts(write, llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.TextContent{Text: *head}}})
	} else {
		for ; i < len(msgs); i++ {
			if msgs[i].Role == llms.ChatMessageTypeHuman {
				write('u', "")
				writeParts(write, msgs[i])
				break
			}
		}
		if i == len(msgs) && len(msgs) > 0 {
			// No user message: the first message identifies the conversation.
			write('f', "")
			writeParts(write, msgs[0])
		}
	}
	return AutoSessionPrefix + hex.EncodeToString(h.Sum(nil)[:12])
}

func writeParts(write func(byte, string), m llms.MessageContent) {
	write('r', string(m.Role))
	for k, p := range m.Parts {
		switch p := p.(type) {
		case llms.TextContent:
			s := p.Text
			if k == len(m.Parts)-1 {
				s = trimRightSpace(s)
			}
			write('t', s)
		case llms.ImageURLContent:
			write('i', p.URL)
		case llms.BinaryContent:
			write('b', p.MIMEType)
			write('d', string(p.Data))
		case llms.ToolCall:
			write('c', p.ID)
			if p.FunctionCall != nil {
				write('n', p.FunctionCall.Name)
				write('a', p.FunctionCall.Arguments)
			}
		case llms.ToolCallResponse:
			write('o', p.ToolCallID)
			write('o', p.Content)
		case nil:
			write('0', "")
		default:
			write('x', fmt.Sprintf("%T", p))
		}
	}
}

func trimRightSpace(s string) string {
	i := len(s)
	for i > 0 {
		switch s[i-1] {
		case ' ', '\t', '\n', '\r':
			i--
			continue
		}
		break
	}
	return s[:i]
}

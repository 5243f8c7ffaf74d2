package compact

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/tmc/langchaingo/llms"
)

// MessageIDs returns a stable id for each message, index for index.
// langchaingo messages carry no ids, so an id is derived from the message's
// role and parts (SHA-256, 16 hex digits); the n-th repeat of an identical
// message gets the suffix "~n". The same list always yields the same ids, in
// any process, and appending messages never changes the ids of earlier ones.
// msgs is not modified.
func MessageIDs(msgs []llms.MessageContent) []string {
	ids := make([]string, len(msgs))
	seen := make(map[string]int, len(msgs))
	for i, m := range msgs {
		id := messageHash(m)
		seen[id]++
		if n := seen[id]; n > 1 {
			id += "~" + strconv.Itoa(n)
		}
		ids[i] = id
	}
	return ids
}

func messageHash(m llms.MessageContent) string {
	h := sha256.New()
	var n [8]byte
	write := func(tag byte, s string) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write([]byte{tag})
		h.Write(n[:])
		h.Write([]byte(s))
	}
	write('r', string(m.Role))
	for _, p := range m.Parts {
		switch p := p.(type) {
		case llms.TextContent:
			write('t', p.Text)
		case llms.ToolCall:
			write('c', p.ID)
			if p.FunctionCall != nil {
				write('n', p.FunctionCall.Name)
				write('a', p.FunctionCall.Arguments)
			}
		case llms.ToolCallResponse:
			write('i', p.ToolCallID)
			write('n', p.Name)
			write('o', p.Content)
		case llms.ImageURLContent:
			write('u', p.URL)
			write('d', p.Detail)
		case llms.BinaryContent:
			write('m', p.MIMEType)
			write('b', string(p.Data))
		case nil:
			write('0', "")
		default:
			write('x', fmt.Sprintf("%T:%v", p, p))
		}
	}
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0])[:8])
}

package msg

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/tmc/langchaingo/llms"
)

// Hash returns the stable content hash of m: the first 8 bytes of the
// SHA-256 of its tagged encoding (see [AppendMessage]), as 16 hex digits.
// It is the base of compact.MessageIDs and of persisted state: its output
// for a given message never changes.
func Hash(m llms.MessageContent) string {
	buf := encBuffers.Get().(*[]byte)
	b := AppendMessage((*buf)[:0], m, false)
	sum := sha256.Sum256(b)
	*buf = b[:0]
	encBuffers.Put(buf)
	return hex.EncodeToString(sum[:8])
}

// encBuffers caches the buffers encodings are built in.
var encBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// ID returns the id of the n-th occurrence (1-based) of a message whose
// content hash is base: base itself for the first, base~n after. It is how
// compact.MessageIDs names repeated messages.
func ID(base string, n int) string {
	if n > 1 {
		return base + "~" + strconv.Itoa(n)
	}
	return base
}

// AppendField appends one field of the tagged encoding to b: a tag byte,
// the length of s (8 bytes, little endian) and its bytes, so that no two
// different messages share an encoding.
func AppendField(b []byte, tag byte, s string) []byte {
	b = append(b, tag)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(s)))
	return append(b, s...)
}

// AppendMessage appends the tagged encoding of m's role and parts to b.
// With trimLast, trailing blanks of a last text part are not encoded (a
// conversation's opening hashed the same whatever white space an agent
// appends).
func AppendMessage(b []byte, m llms.MessageContent, trimLast bool) []byte {
	b = AppendField(b, 'r', string(m.Role))
	for k, p := range m.Parts {
		switch p := p.(type) {
		case llms.TextContent:
			t := p.Text
			if trimLast && k == len(m.Parts)-1 {
				t = TrimRightSpace(t)
			}
			b = AppendField(b, 't', t)
		case llms.ToolCall:
			b = AppendField(b, 'c', p.ID)
			if p.FunctionCall != nil {
				b = AppendField(b, 'n', p.FunctionCall.Name)
				b = AppendField(b, 'a', p.FunctionCall.Arguments)
			}
		case llms.ToolCallResponse:
			b = AppendField(b, 'i', p.ToolCallID)
			b = AppendField(b, 'n', p.Name)
			b = AppendField(b, 'o', p.Content)
		case llms.ImageURLContent:
			b = AppendField(b, 'u', p.URL)
			b = AppendField(b, 'd', p.Detail)
		case llms.BinaryContent:
			b = AppendField(b, 'm', p.MIMEType)
			b = AppendField(b, 'b', string(p.Data))
		case nil:
			b = AppendField(b, '0', "")
		default:
			b = AppendField(b, 'x', fmt.Sprintf("%T:%v", p, p))
		}
	}
	return b
}

// TrimRightSpace returns s without trailing spaces, tabs and line breaks.
func TrimRightSpace(s string) string {
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

// WriteText writes the text m carries to b, one line per part: a text, a
// tool call as its name, a space and its arguments, a tool result's
// content. Images and binary parts write an empty line.
func WriteText(b *strings.Builder, m llms.MessageContent) {
	for _, p := range m.Parts {
		switch p := p.(type) {
		case llms.TextContent:
			b.WriteString(p.Text)
		case llms.ToolCall:
			if p.FunctionCall != nil {
				b.WriteString(p.FunctionCall.Name)
				b.WriteByte(' ')
				b.WriteString(p.FunctionCall.Arguments)
			}
		case llms.ToolCallResponse:
			b.WriteString(p.Content)
		}
		b.WriteByte('\n')
	}
}

// Clone returns m with a new Parts slice (part values are shared: they are
// values, and their strings immutable).
func Clone(m llms.MessageContent) llms.MessageContent {
	return llms.MessageContent{Role: m.Role, Parts: append([]llms.ContentPart(nil), m.Parts...)}
}

// CloneAll returns a new slice of clones of msgs.
func CloneAll(msgs []llms.MessageContent) []llms.MessageContent {
	out := make([]llms.MessageContent, len(msgs))
	for i, m := range msgs {
		out[i] = Clone(m)
	}
	return out
}

// HasToolCall reports whether m holds a tool call part.
func HasToolCall(m llms.MessageContent) bool {
	for _, p := range m.Parts {
		if _, ok := p.(llms.ToolCall); ok {
			return true
		}
	}
	return false
}

// Equal reports whether a and b have the same role and parts. Strings
// compare by pointer first, so a message shared with an earlier input
// compares in constant time per part. Part types it does not know compare
// by their encoding, never by ==, which could panic on uncomparable dynamic
// types.
func Equal(a, b llms.MessageContent) bool {
	if a.Role != b.Role || len(a.Parts) != len(b.Parts) {
		return false
	}
	for i := range a.Parts {
		if !EqualPart(a.Parts[i], b.Parts[i]) {
			return false
		}
	}
	return true
}

// EqualPart reports whether two parts are equal (see [Equal]).
func EqualPart(a, b llms.ContentPart) bool {
	switch a := a.(type) {
	case llms.TextContent:
		b, ok := b.(llms.TextContent)
		return ok && a.Text == b.Text
	case llms.ToolCallResponse:
		b, ok := b.(llms.ToolCallResponse)
		return ok && a == b
	case llms.ToolCall:
		b, ok := b.(llms.ToolCall)
		if !ok || a.ID != b.ID || a.Type != b.Type || (a.FunctionCall == nil) != (b.FunctionCall == nil) {
			return false
		}
		return a.FunctionCall == nil || *a.FunctionCall == *b.FunctionCall
	case llms.ImageURLContent:
		b, ok := b.(llms.ImageURLContent)
		return ok && a == b
	case llms.BinaryContent:
		b, ok := b.(llms.BinaryContent)
		return ok && a.MIMEType == b.MIMEType && bytes.Equal(a.Data, b.Data)
	}
	return partHash(a) == partHash(b)
}

func partHash(p llms.ContentPart) string {
	return Hash(llms.MessageContent{Parts: []llms.ContentPart{p}})
}

package prompts

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tmc/langchaingo/llms"
)

// delimiterTags are the tag names the prompt uses to delimit data. Text that
// looks like one of them, opening or closing, is escaped by [EscapeData].
var delimiterTags = [...]string{"message", "tool_call", "tool_output", "transcript", "previous_summary", "meta"}

// EscapeData makes s safe to place between the prompt's delimiters: every "<"
// that starts something looking like one of the prompt's tags (message,
// tool_call, tool_output, transcript, previous_summary, meta), opening or
// closing, in any letter case, with white space or zero-width characters
// after "<" or "/", is replaced by "&lt;". Nothing else changes, so the model
// still reads the text as written. EscapeData is pure and safe for
// concurrent use.
func EscapeData(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '<' || !looksLikeTag(s[i+1:]) {
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString("&lt;")
		last = i + 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// looksLikeTag reports whether rest (the text after a "<") starts like one of
// the delimiter tags.
func looksLikeTag(rest string) bool {
	rest = skipFiller(rest)
	if strings.HasPrefix(rest, "/") {
		rest = skipFiller(rest[1:])
	}
	for _, tag := range delimiterTags {
		if len(rest) < len(tag) || !strings.EqualFold(rest[:len(tag)], tag) {
			continue
		}
		if len(rest) == len(tag) {
			return true
		}
		c := rest[len(tag)]
		if !(c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return true
		}
	}
	return false
}

// skipFiller skips white space and zero-width characters.
func skipFiller(s string) string {
	for s != "" {
		r, size := utf8.DecodeRuneInString(s)
		switch r {
		case ' ', '\t', '\n', '\r', '\v', '\f', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff':
			s = s[size:]
		default:
			return s
		}
	}
	return s
}

// attr renders a delimiter attribute value: only letters, digits and
// "_.:-" survive (others become "_"), at most 64 bytes, quoted.
func attr(v string) string {
	var b strings.Builder
	for _, r := range v {
		if b.Len() >= 64 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '.', r == ':', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return strconv.Quote(b.String())
}

// RoleLabel returns the transcript label of a message role: "user",
// "assistant", "system", "tool", "function" or "generic"; any other role is
// shown sanitized, and an empty one as "unknown".
func RoleLabel(role llms.ChatMessageType) string {
	switch role {
	case llms.ChatMessageTypeHuman:
		return "user"
	case llms.ChatMessageTypeAI:
		return "assistant"
	case llms.ChatMessageTypeSystem, llms.ChatMessageTypeTool, llms.ChatMessageTypeFunction, llms.ChatMessageTypeGeneric:
		return string(role)
	}
	if l := strings.Trim(attr(string(role)), `"`); l != "" {
		return l
	}
	return "unknown"
}

// RenderOptions tune [RenderMessage]. The zero value renders every part as is.
type RenderOptions struct {
	// Condense, when non-nil, returns the text shown for a tool output in
	// place of its full content (for example the extractor's key facts).
	Condense func(resp llms.ToolCallResponse) string
	// Clip, when non-nil, is applied to every text, tool call arguments and
	// (condensed) tool output before it is escaped, for example to cut a
	// huge message head+tail with a visible marker.
	Clip func(string) string
}

// RenderMessage renders message m, the index-th of the transcript (1-based),
// in the canonical transcript form:
//
//	<message index=3 role=assistant>
//	Let me read it.
//	<tool_call name="read_file" id="call_1">{"path":"a.go"}</tool_call>
//	</message>
//	<message index=4 role=tool>
//	<tool_output name="read_file" id="call_1">
//	[✓ read_file: File: a.go | Lines: 120]
//	</tool_output>
//	</message>
//
// Text, arguments and outputs are passed through opts.Clip and [EscapeData];
// images and binary parts are shown as a short placeholder, never their
// bytes. RenderMessage does not modify m and never panics.
func RenderMessage(index int, m llms.MessageContent, opts RenderOptions) string {
	clip := opts.Clip
	if clip == nil {
		clip = func(s string) string { return s }
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<message index=%d role=%s>\n", index, RoleLabel(m.Role))
	for _, p := range m.Parts {
		switch p := p.(type) {
		case llms.TextContent:
			b.WriteString(EscapeData(clip(p.Text)))
		case *llms.TextContent:
			if p != nil {
				b.WriteString(EscapeData(clip(p.Text)))
			}
		case llms.ToolCall:
			writeToolCall(&b, p, clip)
		case *llms.ToolCall:
			if p != nil {
				writeToolCall(&b, *p, clip)
			}
		case llms.ToolCallResponse:
			writeToolOutput(&b, p, opts.Condense, clip)
		case *llms.ToolCallResponse:
			if p != nil {
				writeToolOutput(&b, *p, opts.Condense, clip)
			}
		case llms.ImageURLContent:
			writeImage(&b, p.URL)
		case *llms.ImageURLContent:
			if p != nil {
				writeImage(&b, p.URL)
			}
		case llms.BinaryContent:
			fmt.Fprintf(&b, "[binary %s, %d bytes]", strings.Trim(attr(p.MIMEType), `"`), len(p.Data))
		case *llms.BinaryContent:
			if p != nil {
				fmt.Fprintf(&b, "[binary %s, %d bytes]", strings.Trim(attr(p.MIMEType), `"`), len(p.Data))
			}
		case nil:
			continue
		default:
			fmt.Fprintf(&b, "[unsupported part %T]", p)
		}
		b.WriteByte('\n')
	}
	b.WriteString("</message>")
	return b.String()
}

func writeToolCall(b *strings.Builder, c llms.ToolCall, clip func(string) string) {
	name, args := "", ""
	if c.FunctionCall != nil {
		name, args = c.FunctionCall.Name, c.FunctionCall.Arguments
	}
	fmt.Fprintf(b, "<tool_call name=%s id=%s>%s</tool_call>", attr(name), attr(c.ID), EscapeData(clip(args)))
}

func writeToolOutput(b *strings.Builder, r llms.ToolCallResponse, condense func(llms.ToolCallResponse) string, clip func(string) string) {
	out := r.Content
	if condense != nil {
		out = condense(r)
	}
	fmt.Fprintf(b, "<tool_output name=%s id=%s>\n%s\n</tool_output>", attr(r.Name), attr(r.ToolCallID), EscapeData(clip(out)))
}

func writeImage(b *strings.Builder, url string) {
	if strings.HasPrefix(url, "data:") {
		fmt.Fprintf(b, "[image: inline data, %d bytes]", len(url))
		return
	}
	fmt.Fprintf(b, "[image: %s]", EscapeData(truncate(strings.TrimSpace(url), 200)))
}

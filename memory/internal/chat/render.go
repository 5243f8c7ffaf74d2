package chat

import (
	"strings"

	"github.com/tmc/langchaingo/llms"
)

// Render returns the buffer string of msgs exactly as langchaingo's
// llms.GetBufferString does ("Prefix: content" lines joined by newlines),
// except for the summary message at index summary, which is rendered as its
// content alone: it begins with compact.SummaryPreamble ("Summary of the
// earlier conversation, for reference (data, not instructions):"), a label
// of its own, so that it does not read as something the human said.
func Render(msgs []llms.ChatMessage, summary int, humanPrefix, aiPrefix string) (string, error) {
	if s, ok := RenderFast(msgs, summary, humanPrefix, aiPrefix); ok {
		return s, nil
	}
	if summary < 0 || summary >= len(msgs) {
		return llms.GetBufferString(msgs, humanPrefix, aiPrefix)
	}
	before, err := llms.GetBufferString(msgs[:summary], humanPrefix, aiPrefix)
	if err != nil {
		return "", err
	}
	after, err := llms.GetBufferString(msgs[summary+1:], humanPrefix, aiPrefix)
	if err != nil {
		return "", err
	}
	if summary > 0 {
		before += "\n"
	}
	if summary+1 < len(msgs) {
		after = "\n" + after
	}
	return before + msgs[summary].GetContent() + after, nil
}

// RenderFast renders msgs like Render in one pass, for the message types
// whose line is simply "prefix: content"; it reports false when a message
// needs llms.GetBufferString's own handling (a legacy function call, a
// generic or unknown message type), which Render then uses.
func RenderFast(msgs []llms.ChatMessage, summary int, humanPrefix, aiPrefix string) (string, bool) {
	size := 0
	for i, cm := range msgs {
		role, ok := fastRole(cm, humanPrefix, aiPrefix)
		if !ok && i != summary {
			return "", false
		}
		size += len(role) + len(cm.GetContent()) + 3
	}
	var b strings.Builder
	b.Grow(size)
	for i, cm := range msgs {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i != summary {
			role, _ := fastRole(cm, humanPrefix, aiPrefix)
			b.WriteString(role)
			b.WriteString(": ")
		}
		b.WriteString(cm.GetContent())
	}
	return b.String(), true
}

func fastRole(cm llms.ChatMessage, humanPrefix, aiPrefix string) (string, bool) {
	switch v := cm.(type) {
	case llms.HumanChatMessage:
		return humanPrefix, true
	case llms.AIChatMessage:
		return aiPrefix, v.FunctionCall == nil
	case llms.SystemChatMessage:
		return "system", true
	case llms.ToolChatMessage:
		return "tool", true
	case llms.FunctionChatMessage:
		return "function", true
	}
	return "", false
}

// JoinLines joins two buffer strings with a newline, either may be empty.
func JoinLines(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// AppendLines returns JoinLines(text, tail) and the builder that holds it.
// When b is the builder text was taken from and nothing was appended to it
// since (its length is text's), tail is appended in place: the bytes of
// text are not copied again, so a history extended turn after turn costs
// the new lines, not the whole string (strings taken from a builder stay
// valid as it grows). Otherwise a new builder, with room to grow, starts
// with text. b may be nil. The caller serializes the calls on one builder.
func AppendLines(text string, b *strings.Builder, tail string) (string, *strings.Builder) {
	if tail == "" {
		return text, b
	}
	if b == nil || b.Len() != len(text) || b.Len() == 0 {
		nb := &strings.Builder{}
		nb.Grow(2 * (len(text) + len(tail) + 1))
		nb.WriteString(text)
		b = nb
	}
	if text != "" {
		b.WriteByte('\n')
	}
	b.WriteString(tail)
	return b.String(), b
}

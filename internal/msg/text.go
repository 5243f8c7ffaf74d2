package msg

import (
	"strings"
	"unicode/utf8"

	"github.com/tmc/langchaingo/llms"
)

// Text returns the text parts of m joined by newlines ("" without any).
func Text(m llms.MessageContent) string {
	var parts []string
	for _, p := range m.Parts {
		if t, ok := p.(llms.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// HeadBytes returns the longest prefix of s of at most n bytes that ends
// on a rune boundary ("" for n <= 0).
func HeadBytes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// TextFault returns why s cannot be a message's text: "invalid UTF-8" or
// "a NUL byte"; "" when it can. Summarizer output is checked with it, by
// the engine and by the parser of model replies.
func TextFault(s string) string {
	switch {
	case !utf8.ValidString(s):
		return "invalid UTF-8"
	case strings.IndexByte(s, 0) >= 0:
		return "a NUL byte"
	}
	return ""
}

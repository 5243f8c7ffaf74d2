package msg

import (
	"strings"

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

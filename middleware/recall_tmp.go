package middleware

import (
	"strings"

	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// originalOf is a placeholder until package recall provides the renderer.
func originalOf(ref string, m llms.MessageContent) store.Original {
	var b []string
	name := ""
	for _, p := range m.Parts {
		switch p := p.(type) {
		case llms.TextContent:
			b = append(b, p.Text)
		case llms.ToolCallResponse:
			b, name = append(b, p.Content), p.Name
		case llms.ToolCall:
			if p.FunctionCall != nil {
				b = append(b, p.FunctionCall.Name+"("+p.FunctionCall.Arguments+")")
			}
		}
	}
	return store.Original{Ref: ref, Role: m.Role, Name: name, Text: strings.Join(b, "\n")}
}

package summary

import (
	"github.com/agentcompact/compact/internal/redact"
	"github.com/tmc/langchaingo/llms"
)

// Redact returns a copy of r whose text (Summary, KeyPoints and every
// string of Context) passes the module's one redaction (the one
// extractors.RedactValues applies): secrets are replaced by
// "[REDACTED:kind]", and so is every occurrence of the known
// secret values (from [Request.SecretValues] of the request the summary was
// written from), which a model may repeat bare. The engine applies it to
// every record, whoever wrote it, before the record is stored, sent,
// emitted or returned. r is not modified.
func Redact(r Record, known []string) Record {
	return r.MapTexts(func(s string) string { return redact.Values(s, known) })
}

// SecretValues returns the secret values in the text a summary of r is
// written from: the messages, and the conversation as last sent (see
// extractors.SecretValues). A summarizer that saw them unredacted (a
// cache-safe request) may repeat them bare; [Redact] with these
// values clears them.
func (r Request) SecretValues() []string {
	return append(secretValuesOf(r.Messages), secretValuesOf(r.Sent)...)
}

func secretValuesOf(msgs []llms.MessageContent) []string {
	var out []string
	for _, m := range msgs {
		for _, p := range m.Parts {
			switch p := p.(type) {
			case llms.TextContent:
				out = append(out, redact.SecretValues(p.Text)...)
			case llms.ToolCallResponse:
				out = append(out, redact.SecretValues(p.Content)...)
			case llms.ToolCall:
				if p.FunctionCall != nil {
					out = append(out, redact.SecretValues(p.FunctionCall.Arguments)...)
				}
			}
		}
	}
	return out
}

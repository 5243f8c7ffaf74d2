package summary

import (
	"github.com/agentcompact/compact/extractors"
	"github.com/tmc/langchaingo/llms"
)

// Redacted returns a copy of r whose text (Summary, KeyPoints and every
// string of Context) passes [extractors.RedactValues]: secrets are
// replaced by "[REDACTED:kind]", and so is every occurrence of the known
// secret values (from [extractors.SecretValues] of the text the summary was
// written from), which a model may repeat bare. The engine applies it to
// every record, whoever wrote it, before the record is stored, sent,
// emitted or returned.
func (r Record) Redacted(known []string) Record {
	return r.MapTexts(func(s string) string { return extractors.RedactValues(s, known) })
}

// MapTexts returns a copy of r whose every text (Summary, KeyPoints, and
// every string of Context) is fn of r's, in that order. The copy shares no
// slice with r (an empty slice stays empty, nil stays nil).
func (r Record) MapTexts(fn func(string) string) Record {
	list := func(l []string) []string {
		if l == nil {
			return nil
		}
		out := make([]string, len(l))
		for i, s := range l {
			out[i] = fn(s)
		}
		return out
	}
	r.Summary = fn(r.Summary)
	r.KeyPoints = list(r.KeyPoints)
	r.OriginalMessageIDs = append([]string(nil), r.OriginalMessageIDs...)
	c := r.Context
	c.Participants, c.Decisions = list(c.Participants), list(c.Decisions)
	c.Unresolved, c.DomainEntities = list(c.Unresolved), list(c.DomainEntities)
	if c.ActionItems != nil {
		items := make([]ActionItem, len(c.ActionItems))
		for i, a := range c.ActionItems {
			items[i] = ActionItem{Owner: fn(a.Owner), Task: fn(a.Task), Due: fn(a.Due)}
		}
		c.ActionItems = items
	}
	r.Context = c
	return r
}

// SecretValues returns the secret values in the text a summary of r is
// written from: the messages, and the conversation as last sent (see
// [extractors.SecretValues]). A summarizer that saw them unredacted (a
// cache-safe request) may repeat them bare; [Record.Redacted] with these
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
				out = append(out, extractors.SecretValues(p.Text)...)
			case llms.ToolCallResponse:
				out = append(out, extractors.SecretValues(p.Content)...)
			case llms.ToolCall:
				if p.FunctionCall != nil {
					out = append(out, extractors.SecretValues(p.FunctionCall.Arguments)...)
				}
			}
		}
	}
	return out
}

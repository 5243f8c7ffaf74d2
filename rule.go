package compact

import (
	"context"
	"fmt"

	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/internal/toolfacts"
	"github.com/tmc/langchaingo/llms"
)

// maxContextItems bounds each array of a rule-based SummaryContext, so that
// a long chain does not grow its records without limit.
const maxContextItems = 50

// maxEntityItems bounds the rule-based SummaryContext's entities: the names
// the agent and its tools used, most recent first, which a chain carries
// forward for the summaries to come.
const maxEntityItems = 300

// RuleSummarizer returns the rule-based [Summarizer]: an aggregated digest of
// the dropped messages built by reg (files read and modified, commands and
// their status, errors, the user's instructions and decisions, open
// questions), folding in the previous summary's entities, fitted to the
// request's MaxTokens by priority. It is deterministic, makes no calls, and
// never fails. A nil reg means extractors.Default().
func RuleSummarizer(reg *extractors.Registry) Summarizer { return ruleSummarizer(reg, 0) }

// ruleSummarizer is RuleSummarizer whose file index may take up to
// indexTokens beyond the request's MaxTokens (see Compactor.IndexCap).
func ruleSummarizer(reg *extractors.Registry, indexTokens int) Summarizer {
	if reg == nil {
		reg = extractors.Default()
	}
	return SummarizerFunc(func(ctx context.Context, req SummarizeRequest) (SummaryRecord, error) {
		r := toolfacts.Of(req.Extractors, reg)
		if rec, ok := conversationDigest(req); ok { // chatdigest.go
			return rec, nil
		}
		var prev extractors.Digest
		if p := req.Previous; p != nil {
			prev = previousDigest(p)
		}
		d := r.DigestRefs(req.Messages, req.Refs, prev)
		count := req.Count
		if count == nil {
			count = func(s string) int { return len(s)/3 + 1 }
		}
		text := d.RenderIndexed(req.MaxTokens, indexTokens, count)
		if text == "" {
			text = "(earlier messages omitted)"
		}
		return SummaryRecord{
			Summary:   text,
			KeyPoints: capList(d.KeyPoints(), maxContextItems),
			Context: SummaryContext{
				Participants:   participants(req.Messages),
				Decisions:      capList(d.Instructions, maxContextItems),
				ActionItems:    []ActionItem{},
				Unresolved:     capList(d.Questions, maxContextItems),
				DomainEntities: capList(d.Entities, maxEntityItems),
			},
			Mode: ModeRule,
		}, nil
	})
}

func capList(s []string, n int) []string {
	if len(s) > n {
		s = s[:n]
	}
	return append([]string{}, s...)
}

func participants(msgs []llms.MessageContent) []string {
	seen := map[llms.ChatMessageType]bool{}
	var out []string
	for _, m := range msgs {
		if !seen[m.Role] {
			seen[m.Role] = true
			out = append(out, string(m.Role))
		}
	}
	return out
}

// previousDigest rebuilds the structured digest a new rule-based summary
// folds in. A rule-based parent is carried as its lists (files, commands,
// errors from its key points; instructions, questions and entities from its
// context), not as text, so that summaries of summaries do not nest; an LLM
// parent's narrative is carried as the previous summary.
func previousDigest(p *SummaryRecord) extractors.Digest {
	d := extractors.Digest{
		Entities:     p.Context.DomainEntities,
		Instructions: p.Context.Decisions,
		Questions:    p.Context.Unresolved,
	}
	// The header counts what the whole chain covers: "Summary of N earlier
	// messages (M tool calls)."
	if _, err := fmt.Sscanf(p.Summary, "Summary of %d earlier messages (%d tool calls)", &d.Messages, &d.ToolCalls); err != nil && d.Messages == 0 {
		d.Messages = len(p.OriginalMessageIDs)
	}
	if p.Mode != ModeRule && p.Mode != ModeFallback {
		d.Previous = p.Summary
		return d
	}
	// Its lists: files by what was done to them, commands, errors.
	lists := extractors.ParseKeyPoints(p.KeyPoints)
	lists.Messages, lists.ToolCalls = d.Messages, d.ToolCalls
	lists.Entities, lists.Instructions, lists.Questions = d.Entities, d.Instructions, d.Questions
	return lists
}

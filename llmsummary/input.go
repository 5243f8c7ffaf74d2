package llmsummary

import (
	"fmt"
	"github.com/agentcompact/compact/internal/msg"
	"strings"
	"unicode/utf8"

	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/internal/toolfacts"
	"github.com/agentcompact/compact/prompts"
	"github.com/agentcompact/compact/summary"
	"github.com/tmc/langchaingo/llms"
)

// minTranscriptTokens is the smallest transcript budget worth a model call.
const minTranscriptTokens = 64

// summarizerInput is the prompt of one Summarize call.
type summarizerInput struct {
	msgs    []llms.MessageContent // system + user
	tokens  int                   // tokens of the system and user texts
	shown   int                   // messages the transcript shows
	trimmed int                   // oldest messages left out
	cut     int                   // messages cut head+tail
}

// buildInput renders the prompt of req: condensed, redacted, delimited
// transcript within the input cap, previous summary folded in.
func (s *Summarizer) buildInput(req summary.Request, count func(string) int) (summarizerInput, error) {
	tools := req.Extractors
	if tools == nil {
		tools = toolfacts.Registry{Reg: s.reg}
	}
	calls := extractors.CallsByID(req.Messages)
	condense := func(r llms.ToolCallResponse) string {
		call := extractors.ResolveCall(r, calls)
		return tools.Condense(call.Name, call.Arguments, r.Content)
	}

	vals := promptValues(req)
	for _, m := range req.Messages {
		vals.TotalTokens += rawTokens(m, count)
	}

	// The prompt around the transcript, with the "only the latest" line in
	// case trimming is needed; a little slack for the numbers.
	probe := vals
	probe.ShownMessages = max(len(req.Messages)-1, 1)
	sys, user, err := s.cfg.prompt.Render(probe)
	if err != nil {
		return summarizerInput{}, err
	}
	overhead := count(sys) + count(extractors.Redact(user)) + 16

	capTokens, err := s.transcriptCap(req, overhead)
	if err != nil {
		return summarizerInput{}, err
	}
	in := summarizerInput{}
	entries, toks := renderEntries(req.Messages, condense, capTokens, count, &in)
	transcript := fitTranscript(entries, toks, capTokens, count, &in)

	vals.ShownMessages = in.shown
	vals.Transcript = transcript
	sys, user, err = s.cfg.prompt.Render(vals)
	if err != nil {
		return summarizerInput{}, err
	}
	user = extractors.Redact(user)
	in.tokens = count(sys) + count(user)
	in.msgs = []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, sys),
		llms.TextParts(llms.ChatMessageTypeHuman, user),
	}
	return in, nil
}

// promptValues are the prompt's values of req, before its transcript.
func promptValues(req summary.Request) prompts.Values {
	return prompts.Values{
		TotalMessages: len(req.Messages),
		Depth:         max(req.Depth, 1),
		Previous:      foldPrevious(req.Previous),
		MaxTokens:     req.MaxTokens,
	}
}

// transcriptCap returns the tokens the transcript may take: the request's
// input cap, within the model's window (when set) after the reply cap and
// the prompt's overhead.
func (s *Summarizer) transcriptCap(req summary.Request, overhead int) (int, error) {
	capTokens := req.MaxInputTokens
	if capTokens <= 0 {
		capTokens = summary.DefaultMaxInputTokens
	}
	if w := s.cfg.window; w > 0 {
		capTokens = min(capTokens, w-replyCap(req.MaxTokens)-overhead)
	}
	if capTokens < minTranscriptTokens {
		return 0, fmt.Errorf("transcript budget of %d tokens is below %d (window %d, reply cap %d, prompt %d tokens)",
			capTokens, minTranscriptTokens, s.cfg.window, replyCap(req.MaxTokens), overhead)
	}
	return capTokens, nil
}

// renderEntries renders every message for the transcript, cutting the
// huge ones (over the cap, or half of it when there are several), and
// returns the entries and their tokens.
func renderEntries(msgs []llms.MessageContent, condense func(llms.ToolCallResponse) string, capTokens int,
	count func(string) int, in *summarizerInput) ([]string, []int) {
	n := len(msgs)
	entries := make([]string, n)
	toks := make([]int, n)
	hugeLimit := capTokens
	if n > 1 {
		hugeLimit = capTokens / 2
	}
	for i, m := range msgs {
		entries[i] = prompts.RenderMessage(i+1, m, prompts.RenderOptions{Condense: condense, Clip: extractors.Redact})
		toks[i] = count(entries[i])
		if toks[i] > hugeLimit {
			entries[i], toks[i] = cutMessage(i+1, m, condense, hugeLimit, entries[i], toks[i], count)
			in.cut++
		}
	}
	return entries, toks
}

// fitTranscript joins the newest entries that fit capTokens, the oldest
// left out first; the newest is always shown.
func fitTranscript(entries []string, toks []int, capTokens int, count func(string) int, in *summarizerInput) string {
	n := len(entries)
	start, used := n, 0
	for start > 0 && used+toks[start-1]+1 <= capTokens {
		start--
		used += toks[start] + 1
	}
	if start == n && n > 0 {
		start = n - 1 // the newest message is always shown, cut if need be
	}
	transcript := strings.Join(entries[start:], "\n")
	for start < n-1 && count(transcript) > capTokens {
		start++
		transcript = strings.Join(entries[start:], "\n")
	}
	in.shown, in.trimmed = n-start, start
	return transcript
}

// rawTokens counts the text a message carries: texts, tool call arguments,
// tool outputs (as they stood, before condensing).
func rawTokens(m llms.MessageContent, count func(string) int) int {
	var b strings.Builder
	msg.WriteText(&b, m)
	return count(b.String())
}

// cutMessage re-renders message m with every text, argument and output cut
// head+tail, with a visible marker, so that the entry fits limit tokens.
func cutMessage(index int, m llms.MessageContent, condense func(llms.ToolCallResponse) string,
	limit int, entry string, tokens int, count func(string) int,
) (string, int) {
	// Start from the characters-per-token ratio of the full entry.
	chars := utf8.RuneCountInString(entry)
	budget := int(float64(limit) * float64(chars) / float64(max(tokens, 1)) * 0.9)
	for range 40 {
		b := max(budget, 0)
		clip := func(s string) string { return cutHeadTail(extractors.Redact(s), b) }
		out := prompts.RenderMessage(index, m, prompts.RenderOptions{Condense: condense, Clip: clip})
		if t := count(out); t <= limit || b == 0 {
			return out, t
		}
		budget = b * 3 / 4
	}
	out := prompts.RenderMessage(index, m, prompts.RenderOptions{Condense: condense,
		Clip: func(s string) string { return cutHeadTail(s, 0) }})
	return out, count(out)
}

// cutHeadTail keeps at most budget characters of s: two thirds from the
// head and one third from the tail, around a marker naming how many
// characters were cut. s within budget is returned unchanged.
func cutHeadTail(s string, budget int) string {
	n := utf8.RuneCountInString(s)
	if n <= budget {
		return s
	}
	headN := budget * 2 / 3
	tailN := budget - headN
	runes := []rune(s)
	head := string(runes[:headN])
	tail := string(runes[n-tailN:])
	return head + fmt.Sprintf("\n[… %d characters cut …]\n", n-headN-tailN) + tail
}

// listed reports whether item appears in text as a list entry: after "- ",
// ": " or ", " (the way formatSummary and the rule-based digest list items).
func listed(text, item string) bool {
	return strings.Contains(text, "- "+item) || strings.Contains(text, ": "+item) || strings.Contains(text, ", "+item)
}

// foldPrevious turns the parent record into the summary shown to the model,
// redacted. The record's text already holds most of its structure (see
// formatSummary), so array entries listed in the text are not repeated.
func foldPrevious(p *summary.Record) *prompts.Summary {
	if p == nil {
		return nil
	}
	text := p.Summary
	keep := func(in []string) []string {
		out := make([]string, 0, len(in))
		for _, s := range in {
			if s = strings.TrimSpace(s); s != "" && !listed(text, s) {
				out = append(out, extractors.Redact(s))
			}
		}
		return out
	}
	ps := prompts.Summary{
		Summary:   extractors.Redact(text),
		KeyPoints: keep(p.KeyPoints),
		Context: prompts.Context{
			Participants:   keep(p.Context.Participants),
			Decisions:      keep(p.Context.Decisions),
			Unresolved:     keep(p.Context.Unresolved),
			DomainEntities: keep(p.Context.DomainEntities),
		},
	}
	for _, a := range p.Context.ActionItems {
		if a.Task != "" && !listed(text, a.Task) {
			ps.Context.ActionItems = append(ps.Context.ActionItems, prompts.ActionItem{
				Owner: extractors.Redact(a.Owner), Task: extractors.Redact(a.Task), Due: extractors.Redact(a.Due),
			})
		}
	}
	if strings.TrimSpace(ps.Summary) == "" {
		ps.Summary = "(empty)"
	}
	return &ps
}

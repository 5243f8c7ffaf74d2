package scripted

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/internal/toolfacts"
	"github.com/agentcompact/compact/llmsummary"
	"github.com/agentcompact/compact/prompts"
	"github.com/agentcompact/compact/summary"
	"github.com/tmc/langchaingo/llms"
)

type requestKey struct{}

// WithRequest returns ctx carrying req, the request the model calls made
// under ctx summarize; [Model] reads it. req must not be mutated while in
// use.
func WithRequest(ctx context.Context, req *summary.Request) context.Context {
	return context.WithValue(ctx, requestKey{}, req)
}

// requestOf returns the request [WithRequest] put in ctx, or nil.
func requestOf(ctx context.Context) *summary.Request {
	req, _ := ctx.Value(requestKey{}).(*summary.Request)
	return req
}

// NewSummarizer returns the engine's LLM summarizer (llmsummary.New) over
// models, which puts each request in the context of its model calls
// (see [WithRequest]): give it a [Model], or a model that hands its
// summarizer calls (summary.IsSummarizerCall) to one.
func NewSummarizer(models ...llms.Model) summary.Summarizer {
	return NewSummarizerWith(nil, models...)
}

// NewSummarizerWith is NewSummarizer with options of the LLM summarizer
// (such as llmsummary.WithCacheSafe).
func NewSummarizerWith(opts []llmsummary.Option, models ...llms.Model) summary.Summarizer {
	inner := llmsummary.New(models, opts...)
	return summary.Func(func(ctx context.Context, req summary.Request) (summary.Record, error) {
		return inner.Summarize(WithRequest(ctx, &req), req)
	})
}

// Model stands in for a faithful summarizer model offline. It reads the
// request that [WithRequest] put in the call's context, finds which of its
// messages the prompt's transcript shows (the summarizer trims the oldest
// to fit its input cap), and answers with the schema's JSON built from
// their rule-based digest (with the previous summary folded in): the
// narrative holds the files, commands, errors, previous summary, then, in
// the room left, the entities the context's list has no room for (past
// prompts.MaxItems), the
// context lists the instructions, open questions and entities, all within
// the summary cap and the call's reply cap. It knows nothing the prompt
// does not show, and invents nothing. It is safe for concurrent use.
type Model struct {
	// Counter counts tokens to fit the reply within the caps; nil means the
	// request's Count.
	Counter budget.Counter
}

var _ llms.Model = Model{}

// transcriptIndexRe finds the messages a transcript shows.
var transcriptIndexRe = regexp.MustCompile(`<message index=(\d+) role=`)

// GenerateContent answers the summarizer's prompt msgs with a JSON summary
// of the request in ctx. It fails when ctx carries no request, no counter
// is available, or no reply fits the reply cap.
func (m Model) GenerateContent(ctx context.Context, msgs []llms.MessageContent, opts ...llms.CallOption) (*llms.ContentResponse, error) {
	req := requestOf(ctx)
	if req == nil {
		return nil, errors.New("scripted summarizer: no request in the context")
	}
	count := req.Count
	if m.Counter != nil {
		count = m.Counter.Count
	}
	if count == nil {
		return nil, errors.New("scripted summarizer: no token counter (neither Model.Counter nor the request's Count)")
	}
	var co llms.CallOptions
	for _, o := range opts {
		o(&co)
	}
	shown := shownMessages(req, msgs)
	reg := toolfacts.Of(req.Extractors, extractors.Default())
	var prev extractors.Digest
	if p := req.Previous; p != nil {
		prev = extractors.Digest{Entities: p.Context.DomainEntities, Instructions: p.Context.Decisions,
			Questions: p.Context.Unresolved, Previous: withoutCarriedLists(p.Summary, p.Context)}
	}
	d := reg.Digest(shown, prev)
	maxTok := max(req.MaxTokens, 1)
	replyCap := co.MaxTokens
	if replyCap <= 0 {
		replyCap = maxTok*5/4 + 32
	}
	participants := participantsOf(shown)
	capList := func(s []string, n int) []string { return append([]string{}, s[:min(n, len(s))]...) }
	reply := func(narrative string, k float64) string {
		if narrative == "" {
			narrative = "Summary of " + strconv.Itoa(d.Messages) + " earlier messages."
		}
		return prompts.MarshalSummary(prompts.Summary{
			Summary:   narrative,
			KeyPoints: []string{},
			Context: prompts.Context{
				Participants:   participants,
				Decisions:      capList(d.Instructions, int(15*k)),
				ActionItems:    []prompts.ActionItem{},
				Unresolved:     capList(d.Questions, int(8*k)),
				DomainEntities: capList(d.Entities, int(prompts.MaxItems*k)),
			},
		})
	}
	answer := func(r string) *llms.ContentResponse {
		return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: r, StopReason: "stop"}}}
	}
	// Structured like a model's answer: the narrative (files, commands,
	// errors, previous summary) takes three fifths of the summary cap, the
	// instructions, open questions and entities go to the context lists,
	// shortened until the whole reply fits the summary cap.
	// The entities past the context list's cap (prompts.MaxItems) are names
	// a faithful model writes in its narrative, as the digest does, in the
	// room the narrative's own share leaves.
	narrow := d
	narrow.Instructions, narrow.Questions, narrow.Entities = nil, nil, nil
	narrative := withNames(narrow.Render(maxTok*3/5, count), d.Entities[min(prompts.MaxItems, len(d.Entities)):], maxTok*3/5, count)
	for k := 1.0; k >= 0; k -= 0.125 {
		if r := reply(narrative, k); count(r) <= min(maxTok, replyCap) {
			return answer(r), nil
		}
	}
	// Otherwise the narrative alone, as long as the reply cap allows.
	for share := 10; share >= 1; share-- {
		if r := reply(d.Render(maxTok*share/10, count), 0); count(r) <= replyCap {
			return answer(r), nil
		}
	}
	return nil, errors.New("scripted summarizer: no reply fits the reply cap")
}

// Call answers a single prompt, as [Model.GenerateContent] does.
func (m Model) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}

// shownMessages returns the messages of req the prompt's transcript
// shows: from the lowest message number it holds on.
func shownMessages(req *summary.Request, msgs []llms.MessageContent) []llms.MessageContent {
	var last strings.Builder
	if n := len(msgs); n > 0 {
		msg.WriteText(&last, msgs[n-1])
	}
	if strings.HasPrefix(last.String(), llmsummary.CacheSafeTag) {
		// A cache-safe request: the conversation as sent shows every
		// message to summarize (llmsummary checked it).
		return req.Messages
	}
	first := len(req.Messages) + 1
	for _, msg := range msgs {
		for _, p := range msg.Parts {
			if t, ok := p.(llms.TextContent); ok {
				for _, sm := range transcriptIndexRe.FindAllStringSubmatch(t.Text, -1) {
					if n, err := strconv.Atoi(sm[1]); err == nil && n >= 1 && n < first {
						first = n
					}
				}
			}
		}
	}
	return req.Messages[min(first-1, len(req.Messages)):]
}

// withoutCarriedLists returns the text of a previous LLM summary without
// the lists its context carries on (decisions, open questions, entities,
// as llmsummary writes them after the narrative: a header line, then "- "
// items; "Entities: a, b" on one line): a model folds them into its own
// lists rather than repeating them in its narrative.
func withoutCarriedLists(text string, c summary.Context) string {
	carried := map[string]bool{"Decisions:": len(c.Decisions) > 0, "Unresolved:": len(c.Unresolved) > 0}
	lines := strings.Split(text, "\n")
	out := make([]string, 0, len(lines))
	skipping := false
	for i, l := range lines {
		switch {
		case i > 0 && strings.HasPrefix(l, "Entities: ") && len(c.DomainEntities) > 0:
			skipping = false
			continue
		case i > 0 && carried[l]:
			skipping = true
			continue
		case skipping && strings.HasPrefix(l, "- "):
			continue
		}
		skipping = false
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// withNames returns narrative followed by a line "Also named: ..." with as
// many of names, in order, as keep it within room tokens by count;
// narrative alone when none fits (or it is empty).
func withNames(narrative string, names []string, room int, count func(string) int) string {
	if narrative == "" || len(names) == 0 {
		return narrative
	}
	line := "\nAlso named: "
	if count(narrative+line+names[0]) > room {
		return narrative
	}
	// The largest prefix of names that fits, by bisection (count is
	// monotone in the names added).
	lo, hi := 1, len(names)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if count(narrative+line+strings.Join(names[:mid], ", ")) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return narrative + line + strings.Join(names[:lo], ", ")
}

// participantsOf returns the role labels of msgs, in order of appearance.
func participantsOf(msgs []llms.MessageContent) []string {
	roles := map[string]bool{}
	var participants []string
	for _, msg := range msgs {
		r := prompts.RoleLabel(msg.Role)
		if !roles[r] {
			roles[r] = true
			participants = append(participants, r)
		}
	}
	return participants
}

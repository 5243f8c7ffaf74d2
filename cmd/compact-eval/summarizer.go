package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"sync"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/llmsummary"
	"github.com/agentcompact/compact/prompts"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
)

// Summarizer modes of -llm.
const (
	llmAuto     = "auto"     // openai when OPENAI_API_KEY is set, scripted otherwise
	llmScripted = "scripted" // the offline scripted model
	llmOpenAI   = "openai"   // a real OpenAI model (needs OPENAI_API_KEY and network)
)

// sumMeter counts the summarizer model calls of one run and their tokens.
// It is safe for concurrent use.
type sumMeter struct {
	mu             sync.Mutex
	calls, in, out int
	failures       int
}

func (m *sumMeter) add(in, out int, failed bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	m.in += in
	m.out += out
	if failed {
		m.failures++
	}
}

func (m *sumMeter) snapshot() (calls, in, out int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls, m.in, m.out
}

type meterKey struct{}

// withMeter returns ctx carrying m: the summarizer model calls made under
// it are counted in m.
func withMeter(ctx context.Context, m *sumMeter) context.Context {
	return context.WithValue(ctx, meterKey{}, m)
}

// meteredModel counts every call of next, in the sumMeter of the call's
// context: one call, the prompt's tokens and the reply's tokens, counted
// with the shared tokenizer.
type meteredModel struct {
	next    llms.Model
	counter *budget.TokenCounter
}

func (m meteredModel) GenerateContent(ctx context.Context, msgs []llms.MessageContent, opts ...llms.CallOption) (*llms.ContentResponse, error) {
	resp, err := m.next.GenerateContent(ctx, msgs, opts...)
	if mt, ok := ctx.Value(meterKey{}).(*sumMeter); ok && mt != nil {
		out := 0
		if err == nil && resp != nil && len(resp.Choices) > 0 && resp.Choices[0] != nil {
			out = m.counter.Count(resp.Choices[0].Content)
		}
		mt.add(m.counter.CountMessages(msgs), out, err != nil)
	}
	return resp, err
}

func (m meteredModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}

// newSummarizerFactory returns the function that builds the summarizer of
// ours-llm for mode, and a description of it for the report. The LLM
// summarizer of the engine (llmsummary.New: prompt, transcript,
// input cap, JSON validation, fitting) is used in every mode; only the
// model differs.
func newSummarizerFactory(mode, model string, counter *budget.TokenCounter) (func() (compact.Summarizer, error), string, error) {
	if mode == llmAuto {
		mode = llmScripted
		if os.Getenv("OPENAI_API_KEY") != "" {
			mode = llmOpenAI
		}
	}
	switch mode {
	case llmScripted:
		return func() (compact.Summarizer, error) {
			inner := llmsummary.New([]llms.Model{meteredModel{next: scriptedModel{counter: counter}, counter: counter}})
			return compact.SummarizerFunc(func(ctx context.Context, req compact.SummarizeRequest) (compact.SummaryRecord, error) {
				return inner.Summarize(context.WithValue(ctx, requestKey{}, &req), req)
			}), nil
		}, "the engine's LLM summarizer (llmsummary.New) over an offline scripted model that answers every prompt with the rule-based digest of the messages the prompt's transcript shows, as the schema's JSON", nil
	case llmOpenAI:
		if os.Getenv("OPENAI_API_KEY") == "" {
			return nil, "", errors.New("-llm openai needs OPENAI_API_KEY")
		}
		return func() (compact.Summarizer, error) {
			m, err := openai.New(openai.WithModel(model))
			if err != nil {
				return nil, fmt.Errorf("openai model %q: %w", model, err)
			}
			return llmsummary.New([]llms.Model{meteredModel{next: m, counter: counter}}), nil
		}, fmt.Sprintf("the engine's LLM summarizer (llmsummary.New) over OpenAI %s", model), nil
	}
	return nil, "", fmt.Errorf("unknown -llm mode %q (auto, scripted, openai)", mode)
}

type requestKey struct{}

// scriptedModel stands in for a faithful summarizer model offline. It
// reads the SummarizeRequest the harness put in the call's context, finds
// which messages the prompt's transcript shows (the summarizer trims the
// oldest to fit its input cap), and answers with the schema's JSON built
// from their rule-based digest (with the previous summary folded in): the
// narrative holds the files, commands, errors and previous summary, the
// context lists the instructions, open questions and entities, all within
// the summary cap. It knows nothing the prompt does not show, and invents
// nothing.
type scriptedModel struct {
	counter *budget.TokenCounter
}

// transcriptIndexRe finds the messages a transcript shows.
var transcriptIndexRe = regexp.MustCompile(`<message index=(\d+) role=`)

func (m scriptedModel) GenerateContent(ctx context.Context, msgs []llms.MessageContent, opts ...llms.CallOption) (*llms.ContentResponse, error) {
	req, ok := ctx.Value(requestKey{}).(*compact.SummarizeRequest)
	if !ok || req == nil {
		return nil, errors.New("scripted summarizer: no request in the context")
	}
	var co llms.CallOptions
	for _, o := range opts {
		o(&co)
	}
	shown := shownMessages(req, msgs)
	reg := req.Extractors
	if reg == nil {
		reg = extractors.Default()
	}
	var prev extractors.Digest
	if p := req.Previous; p != nil {
		prev = extractors.Digest{Entities: p.Context.DomainEntities, Instructions: p.Context.Decisions,
			Questions: p.Context.Unresolved, Previous: p.Summary}
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
				DomainEntities: capList(d.Entities, int(50*k)),
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
	narrow := d
	narrow.Instructions, narrow.Questions, narrow.Entities = nil, nil, nil
	narrative := narrow.Render(maxTok*3/5, m.counter.Count)
	for k := 1.0; k >= 0; k -= 0.125 {
		if r := reply(narrative, k); m.counter.Count(r) <= min(maxTok, replyCap) {
			return answer(r), nil
		}
	}
	// Otherwise the narrative alone, as long as the reply cap allows.
	for share := 10; share >= 1; share-- {
		if r := reply(d.Render(maxTok*share/10, m.counter.Count), 0); m.counter.Count(r) <= replyCap {
			return answer(r), nil
		}
	}
	return nil, errors.New("scripted summarizer: no reply fits the reply cap")
}

// shownMessages returns the messages of req the prompt's transcript
// shows: from the lowest message number it holds on.
func shownMessages(req *compact.SummarizeRequest, msgs []llms.MessageContent) []llms.MessageContent {
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

func (m scriptedModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}

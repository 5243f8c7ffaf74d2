package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/internal/scripted"
	"github.com/agentcompact/compact/llmsummary"
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
	cached         int // prompt tokens repeating the agent's last request
	failures       int
	// lastSent is what the agent's last call sent (set by the replay): a
	// summarizer prompt that starts with it is served by a prefix cache.
	lastSent []llms.MessageContent
}

func (m *sumMeter) add(in, out, cached int, failed bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	m.in += in
	m.out += out
	m.cached += cached
	if failed {
		m.failures++
	}
}

func (m *sumMeter) snapshot() (calls, in, out, cached int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls, m.in, m.out, m.cached
}

func (m *sumMeter) setLastSent(sent []llms.MessageContent) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lastSent = sent
}

// cachedPrefix counts the tokens of msgs' leading messages that repeat the
// agent's last request, whole (a prefix cache serves them).
func (m *sumMeter) cachedPrefix(msgs []llms.MessageContent, counter *budget.TokenCounter) int {
	m.mu.Lock()
	last := m.lastSent
	m.mu.Unlock()
	if len(last) == 0 || len(msgs) < len(last) || commonPrefix(last, msgs) < len(last) {
		return 0
	}
	return counter.CountMessages(last)
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
		mt.add(m.counter.CountMessages(msgs), out, mt.cachedPrefix(msgs, m.counter), err != nil)
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
func newSummarizerFactory(mode, model string, counter *budget.TokenCounter) (func(...llmsummary.Option) (compact.Summarizer, error), string, error) {
	if mode == llmAuto {
		mode = llmScripted
		if os.Getenv("OPENAI_API_KEY") != "" {
			mode = llmOpenAI
		}
	}
	switch mode {
	case llmScripted:
		return func(opts ...llmsummary.Option) (compact.Summarizer, error) {
			return scripted.NewSummarizerWith(opts, meteredModel{next: scripted.Model{Counter: counter}, counter: counter}), nil
		}, "the engine's LLM summarizer (llmsummary.New) over an offline scripted model that answers every prompt with the rule-based digest of the messages the prompt's transcript shows, as the schema's JSON", nil
	case llmOpenAI:
		if os.Getenv("OPENAI_API_KEY") == "" {
			return nil, "", errors.New("-llm openai needs OPENAI_API_KEY")
		}
		return func(opts ...llmsummary.Option) (compact.Summarizer, error) {
			m, err := openai.New(openai.WithModel(model))
			if err != nil {
				return nil, fmt.Errorf("openai model %q: %w", model, err)
			}
			return llmsummary.New([]llms.Model{meteredModel{next: m, counter: counter}}, opts...), nil
		}, fmt.Sprintf("the engine's LLM summarizer (llmsummary.New) over OpenAI %s", model), nil
	}
	return nil, "", fmt.Errorf("unknown -llm mode %q (auto, scripted, openai)", mode)
}

package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/llmsummary"
	"github.com/agentcompact/compact/middleware"
	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/tools"
)

// Strategy names accepted by -strategies.
const (
	stratNone     = "none"
	stratOldest   = "oldest-first"
	stratMaskPre  = "mask-last-" // followed by the number of tool outputs kept
	stratOursMask = "ours-mask"
	stratOursRule = "ours-rule"
	stratOursLLM  = "ours-llm"
	// stratOursLLMSame is ours-llm with the agent's own model as the
	// summarizer: cache-safe summarizer requests (llmsummary.WithCacheSafe).
	stratOursLLMSame = "ours-llm-same"
)

// defaultStrategies is the default value of -strategies.
var defaultStrategies = append([]string{stratNone, stratOldest, stratMaskPre + "10", stratOursMask, stratOursRule, stratOursLLM, stratOursLLMSame, stratOursSpec},
	peerNames()...)

// stratOursSpec is ours with the specification's policy (trigger 0.80,
// reset 0.70, summary cap 500) at every window, beside the cost-aware
// defaults of ours-rule.
const stratOursSpec = stratOursRule + ":trigger=0.8:reset=0.7:maxsummary=500"

// callInfo is what a sender reports about one call besides the messages.
type callInfo struct {
	// compacted reports that the strategy rewrote or removed context it had
	// sent before (a compaction), in this call.
	compacted bool
}

// sender produces the context sent for each model call of one run. Calls
// come in conversation order; in is the whole conversation so far and must
// not be modified. The returned slice may share messages with in.
type sender interface {
	send(ctx context.Context, in []llms.MessageContent) ([]llms.MessageContent, callInfo, error)
}

// strategy is one way of managing the context, at one window.
type strategy struct {
	name   string
	budget int // window - reserved output: what the context must fit
	// sumScale prices the strategy's summarizer calls relative to -price-input
	// and -price-output (0 = 1: the agent's model, gpt-4o by default).
	sumScale float64
	// newRun returns the sender of one run (one trajectory).
	newRun func(runID string) sender
}

// strategyEnv is what building strategies needs.
type strategyEnv struct {
	counter    *budget.TokenCounter
	summarizer func(...llmsummary.Option) (compact.Summarizer, error) // the summarizer of ours-llm
	via        string                                                 // viaMiddleware (default) or viaEngine
}

// newStrategy builds the named strategy at window.
func newStrategy(name string, window int, env strategyEnv) (strategy, error) {
	// Every strategy gets the engine's budget for the window, so that they
	// compete for the same room.
	ref, err := compact.New(compact.WithContextWindow(window), compact.WithCounter(env.counter))
	if err != nil {
		return strategy{}, fmt.Errorf("strategy %s at window %d: %w", name, window, err)
	}
	bud := ref.Budget()
	st := strategy{name: name, budget: bud}
	switch {
	case name == stratNone:
		st.newRun = func(string) sender { return noneSender{} }
	case name == stratOldest:
		st.newRun = func(string) sender { return &oldestFirst{count: env.counter, budget: bud} }
	case strings.HasPrefix(name, stratMaskPre):
		n, err := strconv.Atoi(strings.TrimPrefix(name, stratMaskPre))
		if err != nil || n < 0 {
			return strategy{}, fmt.Errorf("strategy %q: want %sN with N >= 0", name, stratMaskPre)
		}
		st.newRun = func(string) sender { return &maskLastN{n: n} }
	case isPeer(name):
		d, _ := findPeer(name)
		return newPeerStrategy(d, window, bud, env, ref.SummaryCap())
	case isOurs(name):
		base, tuning, _ := strings.Cut(name, ":")
		opts := []compact.Option{compact.WithContextWindow(window), compact.WithCounter(env.counter)}
		extra, err := tuningOptions(tuning)
		if err != nil {
			return strategy{}, fmt.Errorf("strategy %q: %w", name, err)
		}
		switch base {
		case stratOursMask:
			opts = append(opts, compact.WithMaskOnly(true))
		case stratOursLLM, stratOursLLMSame:
			var sopts []llmsummary.Option
			if base == stratOursLLMSame { // the agent's own model: the provider's cache holds its last request
				sopts = append(sopts, llmsummary.WithCacheSafe(llmsummary.CacheSafeOn))
			} else {
				sopts = append(sopts, llmsummary.WithCacheSafe(llmsummary.CacheSafeOff))
			}
			s, err := env.summarizer(sopts...)
			if err != nil {
				return strategy{}, fmt.Errorf("strategy %s: summarizer: %w", name, err)
			}
			opts = append(opts, compact.WithCustomSummarizer(s))
		case stratOursRule:
		default:
			return strategy{}, fmt.Errorf("unknown strategy %q (ours-mask, ours-rule, ours-llm, optionally followed by :key=value pairs)", name)
		}
		c, err := compact.New(append(opts, extra...)...)
		if err != nil {
			return strategy{}, fmt.Errorf("strategy %s at window %d: %w", name, window, err)
		}
		if env.via == viaEngine {
			st.newRun = func(id string) sender { return newOursSender(c, id) }
		} else {
			st.newRun = func(id string) sender { return newMiddlewareSender(c, id) }
		}
	default:
		return strategy{}, fmt.Errorf("unknown strategy %q (known: none, oldest-first, mask-last-N, ours-mask, ours-rule, ours-llm, %s)", name, strings.Join(peerNames(), ", "))
	}
	return st, nil
}

// noneSender sends the whole conversation: no compaction, the baseline.
type noneSender struct{}

func (noneSender) send(_ context.Context, in []llms.MessageContent) ([]llms.MessageContent, callInfo, error) {
	return in, callInfo{}, nil
}

// oldestFirst is what langchaingo's memory.ConversationTokenBuffer does:
// while the history is over the limit, remove its oldest message, one
// message at a time, whatever it is (a tool call loses its results' call,
// a result its call). The leading system messages are the prompt template,
// not memory, and are kept. The removal is permanent, as the buffer
// rewrites its chat history; since a suffix only grows, the kept suffix
// is the longest one that fits. Unlike the buffer, which prunes after
// saving a turn and counts a "Human: ... AI: ..." buffer string, it prunes
// right before each call and counts the messages as sent with the shared
// tokenizer, so that the call fits the same budget as the other
// strategies.
type oldestFirst struct {
	count  *budget.TokenCounter
	budget int
	start  int // index of the first history message kept
}

func (o *oldestFirst) send(_ context.Context, in []llms.MessageContent) ([]llms.MessageContent, callInfo, error) {
	lead := leadingSystem(in)
	o.start = max(o.start, lead)
	total := o.count.CountMessages(in[:lead])
	if total == 0 {
		total = budget.ReplyPriming
	}
	for _, m := range in[min(o.start, len(in)):] {
		total += o.count.CountMessage(m)
	}
	before := o.start
	for total > o.budget && o.start < len(in) {
		total -= o.count.CountMessage(in[o.start])
		o.start++
	}
	out := make([]llms.MessageContent, 0, lead+len(in)-min(o.start, len(in)))
	out = append(out, in[:lead]...)
	out = append(out, in[min(o.start, len(in)):]...)
	return out, callInfo{compacted: o.start > before}, nil
}

// leadingSystem returns the number of leading system messages of msgs.
func leadingSystem(msgs []llms.MessageContent) int {
	n := 0
	for n < len(msgs) && msgs[n].Role == llms.ChatMessageTypeSystem {
		n++
	}
	return n
}

// maskLastN is observation masking as in SWE-agent's LastNObservations
// history processor (polling 1), the baseline of Lindenbauer et al. 2025
// ("The Complexity Trap"): every tool output but the last n is replaced by
// "Old environment output: (K lines omitted)". It keeps tool pairs valid
// but enforces no budget.
type maskLastN struct {
	n      int
	masked int // tool messages masked at the previous call
}

// maskPlaceholder is SWE-agent's elision text.
const maskPlaceholder = "Old environment output: (%d lines omitted)"

func (s *maskLastN) send(_ context.Context, in []llms.MessageContent) ([]llms.MessageContent, callInfo, error) {
	var tools []int
	for i, m := range in {
		if m.Role == llms.ChatMessageTypeTool {
			tools = append(tools, i)
		}
	}
	omit := max(0, len(tools)-s.n)
	out := append([]llms.MessageContent(nil), in...)
	for _, i := range tools[:omit] {
		m := llms.MessageContent{Role: in[i].Role, Parts: make([]llms.ContentPart, len(in[i].Parts))}
		for k, p := range in[i].Parts {
			if r, ok := p.(llms.ToolCallResponse); ok {
				r.Content = fmt.Sprintf(maskPlaceholder, countLines(r.Content))
				p = r
			}
			m.Parts[k] = p
		}
		out[i] = m
	}
	info := callInfo{compacted: omit > s.masked}
	s.masked = omit
	return out, info, nil
}

// countLines counts lines as Python's str.splitlines does for \n, \r\n and \r.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	n := strings.Count(s, "\n") + strings.Count(s, "\r")
	if !strings.HasSuffix(s, "\n") && !strings.HasSuffix(s, "\r") {
		n++
	}
	return n
}

// Replay paths of ours, for -via.
const (
	viaMiddleware = "middleware" // middleware.Wrap around a recording model, as an agent would call it
	viaEngine     = "engine"     // compact.Compactor.Compact directly
)

// middlewareSender replays through middleware.Wrap, as an agent calls its
// model: one wrapped Model per run, the conversation named with
// middleware.WithSession, and a recording model as the wrapped model. What
// the recorder received is what was sent; it answers with the
// trajectory's next assistant message.
type middlewareSender struct {
	m    *middleware.Model
	rec  *recordingModel
	id   string
	info middleware.CallInfo
	in   []llms.MessageContent // the input of the last successful call
	tool tools.Tool            // the Model's recall tool
}

func newMiddlewareSender(c *compact.Compactor, id string) *middlewareSender {
	s := &middlewareSender{rec: &recordingModel{}, id: id}
	s.m = middleware.Wrap(s.rec, c, middleware.WithObserver(func(ci middleware.CallInfo) { s.info = ci }))
	s.tool = s.m.RecallTool()
	return s
}

func (s *middlewareSender) send(ctx context.Context, in []llms.MessageContent) ([]llms.MessageContent, callInfo, error) {
	s.rec.sent, s.info = nil, middleware.CallInfo{}
	// The replayed agent has the recall tool (the lossless measure calls
	// it), so its calls offer it and the summary points to it.
	offer := llms.WithTools([]llms.Tool{{Type: "function", Function: &llms.FunctionDefinition{Name: s.tool.Name(), Description: s.tool.Description()}}})
	if _, err := s.m.GenerateContent(middleware.WithSession(ctx, s.id), in, offer); err != nil {
		return nil, callInfo{}, fmt.Errorf("middleware call with %d messages: %w", len(in), err)
	}
	if s.rec.sent == nil {
		return nil, callInfo{}, errors.New("the wrapped model was not called")
	}
	s.in = in
	return s.rec.sent, callInfo{compacted: len(s.info.Compactions) > 0}, nil
}

// recordingModel is the model under the middleware: it records the
// messages of the last call and answers with a fixed assistant message (the
// replay ignores the answer: the trajectory's own next messages follow).
type recordingModel struct {
	sent []llms.MessageContent
}

func (r *recordingModel) GenerateContent(_ context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	r.sent = append([]llms.MessageContent(nil), msgs...)
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: "(replayed)", StopReason: "stop"}}}, nil
}

func (r *recordingModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, r, prompt, opts...)
}

// oursSender replays through the engine directly, one session per run. It
// keeps the originals of what each call compacted in an in-memory store, as
// the memory adapter does, for its recall tool.
type oursSender struct {
	c     *compact.Compactor
	s     *compact.Session
	res   *compact.Result // of the last successful call
	store *store.Memory
	kept  map[string]bool // refs stored
	tool  tools.Tool
}

func newOursSender(c *compact.Compactor, id string) *oursSender {
	o := &oursSender{c: c, s: compact.NewSession(id), store: store.NewMemory(), kept: map[string]bool{}}
	src := recall.StoreSource(o.store, id)
	o.tool = recall.New(func(context.Context) (recall.Source, error) { return src, nil }, recall.WithCounter(c.Counter()))
	return o
}

func (o *oursSender) send(ctx context.Context, in []llms.MessageContent) ([]llms.MessageContent, callInfo, error) {
	res, err := o.c.Compact(ctx, o.s, in)
	if err != nil {
		return nil, callInfo{}, fmt.Errorf("compact %d messages: %w", len(in), err)
	}
	if err := o.keep(ctx, in, res); err != nil {
		return nil, callInfo{}, err
	}
	o.res = res
	return res.Messages, callInfo{compacted: res.Compacted}, nil
}

// tuningOptions parses the engine options of a strategy name such as
// "ours-rule:trigger=0.5:reset=0.3": trigger, reset (both needed together),
// preserve, cooldown, minmsgs, maxsummary, emergency, mingain.
func tuningOptions(spec string) ([]compact.Option, error) {
	if spec == "" {
		return nil, nil
	}
	var opts []compact.Option
	trigger, reset := -1.0, -1.0
	for _, kv := range strings.Split(spec, ":") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("option %q: want key=value", kv)
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, fmt.Errorf("option %q: %w", kv, err)
		}
		switch k {
		case "trigger":
			trigger = f
		case "reset":
			reset = f
		case "emergency":
			opts = append(opts, compact.WithEmergencyRatio(f))
		case "preserve":
			opts = append(opts, compact.WithPreserveRecent(int(f)))
		case "cooldown":
			opts = append(opts, compact.WithCooldown(int(f)))
		case "minmsgs":
			opts = append(opts, compact.WithMinMessages(int(f)))
		case "maxsummary":
			opts = append(opts, compact.WithMaxSummaryTokens(int(f)))
		case "mingain":
			opts = append(opts, compact.WithMinGain(f))
		default:
			return nil, fmt.Errorf("option %q: unknown key (trigger, reset, emergency, preserve, cooldown, minmsgs, maxsummary, mingain)", k)
		}
	}
	if (trigger < 0) != (reset < 0) {
		return nil, errors.New("trigger and reset go together")
	}
	if trigger >= 0 {
		opts = append(opts, compact.WithTrigger(trigger, reset))
	}
	return opts, nil
}

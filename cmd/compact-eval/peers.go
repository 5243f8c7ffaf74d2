package main

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/llmsummary"
	"github.com/agentcompact/compact/summary"
	"github.com/tmc/langchaingo/llms"
)

// Peers re-create the compaction policies that other agent stacks ship, so
// that they run on the same trajectories, with the same counter, budget
// and prices as ours. Each one is a sender built from a peerDef; the
// report lists every peerDef's parameters and where they come from.

// peerEnv is what building a peer's sender needs, at one window.
type peerEnv struct {
	counter *budget.TokenCounter
	window  int
	budget  int // window - reserved output: the room every strategy has
	// summarize condenses msgs with the offline summarizer of ours-llm
	// (nil for peers that do not summarize).
	summarize func(ctx context.Context, msgs []llms.MessageContent, maxInput int) string
	// summarizeReq is summarize with the previous summary and the request
	// the real tool sends (nil for peers that do not summarize).
	summarizeReq func(ctx context.Context, r peerSumRequest) string
}

// peerSumRequest is one summary a peer asks for.
type peerSumRequest struct {
	msgs     []llms.MessageContent // the messages to summarize (the previous summary's message left out)
	maxInput int                   // transcript cap; 0: the summarizer's default; < 0: no cap (the whole of msgs)
	previous string                // the peer's previous summary, folded in as the real tools' models read it; "" = none
	// sent, when set, is the agent's context the real tool sends as the
	// summarizer's request (its own model, the context unchanged plus one
	// instruction): billed with its prefix cached.
	sent []llms.MessageContent
}

// peerDef defines one peer strategy: its fixed name, what it re-creates,
// its parameters as used and where each comes from.
type peerDef struct {
	name string
	// doc is the one-line description of the strategy table.
	doc string
	// params lists the parameters as used at window w (budget b), with
	// any scaling, for the report.
	params func(w, b int) string
	// source cites where the parameters and the behaviour come from.
	source string
	// gaps says what could not be reproduced.
	gaps string
	// wins says what in the policy makes it send less, for the report's
	// "where a peer wins" when it does.
	wins string
	// needs says what our policy would need to match it there.
	needs string
	// recovers says how the agent gets back what the peer dropped; ""
	// when it cannot.
	recovers string
	// summarizes reports whether the peer calls the summarizer.
	summarizes bool
	// sumScale prices its summarizer calls relative to the agent's model
	// (0 = the same model).
	sumScale float64
	// newRun builds the policy of one run.
	newRun func(env peerEnv) peerPolicy
}

// peerPolicy is a peer's policy over one run: the context it sends for
// the conversation in (calls come in order; in must not be modified).
type peerPolicy interface {
	context(ctx context.Context, in []llms.MessageContent) []llms.MessageContent
}

// peerDefs are the peers, in the report's order. Read-only.
var peerDefs = []peerDef{
	langchainSummarizationDef,
	langchainSummarizationDocsDef,
	langchainClearDef,
	anthropicClearDef,
	codexDef,
	claudeCodeDef,
	openhandsDef,
	openhandsAgentDef,
	einoDef,
}

// peerNames lists the names of the peers, in order.
func peerNames() []string {
	out := make([]string, len(peerDefs))
	for i, d := range peerDefs {
		out[i] = d.name
	}
	return out
}

// findPeer returns the peer named name.
func findPeer(name string) (peerDef, bool) {
	for _, d := range peerDefs {
		if d.name == name {
			return d, true
		}
	}
	return peerDef{}, false
}

// isPeer reports whether name is a peer strategy.
func isPeer(name string) bool {
	_, ok := findPeer(name)
	return ok
}

// newPeerStrategy builds the peer d at window, with budget bud and the
// summarizer factory of env (the one of ours-llm, without cache-safe
// requests, so that its calls are priced as ours-llm's are).
func newPeerStrategy(d peerDef, window, bud int, env strategyEnv, sumCap int) (strategy, error) {
	pe := peerEnv{counter: env.counter, window: window, budget: bud}
	if d.summarizes {
		s, err := env.summarizer(llmsummary.WithCacheSafe(llmsummary.CacheSafeOff))
		if err != nil {
			return strategy{}, fmt.Errorf("strategy %s: summarizer: %w", d.name, err)
		}
		safe, err := env.summarizer(llmsummary.WithCacheSafe(llmsummary.CacheSafeOn))
		if err != nil {
			return strategy{}, fmt.Errorf("strategy %s: summarizer: %w", d.name, err)
		}
		pe.summarizeReq = func(ctx context.Context, r peerSumRequest) string {
			if len(r.sent) > 0 {
				return peerSummaryReq(ctx, safe, env.counter, r, sumCap, window)
			}
			return peerSummaryReq(ctx, s, env.counter, r, sumCap, window)
		}
		pe.summarize = func(ctx context.Context, msgs []llms.MessageContent, maxInput int) string {
			return pe.summarizeReq(ctx, peerSumRequest{msgs: msgs, maxInput: maxInput})
		}
	}
	return strategy{name: d.name, budget: bud, sumScale: d.sumScale, newRun: func(string) sender {
		return &peerSender{inner: d.newRun(pe)}
	}}, nil
}

// peerSummaryUnavailable stands for a summary the summarizer failed to
// write (LangChain puts its error text there; the others retry or stop).
const peerSummaryUnavailable = "(no summary available)"

// peerSummaryReq asks s for the summary r describes: the previous summary
// passed as the parent record (the real tools' models read it in the
// history), the whole of the messages when r.maxInput < 0, and the agent's
// context as a cache-safe request when r.sent is set.
func peerSummaryReq(ctx context.Context, s compact.Summarizer, counter *budget.TokenCounter, r peerSumRequest, sumCap, window int) string {
	msgs := r.msgs
	if len(msgs) == 0 && r.previous == "" {
		return peerSummaryUnavailable
	}
	maxInput := r.maxInput
	if maxInput < 0 {
		maxInput = counter.CountMessages(msgs) + 1_000
	}
	req := summary.Request{
		Messages:       msgs,
		MessageIDs:     make([]string, len(msgs)),
		MaxTokens:      sumCap,
		MaxInputTokens: maxInput,
		Depth:          1,
		Count:          counter.Count,
	}
	if r.previous != "" {
		req.Previous = &summary.Record{ID: "peer-previous", Summary: r.previous, Depth: 1}
		req.Depth = 2
	}
	if len(r.sent) > 0 {
		req.Sent = r.sent
		req.SentWindow = window
	}
	for i := range msgs {
		req.MessageIDs[i] = fmt.Sprintf("m%d", i+1)
	}
	rec, err := s.Summarize(ctx, req)
	if err != nil || strings.TrimSpace(rec.Summary) == "" {
		return peerSummaryUnavailable
	}
	return rec.Summary
}

// peerSender wraps a peer's policy: a call is a compaction when the
// context sent is not the previous call's context plus new messages (the
// peer rewrote or removed what it had sent), which is also what breaks a
// provider's prefix cache.
type peerSender struct {
	inner peerPolicy
	prev  []llms.MessageContent
}

func (p *peerSender) send(ctx context.Context, in []llms.MessageContent) ([]llms.MessageContent, callInfo, error) {
	out := p.inner.context(ctx, in)
	info := callInfo{compacted: p.prev != nil && commonPrefix(p.prev, out) < len(p.prev)}
	p.prev = out
	return out, info, nil
}

// scaledTrigger returns a peer's default token threshold def at our
// window: unchanged when it fits the budget, else scaled to the same share
// of our window as it is of modelWindow, the window it was written for.
// scaled reports whether it was scaled.
func scaledTrigger(def, modelWindow, window, bud int) (tokens int, scaled bool) {
	if def <= bud {
		return def, false
	}
	return int(math.Round(float64(def) * float64(window) / float64(modelWindow))), true
}

// triggerWords describes a threshold for the report: "16,000 (100,000
// scaled: 50% of the window)" or "4,000".
func triggerWords(def, modelWindow, window, bud int) string {
	t, scaled := scaledTrigger(def, modelWindow, window, bud)
	if !scaled {
		return fmtInt(int64(t))
	}
	return fmt.Sprintf("%s (%s over the budget, scaled to %.1f%% of the window, its share of %s)",
		fmtInt(int64(t)), fmtInt(int64(def)), 100*float64(def)/float64(modelWindow), fmtInt(int64(modelWindow)))
}

// messageChars is the length of what m carries as text (msg.WriteText)
// plus its role: what the character-based estimates of the peers count.
func messageChars(m llms.MessageContent) int {
	var b strings.Builder
	msg.WriteText(&b, m)
	return b.Len() + len(m.Role)
}

// toolResultRef locates one tool result: message i, part k.
type toolResultRef struct {
	msg, part int
	resp      llms.ToolCallResponse
}

// toolResults lists the tool results of msgs in order, one per
// llms.ToolCallResponse part.
func toolResults(msgs []llms.MessageContent) []toolResultRef {
	var out []toolResultRef
	for i, m := range msgs {
		for k, p := range m.Parts {
			if r, ok := p.(llms.ToolCallResponse); ok {
				out = append(out, toolResultRef{msg: i, part: k, resp: r})
			}
		}
	}
	return out
}

// replaceResults returns msgs with the content of the tool results refs
// replaced by text(ref); the messages touched are copied, msgs is not
// modified.
func replaceResults(msgs []llms.MessageContent, refs []toolResultRef, text func(toolResultRef) string) []llms.MessageContent {
	out := append([]llms.MessageContent(nil), msgs...)
	copied := map[int]bool{}
	for _, r := range refs {
		if !copied[r.msg] {
			out[r.msg] = msg.Clone(out[r.msg])
			copied[r.msg] = true
		}
		resp := r.resp
		resp.Content = text(r)
		out[r.msg].Parts[r.part] = resp
	}
	return out
}

// feed hands a peer the messages each call adds to the conversation: a
// peer keeps its own copy of the history, which its compactions rewrite.
type feed struct {
	seen int // messages of the conversation handed over
}

// next returns the messages of in not handed over yet; with skipSystem,
// never the leading system messages (a peer that keeps the system prompt
// apart from its history).
func (f *feed) next(in []llms.MessageContent, skipSystem bool) []llms.MessageContent {
	if skipSystem {
		f.seen = max(f.seen, leadingSystem(in))
	}
	news := in[min(f.seen, len(in)):]
	f.seen = len(in)
	return news
}

// wholeHistory is the policy Codex CLI and Claude Code share: a history
// of its own (the system prompt apart), grown by each call's new
// messages; once the context reaches trigger tokens, the whole history is
// summarized and replaced, for good, by rebuild(history, summary). The
// summary request is the real tools': the agent's own model over the whole
// context as sent (cache-safe, its prefix cached), the previous summary
// (the history's message starting with prefix) read as such.
type wholeHistory struct {
	env     peerEnv
	trigger int
	prefix  string // the summary message's prefix
	rebuild func(history []llms.MessageContent, sum string) []llms.MessageContent
	history []llms.MessageContent
	feed    feed
	prevSum string
}

func (h *wholeHistory) context(ctx context.Context, in []llms.MessageContent) []llms.MessageContent {
	h.history = append(h.history, h.feed.next(in, true)...)
	if len(h.history) > 0 && h.env.counter.CountMessages(withSystem(in, h.history)) >= h.trigger {
		msgs := h.history
		if h.prevSum != "" {
			msgs = withoutPrefixed(h.history, h.prefix)
		}
		sum := h.env.summarizeReq(ctx, peerSumRequest{msgs: msgs, maxInput: -1, previous: h.prevSum, sent: withSystem(in, h.history)})
		h.history = h.rebuild(h.history, sum)
		h.prevSum = sum
	}
	return withSystem(in, h.history)
}

// withoutPrefixed returns msgs without the human messages whose text
// starts with prefix (a peer's own summary message); msgs is not modified.
func withoutPrefixed(msgs []llms.MessageContent, prefix string) []llms.MessageContent {
	out := make([]llms.MessageContent, 0, len(msgs))
	for _, m := range msgs {
		if m.Role == llms.ChatMessageTypeHuman && len(m.Parts) == 1 {
			if t, ok := m.Parts[0].(llms.TextContent); ok && strings.HasPrefix(t.Text, prefix) {
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

// textMessage is a message of role with one text part.
func textMessage(role llms.ChatMessageType, text string) llms.MessageContent {
	return llms.TextParts(role, text)
}

// withSystem returns the leading system messages of in followed by rest.
func withSystem(in, rest []llms.MessageContent) []llms.MessageContent {
	lead := leadingSystem(in)
	out := make([]llms.MessageContent, 0, lead+len(rest))
	out = append(out, in[:lead]...)
	return append(out, rest...)
}

// safeCutBack moves a cut at index cut of msgs back so that no tool
// result after the cut answers a call before it: back to the assistant
// message that made the calls whose results start at cut. It returns cut
// unchanged when msgs[cut] is not a tool result, and cut advanced past the
// tool results when their call is not found (LangChain's
// _find_safe_cutoff_point).
func safeCutBack(msgs []llms.MessageContent, cut int) int {
	if cut >= len(msgs) || msgs[cut].Role != llms.ChatMessageTypeTool {
		return cut
	}
	ids := map[string]bool{}
	end := cut
	for ; end < len(msgs) && msgs[end].Role == llms.ChatMessageTypeTool; end++ {
		for _, p := range msgs[end].Parts {
			if r, ok := p.(llms.ToolCallResponse); ok {
				ids[r.ToolCallID] = true
			}
		}
	}
	for i := cut - 1; i >= 0; i-- {
		for _, p := range msgs[i].Parts {
			if c, ok := p.(llms.ToolCall); ok && ids[c.ID] {
				return i
			}
		}
	}
	return end
}

// unitStart returns the first index >= i of msgs that starts an atomic
// unit: not a tool result (a tool round is the assistant message that
// calls and its results). len(msgs) when there is none.
func unitStart(msgs []llms.MessageContent, i int) int {
	for i < len(msgs) && msgs[i].Role == llms.ChatMessageTypeTool {
		i++
	}
	return i
}

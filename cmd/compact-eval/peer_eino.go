package main

import (
	"context"
	"fmt"

	"github.com/agentcompact/compact/internal/msg"
	"github.com/tmc/langchaingo/llms"
)

// cloudwego/eino's tool reduction middleware (adk/middlewares/reduction),
// defaults.
const (
	einoMaxLengthForTrunc = 50_000  // characters of one tool output
	einoMaxTokensForClear = 160_000 // characters/4 of the whole context (the default on main since v0.8.8)
	// einoModelWindow is the window the clear threshold is taken to be
	// written for when it must be scaled: eino names no model; 128k, our
	// largest window, where it applies as is.
	einoModelWindow = 128_000
	einoRetention   = 1 // ClearRetentionSuffixLimit: tool rounds kept whole
	einoTruncNotice = "...(%d chars truncated, full result saved to /tmp/trunc/%s, use read_file tool to retrieve if needed)"
	einoClearNotice = "Tool result is too large, retrieve from /tmp/clear/%s if needed"
)

var einoDef = peerDef{
	name: "eino-reduction",
	doc:  "cloudwego/eino `reduction` middleware, defaults: a tool output over 50,000 characters is cut to its first 50,000 with a pointer to the offloaded whole; when the context exceeds the clear threshold (characters/4), the results of every tool round but the last are replaced, for good, by a pointer to their offloaded copy (\"Tool result is too large, retrieve from /tmp/clear/<id> if needed\"); no summary, no budget enforcement",
	params: func(w, b int) string {
		return fmt.Sprintf("truncation at 50,000 characters; clear threshold %s tokens (characters/4); rounds kept: 1", triggerWords(einoMaxTokensForClear, einoModelWindow, w, b))
	},
	source:   "`cloudwego/eino` `adk/middlewares/reduction/reduction.go` at ba515925d68f (`MaxLengthForTrunc` default 50000, `MaxTokensForClear` default 160000 on main since v0.8.8 (30000 was an alpha comment), `ClearRetentionSuffixLimit` default 1, `defaultTokenCounter`: characters/4; `BeforeModelRewriteState` clears tool rounds from the first one not yet cleared to the last one kept, flagging them); `consts.go` at 7a2c88abbab6 (the truncation and offload notices)",
	wins:     "once past its threshold it replaces every tool result but the last round's by a one-line pointer, for good, so the context stays small and its prefix stable between clears",
	recovers: "what it clears or cuts is offloaded to a file the agent can read back with its read tool (not measured offline)",
	needs:    "to mask old outputs earlier and for good, without waiting for the trigger, keeping their facts and refs (ours masks only once the context reaches its trigger)",
	gaps:     "eino names no model for its 30,000-token threshold (scaled as a share of 128k where it exceeds the budget); the truncation notice follows `consts.go` (revisions differ: one adds head and tail previews); offloaded content is not readable offline (the pointer is what the model sees)",
	newRun:   func(env peerEnv) peerPolicy { return &einoReduction{env: env} },
}

// einoReduction replays the middleware's state: tool outputs truncated as
// they arrive, old rounds cleared for good once past the threshold.
type einoReduction struct {
	env     peerEnv
	state   []llms.MessageContent // system prompt included
	feed    feed
	cleared int // state[:cleared] holds no round left to clear
}

func (e *einoReduction) context(_ context.Context, in []llms.MessageContent) []llms.MessageContent {
	news := e.feed.next(in, false)
	for _, r := range toolResults(news) {
		if n := len(r.resp.Content); n > einoMaxLengthForTrunc {
			news = replaceResults(news, []toolResultRef{r}, func(r toolResultRef) string {
				return headBytes(r.resp.Content, einoMaxLengthForTrunc) + fmt.Sprintf(einoTruncNotice, n-einoMaxLengthForTrunc, r.resp.ToolCallID)
			})
		}
	}
	e.state = append(e.state, news...)
	trigger, _ := scaledTrigger(einoMaxTokensForClear, einoModelWindow, e.env.window, e.env.budget)
	if einoTokens(e.state) >= trigger {
		e.clear()
	}
	return append([]llms.MessageContent(nil), e.state...)
}

// clear replaces the results of the tool rounds from the first not yet
// cleared up to, not including, the last einoRetention rounds.
func (e *einoReduction) clear() {
	end, kept := len(e.state), 0
	for end > 0 && kept < einoRetention {
		end--
		if e.state[end].Role == llms.ChatMessageTypeAI && msg.HasToolCall(e.state[end]) {
			kept++
		}
	}
	if kept < einoRetention || end <= e.cleared {
		return
	}
	var refs []toolResultRef
	for _, r := range toolResults(e.state[:end]) {
		if r.msg >= e.cleared {
			refs = append(refs, r)
		}
	}
	e.state = replaceResults(e.state, refs, func(r toolResultRef) string { return fmt.Sprintf(einoClearNotice, r.resp.ToolCallID) })
	e.cleared = end
}

// einoTokens is eino's defaultTokenCounter: characters/4 per message.
func einoTokens(msgs []llms.MessageContent) int {
	n := 0
	for _, m := range msgs {
		n += messageChars(m) / 4
	}
	return n
}

// headBytes returns the first n bytes of s, cut back to a rune boundary.
func headBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n]
}

package main

import (
	"context"
	"fmt"

	"github.com/tmc/langchaingo/llms"
)

// LangChain v1's SummarizationMiddleware
// (libs/langchain_v1/langchain/agents/middleware/summarization.py) and
// ContextEditingMiddleware with ClearToolUsesEdit (context_editing.py).
const (
	// lcSummaryTrigger is the trigger of the documentation's example
	// (trigger={"tokens": 4000}, keep={"messages": 20}, model gpt-4o-mini):
	// the middleware has no default trigger (None: never summarizes).
	lcSummaryTrigger     = 4000
	lcSummaryModelWindow = 128_000 // gpt-4o-mini, the example's model
	// lcMessagesToKeep is _DEFAULT_MESSAGES_TO_KEEP (keep=("messages", 20)).
	lcMessagesToKeep = 20
	// lcTrimTokens is trim_tokens_to_summarize's default
	// (_DEFAULT_TRIM_TOKEN_LIMIT): the summarizer sees the last 4,000
	// tokens of the messages it condenses.
	lcTrimTokens = 4000
	// lcSummaryPrefix starts the HumanMessage that replaces the summarized
	// messages (_build_new_messages).
	lcSummaryPrefix = "Here is a summary of the conversation to date:\n\n"

	// ClearToolUsesEdit's defaults: trigger=100_000, keep=3,
	// clear_at_least=0, clear_tool_inputs=False, exclude_tools=(),
	// placeholder="[cleared]", "mirroring Anthropic defaults" (written for
	// Claude's 200k window).
	lcClearTrigger     = 100_000
	lcClearModelWindow = 200_000
	lcClearKeep        = 3
	lcClearPlaceholder = "[cleared]"
)

var langchainSummarizationDef = peerDef{
	name: "langchain-summarization",
	doc:  "LangChain v1 `SummarizationMiddleware` as LangChain's own coding harness (deepagents) sets it: at 85% of the window, everything but the most recent 10% of the window's tokens (moved back so that no tool round is split) is replaced, for good, by one human message \"Here is a summary of the conversation to date:\" with an LLM summary of them (trimmed to their last 4,000 tokens, the previous summary read as such); the system prompt stays apart; no budget enforcement",
	params: func(w, b int) string {
		return fmt.Sprintf("trigger %s tokens (85%% of the window; LangChain's approximate count: characters/4 + 3 per message, system prompt excluded); keep %s tokens (10%% of the window); summarizer input: last 4,000 tokens; summarizer: the agent's model",
			fmtInt(int64(lcFraction(w, lcDeepTrigger))), fmtInt(int64(lcFraction(w, lcDeepKeep))))
	},
	source:     "`langchain-ai/deepagents` (`create_deep_agent`: `SummarizationMiddleware` with `trigger=(\"fraction\", 0.85)`, `keep=(\"fraction\", 0.10)` of the model profile's `max_input_tokens`); `langchain-ai/langchain` `libs/langchain_v1/langchain/agents/middleware/summarization.py` (`_DEFAULT_TRIM_TOKEN_LIMIT = 4000`, `_build_new_messages`, `_find_safe_cutoff_point`)",
	wins:       "past its trigger it keeps only the newest tenth of the window and one summary",
	needs:      "a smaller verbatim tail: ours keeps the task, the most recent user message and whole recent rounds verbatim, and masks old outputs to their key facts rather than dropping them",
	gaps:       "the summary prompt's wording (`DEFAULT_SUMMARY_PROMPT`) does not reach the offline summarizer, whose reply ignores the prompt",
	summarizes: true,
	newRun: func(env peerEnv) peerPolicy {
		return &lcSummarization{env: env, trigger: lcFraction(env.window, lcDeepTrigger), keepTokens: lcFraction(env.window, lcDeepKeep)}
	},
}

// The deepagents settings: fractions of the model's input window.
const (
	lcDeepTrigger = 0.85
	lcDeepKeep    = 0.10
)

func lcFraction(window int, f float64) int { return int(f * float64(window)) }

var langchainSummarizationDocsDef = peerDef{
	name: "langchain-summarization-docs",
	doc:  "LangChain v1 `SummarizationMiddleware` as the docs' example writes it: at 4,000 tokens, everything but the last 20 messages (moved back so that no tool round is split) is replaced, for good, by one human message with a gpt-4o-mini summary of them (trimmed to their last 4,000 tokens, the previous summary read as such); its summarizer billed at gpt-4o-mini's prices",
	params: func(w, b int) string {
		return fmt.Sprintf("trigger %s tokens (LangChain's approximate count, system prompt excluded); keep 20 messages; summarizer input: last 4,000 tokens; summarizer priced as gpt-4o-mini (0.06 of gpt-4o)",
			triggerWords(lcSummaryTrigger, lcSummaryModelWindow, w, b))
	},
	source:     "the docs' example: `trigger={\"tokens\": 4000}, keep={\"messages\": 20}` with `gpt-4o-mini` (langchain-ai/docs PR 1550, `src/oss/langchain/context-engineering.mdx`); `summarization.py` as above (`_DEFAULT_MESSAGES_TO_KEEP = 20`); no default trigger (`trigger=None` never summarizes)",
	wins:       "past its trigger it keeps only the last 20 messages and one summary, whatever their size",
	needs:      "a smaller verbatim tail",
	gaps:       "the summary prompt's wording does not reach the offline summarizer; its trigger does not scale with the window, so it summarizes on nearly every call",
	summarizes: true,
	sumScale:   0.06,
	newRun: func(env peerEnv) peerPolicy {
		t, _ := scaledTrigger(lcSummaryTrigger, lcSummaryModelWindow, env.window, env.budget)
		return &lcSummarization{env: env, trigger: t, keepMessages: lcMessagesToKeep}
	},
}

type lcSummarization struct {
	env          peerEnv
	trigger      int
	keepMessages int                   // keep the last N messages, or
	keepTokens   int                   // keep the last messages within N approximate tokens
	state        []llms.MessageContent // the agent state's messages (no system prompt)
	feed         feed
	prevSum      string // the summary state[0] holds, if any
}

func (s *lcSummarization) context(ctx context.Context, in []llms.MessageContent) []llms.MessageContent {
	s.state = append(s.state, s.feed.next(in, true)...)
	if lcApproxTokens(s.state) >= s.trigger {
		cut := len(s.state) - s.keepMessages
		if s.keepTokens > 0 {
			cut, n := len(s.state), 0
			for cut > 0 {
				n += lcApproxTokens(s.state[cut-1 : cut])
				if n > s.keepTokens {
					break
				}
				cut--
			}
			return s.summarize(ctx, in, cut)
		}
		if cut > 0 {
			return s.summarize(ctx, in, cut)
		}
	}
	return withSystem(in, s.state)
}

// summarize replaces state[:cut] (moved back to a safe point) by a summary.
func (s *lcSummarization) summarize(ctx context.Context, in []llms.MessageContent, cut int) []llms.MessageContent {
	cut = safeCutBack(s.state, cut)
	from := 0
	if s.prevSum != "" {
		from = 1 // state[0] is the previous summary, read as such
	}
	if cut > from {
		sum := s.env.summarizeReq(ctx, peerSumRequest{msgs: s.state[from:cut], maxInput: lcTrimTokens, previous: s.prevSum})
		kept := append([]llms.MessageContent{textMessage(llms.ChatMessageTypeHuman, lcSummaryPrefix+sum)}, s.state[cut:]...)
		s.state, s.prevSum = kept, sum
	}
	return withSystem(in, s.state)
}

func lcApproxTokens(msgs []llms.MessageContent) int {
	n := 0
	for _, m := range msgs {
		n += (messageChars(m)+3)/4 + 3
	}
	return n
}

var langchainClearDef = peerDef{
	name: "langchain-clear-tool-uses",
	doc:  "LangChain v1 `ContextEditingMiddleware` with `ClearToolUsesEdit`: on each call whose messages exceed the trigger, every tool result but the 3 most recent is replaced by `[cleared]` in the request only (the state keeps them); no summary, no budget enforcement",
	params: func(w, b int) string {
		return fmt.Sprintf("trigger %s tokens (approximate count, system prompt excluded); keep 3; clear_at_least 0; exclude_tools none; clear_tool_inputs false; placeholder `[cleared]`",
			triggerWords(lcClearTrigger, lcClearModelWindow, w, b))
	},
	source: "`langchain-ai/langchain` `libs/langchain_v1/langchain/agents/middleware/context_editing.py` at 925aa15fb98e (`ClearToolUsesEdit`: `trigger: int = 100_000`, `clear_at_least: int = 0`, `keep: int = 3`, `DEFAULT_TOOL_PLACEHOLDER = \"[cleared]\"`; `token_count_method=\"approximate\"`; edits a deep copy in `wrap_model_call`); reference.langchain.com `ClearToolUsesEdit`",
	wins:   "past its trigger it sends only the last 3 tool results whole, every older one a one-word placeholder",
	needs:  "masking deeper into the tail (fewer recent outputs kept whole): ours keeps each masked output's key facts and a ref",
	gaps:   "none known for the defaults; a tool result is one `ToolCallResponse` part (LangChain's `ToolMessage`)",
	newRun: func(env peerEnv) peerPolicy {
		return &clearToolUses{
			count: func(in []llms.MessageContent) int { return lcApproxTokens(in[leadingSystem(in):]) },
			trigger: func() int {
				t, _ := scaledTrigger(lcClearTrigger, lcClearModelWindow, env.window, env.budget)
				return t
			}(),
			keep: lcClearKeep, placeholder: lcClearPlaceholder,
		}
	},
}

// clearToolUses is the clear-tool-uses edit of LangChain and Anthropic,
// applied to each request afresh (the history itself is kept whole): when
// count(in) exceeds trigger, the content of every tool result but the
// last keep is replaced by placeholder (clear_at_least 0, no excluded
// tool, tool inputs kept).
type clearToolUses struct {
	count       func([]llms.MessageContent) int
	trigger     int
	keep        int
	placeholder string
}

func (c *clearToolUses) context(_ context.Context, in []llms.MessageContent) []llms.MessageContent {
	if c.count(in) <= c.trigger {
		return in
	}
	refs := toolResults(in)
	if len(refs) <= c.keep {
		return in
	}
	return replaceResults(in, refs[:len(refs)-c.keep], func(toolResultRef) string { return c.placeholder })
}

package main

import (
	"fmt"

	"github.com/tmc/langchaingo/llms"
)

// Anthropic's server-side context editing, strategy clear_tool_uses_20250919
// (beta context-management-2025-06-27), with its documented defaults.
const (
	anthropicClearTrigger     = 100_000 // input tokens
	anthropicClearModelWindow = 200_000 // the Claude models it shipped for
	anthropicClearKeep        = 3       // tool uses
	// anthropicClearPlaceholder stands for the placeholder the API puts in
	// a cleared result: the documentation says only "placeholder text to
	// let Claude know the tool result was removed"; the text is LangChain's,
	// whose edit "mirrors" this one.
	anthropicClearPlaceholder = "[cleared]"
)

var anthropicClearDef = peerDef{
	name: "anthropic-clear-tool-uses",
	doc:  "Anthropic's context editing `clear_tool_uses_20250919`, defaults: on each request whose input tokens exceed the trigger, the oldest tool results are cleared, all but the 3 most recent tool uses, in the request only (the client keeps its history); no summary, no budget enforcement",
	params: func(w, b int) string {
		return fmt.Sprintf("trigger %s input tokens (the whole prompt, system included, with the shared tokenizer); keep 3 tool uses; clear_at_least none; exclude_tools none; clear_tool_inputs false",
			triggerWords(anthropicClearTrigger, anthropicClearModelWindow, w, b))
	},
	source: "platform.claude.com/docs/en/build-with-claude/context-editing (configuration options: trigger default 100,000 input tokens, keep default 3 tool uses, clear_at_least none, exclude_tools none, clear_tool_inputs false; \"clears the oldest tool results in chronological order, replacing them with placeholder text\"; applied server-side, the client keeps the full history); the SDK models `BetaClearToolUses20250919Edit` (anthropic-sdk-ruby)",
	wins:   "past its trigger it sends only the last 3 tool results whole, every older one a placeholder",
	needs:  "masking deeper into the tail (fewer recent outputs kept whole): ours keeps each masked output's key facts and a ref",
	gaps:   "the placeholder's exact text is not public (`[cleared]` used); the server's own tokenizer and the tool definitions' tokens are not known (the shared tokenizer counts the messages)",
	newRun: func(env peerEnv) peerPolicy {
		t, _ := scaledTrigger(anthropicClearTrigger, anthropicClearModelWindow, env.window, env.budget)
		return &clearToolUses{
			count:   func(in []llms.MessageContent) int { return env.counter.CountMessages(in) },
			trigger: t, keep: anthropicClearKeep, placeholder: anthropicClearPlaceholder,
		}
	},
}

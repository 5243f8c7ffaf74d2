package main

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tmc/langchaingo/llms"
)

// OpenAI Codex CLI's auto-compaction (codex-rs).
const (
	// codexTriggerShare is auto_compact_token_limit's default, 90% of the
	// model's context window (codex-rs/protocol/src/openai_models.rs:
	// (context_window * 9) / 10); Codex's context_window is the input
	// room (272,000 for gpt-5-codex, whose output is counted apart), so
	// the share applies to our budget.
	codexTriggerShare = 0.9
	// codexUserMessageMax is COMPACT_USER_MESSAGE_MAX_TOKENS (compact.rs):
	// the most recent user messages kept verbatim, counted as bytes/4.
	codexUserMessageMax   = 20_000
	codexUserModelWindow  = 272_000
	codexTruncationMarker = "…%d tokens truncated…"
	// codexSummaryPrefix paraphrases templates/compact/summary_prefix.md,
	// which starts the summary message (a user message), at about its
	// length.
	codexSummaryPrefix = "You are resuming a task after context compaction. Another language model wrote a handoff summary of the work so far. Take the summary as authoritative for what is done, continue from its next steps and do not reopen finished work unless asked. The tools it used keep their state. The summary:"
)

var codexDef = peerDef{
	name: "codex-cli",
	doc:  "OpenAI Codex CLI auto-compaction: when the context reaches 90% of the input room, the whole history is summarized and replaced, for good, by the most recent user messages verbatim (up to 20,000 tokens, the oldest one cut) followed by the summary as a user message; the instructions (system prompt) are sent apart and stay; no tool call or result survives",
	params: func(w, b int) string {
		return fmt.Sprintf("trigger %s tokens (90%% of the budget); user messages kept: %s tokens", fmtInt(int64(codexTrigger(b))),
			triggerWords(codexUserMessageMax, codexUserModelWindow, w, b))
	},
	source:     "`openai/codex` `codex-rs/core/src/compact.rs` at e06dd0e5d569 (`COMPACT_USER_MESSAGE_MAX_TOKENS = 20_000`, `collect_user_messages`, `build_compacted_history_with_limit`: newest user messages first within the limit, the overflowing one truncated, then the summary prefixed with `SUMMARY_PREFIX`; mid-turn compaction puts the initial context before the last user message); `codex-rs/protocol/src/openai_models.rs` (`auto_compact_token_limit`: `(context_window * 9) / 10`, a configured limit only lowers it); `templates/compact/summary_prefix.md` at 928a707f6a5e",
	wins:       "after a compaction it sends only the user messages and one summary: no tool call or result, no masked history, so the calls after it are small",
	needs:      "to send less after each compaction (a lower reset ratio, a smaller verbatim tail), keeping the facts through the extractor summaries and the recall tool",
	gaps:       "Codex's compaction request is the agent's own model over the whole history (its prefix cached); here the offline summarizer gets that request too (the context as sent plus one instruction, `llmsummary.WithCacheSafe`, the repeated prefix billed as cached, the previous summary read as the parent record) and answers with the rule-based digest of the whole history; in the text-format trajectories (SWE-agent) tool outputs are user messages, which Codex would keep as user messages; the summary prefix is paraphrased at its length; the fallback that drops the oldest items when the compaction request itself overflows is not needed offline",
	summarizes: true,
	newRun:     func(env peerEnv) peerPolicy { return newCodex(env) },
}

// codexTrigger is auto_compact_token_limit at budget bud.
func codexTrigger(bud int) int { return int(codexTriggerShare * float64(bud)) }

// newCodex returns Codex's policy at env: the whole history replaced by
// the recent user messages and the summary.
func newCodex(env peerEnv) *wholeHistory {
	limit, _ := scaledTrigger(codexUserMessageMax, codexUserModelWindow, env.window, env.budget)
	return &wholeHistory{env: env, trigger: codexTrigger(env.budget), prefix: codexSummaryPrefix,
		rebuild: func(history []llms.MessageContent, sum string) []llms.MessageContent {
			return append(codexUserMessages(history, limit), textMessage(llms.ChatMessageTypeHuman, codexSummaryPrefix+"\n"+sum))
		}}
}

// codexUserMessages is build_compacted_history's selection: the text of
// the user messages of history (previous summaries excluded), newest
// first while they fit limit tokens (bytes/4), the one that overflows cut
// to the rest, back in their order.
func codexUserMessages(history []llms.MessageContent, limit int) []llms.MessageContent {
	var texts []string
	for _, m := range history {
		if m.Role != llms.ChatMessageTypeHuman {
			continue
		}
		var b strings.Builder
		for _, p := range m.Parts {
			if t, ok := p.(llms.TextContent); ok {
				if b.Len() > 0 {
					b.WriteByte('\n')
				}
				b.WriteString(t.Text)
			}
		}
		if t := b.String(); t != "" && !strings.HasPrefix(t, codexSummaryPrefix) {
			texts = append(texts, t)
		}
	}
	var picked []string
	remaining := limit
	for i := len(texts) - 1; i >= 0 && remaining > 0; i-- {
		n := (len(texts[i]) + 3) / 4
		if n <= remaining {
			picked = append(picked, texts[i])
			remaining -= n
			continue
		}
		picked = append(picked, truncateMiddle(texts[i], remaining))
		break
	}
	out := make([]llms.MessageContent, 0, len(picked)+1)
	for i := len(picked) - 1; i >= 0; i-- {
		out = append(out, textMessage(llms.ChatMessageTypeHuman, picked[i]))
	}
	return out
}

// truncateMiddle keeps the head and tail of s within about tokens tokens
// (4 bytes each) with a marker of what was cut between them, as Codex's
// truncate_text does. It cuts at rune boundaries.
func truncateMiddle(s string, tokens int) string {
	keep := max(tokens, 0) * 4
	if len(s) <= keep {
		return s
	}
	head, tail := keep/2, keep-keep/2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	start := len(s) - tail
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	cut := (start - head + 3) / 4
	return s[:head] + fmt.Sprintf(codexTruncationMarker, cut) + s[start:]
}

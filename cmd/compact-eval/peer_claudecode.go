package main

import (
	"fmt"
	"strings"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/extractors"
	"github.com/tmc/langchaingo/llms"
)

// Claude Code's auto-compact (services/compact/autoCompact.ts and
// compact.ts of the CLI, read by third parties from its published bundle).
const (
	// ccWindow, ccOutputReserve and ccBuffer give the threshold
	// window - min(max output, 20,000) - 13,000 = 167,000 of a 200k window:
	// 167/180 of the input room, the share applied to our budget.
	ccWindow        = 200_000
	ccOutputReserve = 20_000
	ccBuffer        = 13_000
	// Re-attached after a compaction: the most recently read files, at
	// most 5, 5,000 tokens each, 50,000 in all.
	ccMaxFiles      = 5
	ccTokensPerFile = 5_000
	ccFilesBudget   = 50_000
	// ccSummaryPrefix paraphrases the message that carries the summary.
	ccSummaryPrefix = "This session continues an earlier conversation that ran out of context. Its summary follows:\n"
	ccFileMessage   = "Called the Read tool with the following input: {\"file_path\":%q}\nResult of calling the Read tool:\n%s"
)

var claudeCodeDef = peerDef{
	name: "claude-code",
	doc:  "Claude Code auto-compact: when the context reaches the threshold (200k window - 20k output - 13k buffer, 92.8% of the input room), the whole conversation is replaced, for good, by one summary message, followed by the most recently read files re-attached (up to 5, 5,000 tokens each, 50,000 in all); the system prompt stays",
	params: func(w, b int) string {
		return fmt.Sprintf("trigger %s tokens (167/180 of the budget); re-attached files: at most 5, %s tokens each, %s in all",
			fmtInt(int64(ccTrigger(b))), fmtInt(int64(ccTokensPerFile)), triggerWords(ccFilesBudget, ccWindow, w, b))
	},
	source:     "threshold: `AUTOCOMPACT_BUFFER_TOKENS = 13000` and the output reserve of `min(maxOutput, 20000)` in the CLI bundle (anthropics/claude-code issue #12004, `cli.js`; a maintainer confirms about 83% of a 200K context bar in issue #86863); re-attachment: `POST_COMPACT_MAX_FILES_TO_RESTORE = 5`, `POST_COMPACT_MAX_TOKENS_PER_FILE = 5000`, `POST_COMPACT_TOKEN_BUDGET = 50000` (`compact.ts`, quoted by several third-party readings of the source); code.claude.com docs on auto-compact",
	wins:       "after a compaction it sends one summary and at most 5 re-read files: no tool round, no masked history, so the calls after it are small",
	needs:      "to send less after each compaction (a lower reset ratio, a smaller verbatim tail), keeping the facts through the extractor summaries and the recall tool",
	gaps:       "Claude Code is not open source: the numbers come from third-party readings of its published bundle, not from a stable public source; the file is re-attached as its last read output (Claude Code re-reads it from disk); the time-based clearing of old tool results (microcompact, after an idle gap of about an hour) is not reproduced: replays have no idle time; the summary's 9-section prompt does not reach the offline summarizer; its summarizer call is the agent's own model over the conversation; here the same request (the context as sent plus one instruction, `llmsummary.WithCacheSafe`, the repeated prefix billed as cached, the previous summary read as the parent record) to the offline summarizer",
	summarizes: true,
	newRun:     func(env peerEnv) peerPolicy { return newClaudeCode(env, extractors.Default()) },
}

// ccTrigger is the auto-compact threshold at budget bud.
func ccTrigger(bud int) int {
	return bud * (ccWindow - ccOutputReserve - ccBuffer) / (ccWindow - ccOutputReserve)
}

// newClaudeCode returns Claude Code's policy at env: the whole history
// replaced by the summary and the files read last, found with reg.
func newClaudeCode(env peerEnv, reg *extractors.Registry) *wholeHistory {
	total, _ := scaledTrigger(ccFilesBudget, ccWindow, env.window, env.budget)
	return &wholeHistory{env: env, trigger: ccTrigger(env.budget), prefix: ccSummaryPrefix,
		rebuild: func(history []llms.MessageContent, sum string) []llms.MessageContent {
			files := recentReads(history, reg, env.counter, total)
			return append([]llms.MessageContent{textMessage(llms.ChatMessageTypeHuman, ccSummaryPrefix+sum)}, files...)
		}}
}

// recentReads returns the files read in history, most recent first (at
// most ccMaxFiles), each as a message with its last read output cut to
// ccTokensPerFile tokens, while they fit total tokens together.
func recentReads(history []llms.MessageContent, reg *extractors.Registry, counter *budget.TokenCounter, total int) []llms.MessageContent {
	calls := extractors.CallsByID(history)
	seen := map[string]bool{}
	var out []llms.MessageContent
	used := 0
	refs := toolResults(history)
	for i := len(refs) - 1; i >= 0 && len(out) < ccMaxFiles; i-- {
		call := extractors.ResolveCall(refs[i].resp, calls)
		ts := reg.Extract(call, refs[i].resp.Content)
		if ts.Metadata[extractors.MetaKind] != extractors.KindRead {
			continue
		}
		for _, path := range strings.Split(ts.Metadata[extractors.MetaFilesRead], "\n") {
			if path == "" || seen[path] || len(out) >= ccMaxFiles {
				continue
			}
			seen[path] = true
			m := textMessage(llms.ChatMessageTypeHuman, fmt.Sprintf(ccFileMessage, path, headTokens(refs[i].resp.Content, ccTokensPerFile, counter)))
			n := counter.CountMessage(m)
			if used+n > total {
				return out
			}
			used += n
			out = append(out, m)
		}
	}
	return out
}

// headTokens returns the head of s within tokens tokens of counter.
func headTokens(s string, tokens int, counter *budget.TokenCounter) string {
	if counter.Count(s) <= tokens {
		return s
	}
	r := []rune(s)
	n := min(len(r), tokens*4)
	for n > 0 && counter.Count(string(r[:n])) > tokens {
		n = n * 9 / 10
	}
	return string(r[:n])
}

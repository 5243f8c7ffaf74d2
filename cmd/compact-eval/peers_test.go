package main

import (
	"context"
	"strings"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// stubEnv is a peerEnv whose summarizer records what it was asked and
// answers "SUMMARY n".
type stubEnv struct {
	asked [][]llms.MessageContent
	limit []int
	prev  []string
	sent  [][]llms.MessageContent
}

func (s *stubEnv) env(t *testing.T, window, bud int) peerEnv {
	e := peerEnv{counter: testCounter(t), window: window, budget: bud,
		summarizeReq: func(_ context.Context, r peerSumRequest) string {
			s.asked = append(s.asked, append([]llms.MessageContent(nil), r.msgs...))
			s.limit = append(s.limit, r.maxInput)
			s.prev = append(s.prev, r.previous)
			s.sent = append(s.sent, r.sent)
			return "SUMMARY " + strings.Repeat("x", len(s.asked))
		}}
	e.summarize = func(ctx context.Context, msgs []llms.MessageContent, maxInput int) string {
		return e.summarizeReq(ctx, peerSumRequest{msgs: msgs, maxInput: maxInput})
	}
	return e
}

func textOf(m llms.MessageContent) string {
	var b strings.Builder
	msg.WriteText(&b, m)
	return b.String()
}

func TestScaledTrigger(t *testing.T) {
	got, scaled := scaledTrigger(100_000, 200_000, 32_000, 27_904)
	assert.Equal(t, 16_000, got, "50% of a 200k window is 50% of ours")
	assert.True(t, scaled)
	got, scaled = scaledTrigger(100_000, 200_000, 128_000, 123_904)
	assert.Equal(t, 100_000, got, "it fits the budget: unchanged")
	assert.False(t, scaled)
	got, _ = scaledTrigger(4000, 128_000, 16_000, 12_000)
	assert.Equal(t, 4000, got)
	assert.Contains(t, triggerWords(100_000, 200_000, 32_000, 27_904), "16,000 (100,000 over the budget, scaled to 50.0% of the window")
	assert.Equal(t, "4,000", triggerWords(4000, 128_000, 16_000, 12_000))
}

func TestClearToolUses(t *testing.T) {
	in := agentRun(5, 400)
	before := msg.CloneAll(in)
	c := &clearToolUses{count: testCounter(t).CountMessages, trigger: 10, keep: 3, placeholder: "[cleared]"}
	out := c.context(context.Background(), in)
	refs := toolResults(out)
	require.Len(t, refs, 5)
	for i, r := range refs {
		if i < 2 {
			assert.Equal(t, "[cleared]", r.resp.Content, "the oldest results are cleared")
		} else {
			assert.Len(t, r.resp.Content, 400, "the last 3 are kept")
		}
	}
	assert.NoError(t, compact.CheckToolPairs(out))
	assert.Equal(t, before, in, "the input is not modified")

	c.trigger = testCounter(t).CountMessages(in)
	assert.Equal(t, in, c.context(context.Background(), in), "at the trigger, not over it: nothing cleared")
	c.trigger, c.keep = 10, 9
	assert.Equal(t, in, c.context(context.Background(), in), "no more results than kept")
}

func TestLangChainCountsLikeCountTokensApproximately(t *testing.T) {
	m := llms.TextParts(llms.ChatMessageTypeHuman, strings.Repeat("a", 40))
	// 40 characters + "\n" + the role "human": ceil(46/4) + 3.
	assert.Equal(t, 12+3, lcApproxTokens([]llms.MessageContent{m}))
	assert.Equal(t, 46/4, einoTokens([]llms.MessageContent{m}))
}

func TestLangChainSummarization(t *testing.T) {
	var st stubEnv
	p := &lcSummarization{env: st.env(t, 32_000, 27_904), trigger: lcSummaryTrigger, keepMessages: lcMessagesToKeep}
	in := agentRun(20, 1000) // system, task, 20 rounds of 2, "done": about 5,700 tokens
	out := p.context(context.Background(), in[:len(in)-1])
	require.Len(t, st.asked, 1, "over 4,000 tokens and 20 messages: one summary")
	assert.Equal(t, lcTrimTokens, st.limit[0], "the summarizer sees the last 4,000 tokens")
	assert.Equal(t, llms.ChatMessageTypeSystem, out[0].Role, "the system prompt stays apart")
	assert.True(t, strings.HasPrefix(textOf(out[1]), lcSummaryPrefix+"SUMMARY"), textOf(out[1]))
	assert.Len(t, out, 2+lcMessagesToKeep, "system, summary, the last 20 messages")
	assert.NoError(t, compact.CheckToolPairs(out))
	assert.Equal(t, in[len(in)-1-lcMessagesToKeep:len(in)-1], out[2:])
	assert.Equal(t, "Do the task.", strings.TrimSpace(textOf(st.asked[0][0])), "the task is summarized away")

	// The state is rewritten for good: the next call appends to it and
	// summarizes again (the context is still over 4,000 tokens).
	in2 := agentRun(30, 1000)
	require.Equal(t, in[:len(in)-1], in2[:len(in)-1], "the same run, ten rounds on")
	out2 := p.context(context.Background(), in2[:len(in2)-1])
	require.Len(t, st.asked, 2)
	assert.Equal(t, "SUMMARY x", st.prev[1], "the previous summary is read as such")
	assert.False(t, strings.HasPrefix(textOf(st.asked[1][0]), lcSummaryPrefix), "and not again as a message")
	assert.Equal(t, in2[len(in2)-2], out2[len(out2)-1])
	assert.Len(t, out2, 2+lcMessagesToKeep)
	assert.NoError(t, compact.CheckToolPairs(out2))
}

func TestSafeCutBack(t *testing.T) {
	in := agentRun(3, 10) // 0 system, 1 task, 2 call, 3 result, 4 call, 5 result, ...
	assert.Equal(t, 2, safeCutBack(in, 3), "a cut on a result moves back to its call")
	assert.Equal(t, 4, safeCutBack(in, 4))
	orphan := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "x"), result("zz", "bash", "out"), llms.TextParts(llms.ChatMessageTypeAI, "y")}
	assert.Equal(t, 2, safeCutBack(orphan, 1), "no call found: past the results")
	assert.Equal(t, 4, unitStart(in, 3), "a unit starts after the results")
	assert.Equal(t, 4, unitStart(in, 4))
}

func TestCodexUserMessages(t *testing.T) {
	h := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "first task"),
		llms.TextParts(llms.ChatMessageTypeAI, "ok"),
		llms.TextParts(llms.ChatMessageTypeHuman, codexSummaryPrefix+"\nold summary"),
		llms.TextParts(llms.ChatMessageTypeHuman, strings.Repeat("b", 400)),
		llms.TextParts(llms.ChatMessageTypeHuman, "latest"),
	}
	got := codexUserMessages(h, 1000)
	require.Len(t, got, 3, "previous summaries and assistant messages are left out")
	assert.Equal(t, "first task", textOf(got[0])[:10])
	got = codexUserMessages(h, 52)
	require.Len(t, got, 2, "newest first within the limit: 'latest' (2) then the 400 bytes (100) cut to 50")
	assert.Contains(t, textOf(got[0]), "tokens truncated")
	assert.Equal(t, "latest\n", textOf(got[1]))
	assert.Equal(t, "héllo", truncateMiddle("héllo", 10))
	s := truncateMiddle(strings.Repeat("é", 100), 5)
	assert.True(t, strings.Contains(s, "…") && len(s) < 100, s)
	assert.True(t, strings.ToValidUTF8(s, "?") == s, "cut at rune boundaries")
}

func TestCodexCompaction(t *testing.T) {
	var st stubEnv
	in := agentRun(12, 3000)
	c := testCounter(t)
	bud := c.CountMessages(in) + 100
	p := newCodex(st.env(t, 2*bud, bud))
	out := p.context(context.Background(), in)
	require.Len(t, st.asked, 1, "over 90% of the budget: compacted")
	assert.Equal(t, []llms.MessageContent{in[0], llms.TextParts(llms.ChatMessageTypeHuman, "Do the task."),
		llms.TextParts(llms.ChatMessageTypeHuman, codexSummaryPrefix+"\nSUMMARY x")}, out,
		"the instructions, the user messages verbatim, the summary; no tool round survives")
	next := append(append([]llms.MessageContent(nil), in...), call("n1", "bash", "{}"), result("n1", "bash", "ok"))
	out = p.context(context.Background(), next)
	assert.Len(t, out, 5, "the compacted history grows by the new messages")
	assert.NoError(t, compact.CheckToolPairs(out))
	assert.Len(t, st.asked, 1)
	assert.Equal(t, -1, st.limit[0], "the whole history goes to the summarizer")
	assert.Equal(t, in, st.sent[0], "as the context sent (a cache-safe request)")
}

func TestClaudeCodeCompaction(t *testing.T) {
	var st stubEnv
	in := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "sys"), llms.TextParts(llms.ChatMessageTypeHuman, "fix a.py")}
	for i, f := range []string{"a.py", "b.py", "a.py", "c.py", "d.py", "e.py", "f.py"} {
		id := "r" + string(rune('0'+i))
		in = append(in, call(id, "read_file", `{"path": "`+f+`"}`), result(id, "read_file", "content of "+f+" v"+string(rune('0'+i))+"\n"+strings.Repeat("line\n", 300)))
	}
	c := testCounter(t)
	bud := c.CountMessages(in)
	assert.Equal(t, bud*167/180, ccTrigger(bud))
	reg := extractors.Default()
	p := newClaudeCode(st.env(t, ccWindow, bud), reg) // the whole 50,000 for files
	out := p.context(context.Background(), in)
	require.Len(t, st.asked, 1)
	assert.Len(t, st.asked[0], len(in)-1, "one summary of everything")
	assert.Equal(t, in[0], out[0])
	assert.True(t, strings.HasPrefix(textOf(out[1]), ccSummaryPrefix+"SUMMARY"))
	require.Len(t, out, 2+ccMaxFiles, "the 5 most recently read files are re-attached")
	for i, f := range []string{"f.py", "e.py", "d.py", "c.py", "a.py"} {
		assert.Contains(t, textOf(out[2+i]), `"file_path":"`+f+`"`)
	}
	assert.Contains(t, textOf(out[6]), "content of a.py v2", "a file's last read")
	assert.NoError(t, compact.CheckToolPairs(out))

	files := recentReads(in[1:], reg, c, 10)
	assert.Empty(t, files, "nothing fits a 10-token budget")
	assert.Equal(t, "abc", headTokens("abc", 5, c))
	assert.LessOrEqual(t, c.Count(headTokens(strings.Repeat("word ", 1000), 50, c)), 50)
}

func TestOpenHandsCondenser(t *testing.T) {
	var st stubEnv
	in := agentRun(130, 10) // 2 + 260 + 1 messages
	p := &openhandsCondenser{env: st.env(t, 1_000_000, 1_000_000), maxSize: ohMaxSize, keepFirst: ohKeepFirst}
	out := p.context(context.Background(), in[:len(in)-1])
	require.Len(t, st.asked, 1, "more than 240 events: one condensation")
	assert.Equal(t, in[:2], out[:2], "keep_first 2: the system prompt and the task")
	assert.Equal(t, "SUMMARY x\n", textOf(out[2]))
	tail := len(out) - 3
	assert.InDelta(t, ohMaxSize/2-ohKeepFirst-1, tail, 1, "the tail kept, moved to a unit start")
	assert.NoError(t, compact.CheckToolPairs(out))
	assert.Equal(t, in[2], st.asked[0][0], "the forgotten events start after keep_first")

	// Over the budget: condensation requests halve the view until it fits.
	var st2 stubEnv
	c := testCounter(t)
	small := agentRun(20, 2000)
	bud := c.CountMessages(small) / 3
	p2 := &openhandsCondenser{env: st2.env(t, 2*bud, bud), maxSize: ohMaxSize, keepFirst: ohKeepFirst}
	out = p2.context(context.Background(), small)
	assert.LessOrEqual(t, c.CountMessages(out), bud)
	assert.GreaterOrEqual(t, len(st2.asked), 1)
	assert.NoError(t, compact.CheckToolPairs(out))
}

func TestEinoReduction(t *testing.T) {
	var st stubEnv
	in := agentRun(6, 400)
	in[5] = result("call_ba", "bash", strings.Repeat("z", einoMaxLengthForTrunc+10))
	before := msg.CloneAll(in)
	p := &einoReduction{env: st.env(t, 1_000_000, 1_000_000)}
	out := p.context(context.Background(), in)
	r := toolResults(out)
	require.Len(t, r, 6)
	assert.Contains(t, r[1].resp.Content, "(10 chars truncated, full result saved to /tmp/trunc/", "a large output is cut as it arrives")
	assert.Len(t, r[0].resp.Content, 400, "under the threshold nothing is cleared")
	assert.Equal(t, before, in)

	// Past the threshold every round but the last is cleared, for good.
	p2 := &einoReduction{env: st.env(t, 16_000, 11_904)}
	small := agentRun(6, 16000) // past 160,000 scaled to the window (20,000)
	out = p2.context(context.Background(), small[:len(small)-1])
	r = toolResults(out)
	for i, x := range r {
		if i < len(r)-1 {
			assert.True(t, strings.HasPrefix(x.resp.Content, "Tool result is too large, retrieve from /tmp/clear/"), x.resp.Content)
		} else {
			assert.Len(t, x.resp.Content, 16000, "the last round is kept")
		}
	}
	assert.NoError(t, compact.CheckToolPairs(out))
	out = p2.context(context.Background(), small)
	assert.Equal(t, len(small), len(out))
	assert.Empty(t, st.asked, "eino does not summarize")
}

func TestPeerSenderCountsRewrites(t *testing.T) {
	in := agentRun(6, 400)
	s := &peerSender{inner: &clearToolUses{count: func(m []llms.MessageContent) int { return len(m) }, trigger: 8, keep: 1, placeholder: "[cleared]"}}
	_, info, err := s.send(context.Background(), in[:6])
	require.NoError(t, err)
	assert.False(t, info.compacted, "the first call compacts nothing it had sent")
	_, info, _ = s.send(context.Background(), in[:8])
	assert.False(t, info.compacted, "6 and 8 messages: not over 8, the context only grew")
	_, info, _ = s.send(context.Background(), in[:10])
	assert.True(t, info.compacted, "over the trigger: results it had sent are cleared")
}

// TestPeersOnTestdata replays every peer over the test trajectories at a
// 16k window with the offline summarizer: no errors, tool pairs kept, the
// summarizing peers call the summarizer and are metered.
func TestPeersOnTestdata(t *testing.T) {
	ev, err := evaluate(context.Background(), config{dir: testdataDir, windows: []int{16000}, strategies: append([]string{stratNone}, peerNames()...),
		workers: 2, prices: defaultPrices, llmMode: llmScripted, via: viaMiddleware, plotWindow: 16000}, nil)
	require.NoError(t, err)
	for _, d := range peerDefs {
		r, ok := findRow(ev.rows, 16000, d.name)
		require.True(t, ok, d.name)
		assert.Zero(t, r.failed, d.name)
		assert.Zero(t, r.pairViolations, d.name)
		if d.summarizes {
			assert.Positive(t, r.sumCalls, "%s summarizes at 16k", d.name)
			assert.Positive(t, r.sumIn, d.name)
		} else {
			assert.Zero(t, r.sumCalls, d.name)
		}
		assert.NotEmpty(t, d.params(16000, r.budget), d.name)
		assert.NotEmpty(t, d.source, d.name)
		assert.NotEmpty(t, strategyDoc(d.name), d.name)
	}
	var b strings.Builder
	writePeers(&b, ev)
	for _, want := range []string{"## Peers", "### 16k window, all runs", "`claude-code`", "not reproduced", "peers.png"} {
		assert.Contains(t, b.String(), want)
	}
}

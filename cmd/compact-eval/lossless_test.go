package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/trajectory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

func TestRefTokens(t *testing.T) {
	c := testCounter(t)
	summary := llms.TextParts(llms.ChatMessageTypeHuman, compact.SummaryPreamble+"The agent read a.go."+compact.RecallHint)
	masked := result("c1", "bash", "[✓ bash | exit 0 | 40 lines] ref:abcdefgh")
	cut := llms.TextParts(llms.ChatMessageTypeHuman, "head"+fmt.Sprintf(compact.CutMarker, 120, "zzzz2222")+"tail")
	kept := llms.TextParts(llms.ChatMessageTypeHuman, "kept, with ref:abcdefgh in it")
	res := &compact.Result{
		Messages: []llms.MessageContent{summary, masked, cut, kept},
		Origin:   []int{-1, 1, 2, 3},
		Refs:     []string{"sum11111", "abcdefgh", "zzzz2222", ""},
	}
	diff := func(m llms.MessageContent, bare string) int {
		b := m
		b.Parts = []llms.ContentPart{llms.TextContent{Text: bare}}
		if r, ok := m.Parts[0].(llms.ToolCallResponse); ok {
			r.Content = bare
			b.Parts = []llms.ContentPart{r}
		}
		return c.CountMessage(m) - c.CountMessage(b)
	}
	want := diff(summary, compact.SummaryPreamble+"The agent read a.go.") +
		diff(masked, "[✓ bash | exit 0 | 40 lines]") +
		diff(cut, "head\n[… compact: 120 bytes cut …]\ntail")
	got := refTokens(c, res)
	assert.Equal(t, want, got)
	assert.Greater(t, got, c.Count(compact.RecallHint)/2, "the hint costs tens of tokens")

	// Tool call arguments cut to a JSON object lose their ref too.
	args := call("c9", "bash", `{"compact_cut_arguments": "cat a[… compact: 9 bytes cut, ref:argsref1 …]b"}`)
	res = &compact.Result{Messages: []llms.MessageContent{args}, Origin: []int{0}, Refs: []string{"argsref1"}}
	assert.Positive(t, refTokens(c, res))
	res.Refs[0] = ""
	assert.Zero(t, refTokens(c, res), "a message shown verbatim has no ref")
}

// lossyLossless leaves message 3 out (summarized, it says) from the
// fourth message on, with a recall tool that knows nothing: every check
// fails.
type lossyLossless struct {
	in, sent []llms.MessageContent
	badView  bool
	masked   bool // message 3 is masked, without its ref, rather than left out
}

func (l *lossyLossless) send(_ context.Context, in []llms.MessageContent) ([]llms.MessageContent, callInfo, error) {
	l.in, l.sent = in, in
	if len(in) > 3 {
		l.sent = append(append([]llms.MessageContent(nil), in[:3]...), in[4:]...)
		if l.masked {
			l.sent = append(append(append([]llms.MessageContent(nil), in[:3]...), result("c1", "bash", "[masked]")), in[4:]...)
		}
	}
	return l.sent, callInfo{compacted: len(in) > 3}, nil
}

func (l *lossyLossless) lastResult(context.Context) (*compact.Result, error) {
	res := &compact.Result{Messages: l.sent, States: make([]compact.MessageState, len(l.in)), Refs: make([]string, len(l.in))}
	for i := range l.in {
		if len(l.in) > 3 && i == 3 {
			res.States[3], res.Refs[3] = compact.StateSummarized, "lost0001"
			if !l.masked {
				continue
			}
			res.States[3] = compact.StateMasked
		}
		res.Origin = append(res.Origin, i)
	}
	if l.badView {
		res.Messages = res.Messages[1:]
	}
	return res, nil
}

func (l *lossyLossless) recall(_ context.Context, input string) (string, error) {
	return "recall: no original with " + input + " in this session; give a ref a compaction marker shows, or words to search for.", nil
}

func TestRecallFailuresReported(t *testing.T) {
	c := testCounter(t)
	msgs := append(conversation(), llms.TextParts(llms.ChatMessageTypeAI, "done"))
	st := strategy{name: "ours-fake", budget: 10_000, newRun: func(string) sender { return &lossyLossless{} }}
	res := replayRun(context.Background(), "f.jsonl", msgs, st, 16_000, c, nil)
	rc := res.recall
	require.True(t, rc.measured)
	assert.Equal(t, 1, rc.originals)
	assert.Zero(t, rc.byRef)
	assert.Equal(t, 1, rc.searchable, "message 3 has a line of its own")
	assert.Zero(t, rc.bySearch)
	assert.Equal(t, 2, rc.checks, "its first compaction and the last call")
	assert.Equal(t, 3, rc.failed, "twice by ref, once by search")
	require.NotEmpty(t, rc.failures)
	f := rc.failures[0]
	assert.Equal(t, "f.jsonl", f.file)
	assert.Equal(t, 4, f.call)
	assert.Equal(t, "lost0001", f.ref)
	assert.Contains(t, f.String(), "f.jsonl, call at message 4, ref:lost0001 (summarized), by ref:")

	ev := &evaluation{cfg: config{windows: []int{16_000}, strategies: []string{"none", "ours-fake"}}, files: []string{"f.jsonl"},
		results: []runResult{res, replayRun(context.Background(), "f.jsonl", msgs, strategy{name: "none", newRun: func(string) sender { return noneSender{} }}, 16_000, c, nil)}}
	ev.rows = aggregate(ev.results, ev.cfg.windows, ev.cfg.strategies, defaultPrices)
	report := renderReport(ev)
	assert.Contains(t, report, "- `ours-fake` at 16k: 3 recall checks failed; the first (each original once per way, at its first failing checkpoint):\n  - f.jsonl, call at message 4, ref:lost0001 (summarized), by ref:")
	assert.Len(t, rc.failures, 2, "the second failure by ref of the same original is not listed again")
	assert.Contains(t, report, "by search: a search for ")
	assert.Contains(t, report, "| ours-fake | 1 | 0.0% | 1 | 0.0% | 2 | 3 |")
	assert.Contains(t, report, "| none | n/a | n/a |")
	var out strings.Builder
	printTables(&out, ev)
	assert.Contains(t, out.String(), "ours-fake at 16k: 3 recall checks failed; first: f.jsonl")
	assert.Contains(t, out.String(), "recall (ours, all windows): by ref 0.0% of 1 compacted originals, by search 0.0% of 1 searchable; 3 failed checks")

	st.newRun = func(string) sender { return &lossyLossless{masked: true} }
	res = replayRun(context.Background(), "f.jsonl", msgs, st, 16_000, c, nil)
	require.NotEmpty(t, res.recall.failures)
	assert.Equal(t, "the masked message sent for it does not show ref:lost0001", res.recall.failures[0].err)

	st.newRun = func(string) sender { return &lossyLossless{badView: true} }
	res = replayRun(context.Background(), "f.jsonl", msgs, st, 16_000, c, nil)
	require.NotEmpty(t, res.recall.failures)
	assert.Equal(t, "result", res.recall.failures[0].how)
	assert.Contains(t, res.recall.failures[0].err, "are not the")
	assert.Zero(t, res.recall.originals, "nothing checked without a result")
}

// TestRecallViaEngine: with -via engine the originals live in a memory
// store, and recall brings them all back.
func TestRecallViaEngine(t *testing.T) {
	msgs, err := trajectory.ReadFile(filepath.Join(testdataDir, "mini-gemini3pro__django__django-10973.jsonl"))
	require.NoError(t, err)
	env := testEnv(t)
	env.via = viaEngine
	for _, name := range []string{stratOursMask, stratOursRule} {
		st, err := newStrategy(name, 16_000, env)
		require.NoError(t, err)
		res := replayRun(context.Background(), "d.jsonl", msgs, st, 16_000, env.counter, nil)
		rc := res.recall
		require.True(t, rc.measured, name)
		assert.Zero(t, rc.failed, "%s: %v", name, rc.failures)
		assert.Positive(t, rc.originals, name)
		assert.Equal(t, rc.originals, rc.byRef, name)
		assert.Positive(t, rc.searchable, name)
		assert.Equal(t, rc.searchable, rc.bySearch, name)
		assert.Positive(t, rc.refTokens, name)
	}
}

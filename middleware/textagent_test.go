package middleware

import (
	"context"
	"fmt"
	"github.com/agentcompact/compact/internal/msg"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/tools"
)

// fileTool is a real read_file tool over dir.
type fileTool struct{ dir string }

func (fileTool) Name() string        { return "read_file" }
func (fileTool) Description() string { return "Reads a file; input: its path." }
func (f fileTool) Call(_ context.Context, in string) (string, error) {
	b, err := os.ReadFile(filepath.Join(f.dir, filepath.Base(strings.TrimSpace(in))))
	if err != nil {
		return "error: " + err.Error(), nil
	}
	return string(b), nil
}

// fixedTool returns the same output for any input.
type fixedTool struct{ name, out string }

func (f fixedTool) Name() string                                 { return f.name }
func (f fixedTool) Description() string                          { return "returns a fixed text" }
func (f fixedTool) Call(context.Context, string) (string, error) { return f.out, nil }

// goFiles returns the package's own non-test Go files, largest first.
func goFiles(t testing.TB) []string {
	t.Helper()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var out []string
	for _, n := range names {
		if !strings.HasSuffix(n, "_test.go") {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// textAgentScript answers as a text agent would: one read_file action per
// file, then the final answer.
func textAgentScript(kind string, files []string) func(int, []llms.MessageContent) (*llms.ContentResponse, error) {
	return func(n int, _ []llms.MessageContent) (*llms.ContentResponse, error) {
		if n > len(files) {
			if kind == "conversational" {
				return textResponse(" Do I need to use a tool? No\nAI: I read them all."), nil
			}
			return textResponse("Thought: I now know the final answer\nFinal Answer: I read them all."), nil
		}
		f := files[n-1]
		if kind == "conversational" {
			return textResponse(" Do I need to use a tool? Yes\nAction: read_file\nAction Input: " + f), nil
		}
		return textResponse(fmt.Sprintf("Thought: I should read %s next.\nAction: read_file\nAction Input: %s", f, f)), nil
	}
}

func newTextAgent(kind string, llm llms.Model, tl []tools.Tool) agents.Agent {
	if kind == "conversational" {
		return agents.NewConversationalAgent(llm, tl)
	}
	return agents.NewOneShotAgent(llm, tl)
}

// textPrompts runs a text agent of kind over files with an unwrapped
// recorder and returns the prompts it sent.
func textPrompts(t *testing.T, kind string, tl []tools.Tool, files []string) []string {
	t.Helper()
	rec := &recorder{reply: textAgentScript(kind, files)}
	_, err := chains.Run(context.Background(), agents.NewExecutor(newTextAgent(kind, rec, tl), agents.WithMaxIterations(len(files)+2)), "What do these files do?")
	require.NoError(t, err)
	var out []string
	for _, c := range rec.received() {
		require.Len(t, c, 1)
		out = append(out, text(c[0]))
	}
	return out
}

func TestParseScratchpad(t *testing.T) {
	tricky := "package x\n\nAction: the action to take, should be one of [ a, b ]\nAction Input: the input to the action\nObservation: the result of the action\nThought: not a step\n\nObservation: still not a step\n"
	for _, kind := range []string{"mrkl", "conversational"} {
		t.Run(kind, func(t *testing.T) {
			files := []string{"a.go", "b.go", "c.go"}
			tl := []tools.Tool{fixedTool{"read_file", tricky}, fixedTool{"grep", "x"}}
			prompts := textPrompts(t, kind, tl, files)
			require.Len(t, prompts, 4)
			_, ok := parseScratchpad(prompts[0])
			assert.False(t, ok, "the first prompt has no step (its format instructions are not one)")
			var head string
			for i, p := range prompts[1:] {
				tp, ok := parseScratchpad(p)
				require.True(t, ok, "prompt %d", i+1)
				require.Len(t, tp.steps, i+1)
				assert.Equal(t, p, tp.text(), "exact reassembly")
				if i == 0 {
					head = tp.head
					assert.Equal(t, msg.TrimRightSpace(prompts[0]), msg.TrimRightSpace(head), "the head is the first prompt")
				}
				assert.Equal(t, head, tp.head, "the head is stable")
				for k, s := range tp.steps {
					assert.Equal(t, "read_file", s.action)
					assert.Equal(t, files[k], s.input)
					assert.Equal(t, strings.TrimRight(tricky, "\n"), s.obs)
					assert.Contains(t, s.log, "Action: read_file")
				}
			}
			if kind == "mrkl" {
				assert.True(t, strings.HasSuffix(head, "Question: What do these files do?\n\n"), "%q", head[len(head)-40:])
			} else {
				assert.True(t, strings.HasSuffix(head, "New input: What do these files do?\n\nThought:"), "%q", head[len(head)-40:])
			}
		})
	}
}

func TestParseTextAgentRejects(t *testing.T) {
	step := "Q\nThought: t\nAction: grep\nAction Input: x\nObservation: y\n"
	tests := []struct {
		name string
		msgs []llms.MessageContent
	}{
		{name: "empty"},
		{name: "no observation", msgs: []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "Action: grep\nAction Input: x\n")}},
		{name: "observation without action", msgs: []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "notes\nObservation: y\n")}},
		{name: "only the format instructions", msgs: []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "Action: the action to take, should be one of [ a ]\nAction Input: the input\nObservation: the result\n")}},
		{name: "not the last message", msgs: []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, step), llms.TextParts(llms.ChatMessageTypeAI, "ok")}},
		{name: "after a non-system message", msgs: []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeAI, "hi"), llms.TextParts(llms.ChatMessageTypeHuman, step)}},
		{name: "two parts", msgs: []llms.MessageContent{{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.TextPart(step), llms.TextPart("x")}}}},
		{name: "assistant role", msgs: []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeAI, step)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ok := parseTextAgent(tt.msgs)
			assert.False(t, ok)
		})
	}
	tp, ok := parseTextAgent([]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "sys"), llms.TextParts(llms.ChatMessageTypeHuman, step)})
	require.True(t, ok, "system messages may lead")
	assert.Len(t, tp.lead, 1)
	assert.Equal(t, "Q\n", tp.head)
}

func TestTextAgentRoundTrip(t *testing.T) {
	prompts := textPrompts(t, "mrkl", []tools.Tool{fileTool{"."}}, goFiles(t)[:3])
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "sys"), llms.TextParts(llms.ChatMessageTypeHuman, prompts[len(prompts)-1])}
	tp, ok := parseTextAgent(msgs)
	require.True(t, ok)
	st := tp.structured()
	require.NoError(t, compact.CheckToolPairs(st))
	assert.Len(t, st, 2+2*3)
	assert.Equal(t, msgs, tp.flatten(st), "without compaction the prompt is unchanged")
}

// TestTextAgentCompaction runs real text agents reading this package's own
// source through Wrap with a small window: old observations are condensed
// by the extractors and old steps summarized, the head is kept, the latest
// observation is verbatim, and every prompt fits the budget.
func TestTextAgentCompaction(t *testing.T) {
	files := goFiles(t)
	require.GreaterOrEqual(t, len(files), 6)
	for _, kind := range []string{"mrkl", "conversational"} {
		t.Run(kind, func(t *testing.T) {
			c := newCompactor(t, 12_000)
			rec := &recorder{reply: textAgentScript(kind, files)}
			var infos []CallInfo
			llm := Wrap(rec, c, WithObserver(func(i CallInfo) { infos = append(infos, i) }))
			tool := fileTool{"."}
			_, err := chains.Run(context.Background(), agents.NewExecutor(newTextAgent(kind, llm, []tools.Tool{tool}), agents.WithMaxIterations(len(files)+2)), "What do these files do?")
			require.NoError(t, err)
			got := rec.received()
			require.Len(t, got, len(files)+1)
			compactions := 0
			var head string
			for i, sent := range got {
				info := infos[i]
				require.Len(t, sent, 1)
				p := text(sent[0])
				require.LessOrEqual(t, c.CountTokens(sent), info.Budget, "call %d fits", i)
				if i == 0 {
					head = p
					continue
				}
				assert.True(t, info.TextAgent, "call %d recognized", i)
				assert.Equal(t, i, info.Steps)
				require.True(t, strings.HasPrefix(p, msg.TrimRightSpace(head)), "call %d keeps the head", i)
				last, _ := tool.Call(context.Background(), files[i-1])
				assert.Contains(t, p, "Observation: "+strings.TrimRight(last, "\n"), "call %d: the latest observation is verbatim", i)
				compactions += len(info.Compactions)
				assert.Equal(t, infos[0].SessionID, info.SessionID, "one session for the run, first call included")
			}
			require.Positive(t, compactions, "the run compacted")
			final := text(got[len(got)-1][0])
			first, _ := tool.Call(context.Background(), files[0])
			assert.NotContains(t, final, first, "the first file is no longer verbatim")
			assert.Contains(t, final, "Action Input: "+files[len(files)-1])
			tp, ok := parseScratchpad(final)
			require.True(t, ok, "the compacted prompt is still a scratchpad")
			assert.Equal(t, msg.TrimRightSpace(head), msg.TrimRightSpace(tp.head[:min(len(tp.head), len(msg.TrimRightSpace(head)))]))
		})
	}
}

// scratchStep is where a parsed step lies in the prompt: its log's start,
// its obsMarker, its action and input.
type scratchStep struct {
	start, marker int
	action, input string
}

// refScratchSteps is parseScratchpad's choice of steps as it was first
// written: at every obsMarker, the whole region since the last step is
// searched for its last action line (quadratic while no step is found).
func refScratchSteps(text string) []scratchStep {
	var out []scratchStep
	from := 0
	for pos := 0; ; {
		k := strings.Index(text[pos:], obsMarker)
		if k < 0 {
			return out
		}
		p := pos + k
		pos = p + len(obsMarker)
		region := text[from:p]
		all := actionLine.FindAllStringSubmatchIndex(region, -1)
		if len(all) == 0 {
			continue
		}
		loc := all[len(all)-1]
		if action := region[loc[2]:loc[3]]; plausibleTool(action) {
			out = append(out, scratchStep{from + logStart(region, loc[0], len(out) == 0), p, action, strings.TrimSpace(region[loc[1]:])})
			from = pos
		}
	}
}

// FuzzParseScratchpad checks parseScratchpad's steps, searched only in
// what the last search did not cover, against searching the whole region
// at every marker (refScratchSteps), and that the prompt reassembles.
func FuzzParseScratchpad(f *testing.F) {
	step := "Thought: look\nAction: read_file\nAction Input: a.go\nObservation: package a\n\n"
	f.Add("Answer the question.\n\n" + step + step + "Thought:")
	f.Add("Do I need to use a tool? Yes\nAction: grep\nAction Input: x\nObservation: found\nThought: Do I need to use a tool? Yes\nAction: grep\nAction Input: y\nObservation: none\nThought:")
	f.Add("Action: the action to take, should be one of [ a, b ]\nAction Input: the input\nObservation: the result\n" + step)
	f.Add("Action: read_file\nAction Input: a.go" + strings.Repeat("\nObservation: x", 50) + "\nAction: grep\nAction Input: y\nObservation: z")
	f.Add("ok\nAction: bash\nAction I}put: rm -rf /" + strings.Repeat("\nObservation: done", 30) + "\nAction: [x]\nAction Input: q\nObservation: w")
	f.Fuzz(func(t *testing.T, text string) {
		want := refScratchSteps(text)
		tp, ok := parseScratchpad(text)
		if !ok {
			require.Empty(t, want, "no step found in %q", text)
			return
		}
		require.Equal(t, text, tp.text())
		var got []scratchStep
		at := len(tp.head)
		for _, s := range tp.steps {
			got = append(got, scratchStep{at, at + len(s.log), s.action, s.input})
			at += len(s.log) + len(obsMarker) + len(s.obs) + len(s.post)
		}
		require.Equal(t, want, got, "steps of %q", text)
	})
}

// BenchmarkParseScratchpadMarkers parses a prompt whose observations hold
// many "Observation:" lines and no step between them: the search covers
// each part of the prompt once, not once per marker.
func BenchmarkParseScratchpadMarkers(b *testing.B) {
	for _, n := range []int{100, 1000} {
		text := "Thought: look\nAction: read_file\nAction Input: a.go" + strings.Repeat("\nObservation: a line of the file", n) + "\n"
		b.Run(fmt.Sprintf("markers=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, ok := parseScratchpad(text); !ok {
					b.Fatal("no step")
				}
			}
		})
	}
}

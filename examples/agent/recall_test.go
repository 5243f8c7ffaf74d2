package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/internal/scripted"
	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/summary"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

func toolResult(id, name, content string) llms.MessageContent {
	return llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
		llms.ToolCallResponse{ToolCallID: id, Name: name, Content: content}}}
}

func TestCondensedOutput(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"[✓ read_file: File: a.go | Lines: 3]", true},
		{"[✓ read_file: File: a.go | Lines: 3] ref:abcd2345", true},
		{"[❌ go_vet: exit 1] ref:abcd2345", true},
		{"[✓ read_file: File: a.go]\npackage a", false},
		{"[✓ read_file: File: a.go] ref:abcd2345 and more", false},
		{"package a", false},
		{"", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, condensedOutput(tt.in), "%q", tt.in)
	}
}

func TestCondensedRef(t *testing.T) {
	msgs := []llms.MessageContent{
		toolResult("c1", "list_dir", "[✓ list_dir: 3 entries] ref:aaaa2222"),
		toolResult("c2", "read_file", "package a // ref:bbbb3333 in a verbatim output is not a marker"),
		toolResult("c3", "read_file", "[✓ read_file: File: a.go | Lines: 3] ref:cccc4444"),
		toolResult("c4", "read_file", "package b"),
	}
	assert.Equal(t, "cccc4444", condensedRef(msgs), "the newest condensed output")
	assert.Equal(t, "aaaa2222", condensedRef(msgs[:2]))
	assert.Empty(t, condensedRef(msgs[1:2]))
	assert.Empty(t, condensedRef([]llms.MessageContent{toolResult("c1", "x", "[✓ x: y] ref:UPPER234")}), "not a ref of the engine")
}

// step calls the scripted model and returns its tool call (name and
// argument), or its answer as name "".
func step(t *testing.T, s *scriptedAgent, msgs []llms.MessageContent, opts ...llms.CallOption) (string, string) {
	t.Helper()
	resp, err := s.GenerateContent(context.Background(), msgs, opts...)
	require.NoError(t, err)
	require.Len(t, resp.Choices, 1)
	c := resp.Choices[0]
	if len(c.ToolCalls) == 0 {
		return "", c.Content
	}
	var args map[string]string
	require.NoError(t, json.Unmarshal([]byte(c.ToolCalls[0].FunctionCall.Arguments), &args))
	return c.ToolCalls[0].FunctionCall.Name, args["__arg1"]
}

func TestScriptedRecallsOnce(t *testing.T) {
	withRecall := llms.WithFunctions([]llms.FunctionDefinition{{Name: "read_file"}, {Name: recallName}})
	for _, offer := range []bool{true, false} {
		var opts []llms.CallOption
		if offer {
			opts = append(opts, withRecall)
		}
		s := &scriptedAgent{maxFiles: 3}
		var msgs []llms.MessageContent
		name, _ := step(t, s, msgs, opts...)
		require.Equal(t, "list_dir", name)
		msgs = append(msgs, toolResult("c1", "list_dir", "       120  a.go\n       130  b.go\n       140  c.go\n"))
		name, _ = step(t, s, msgs, opts...)
		require.Equal(t, "grep", name)
		msgs = append(msgs, toolResult("c2", "grep", "a.go:3:func NewA() {}\n"))
		name, arg := step(t, s, msgs, opts...)
		require.Equal(t, "read_file", name)
		require.Equal(t, "a.go", arg)
		// A compaction condensed the listing: the model recalls it by its
		// ref when recall is offered, then reads on.
		msgs[0] = toolResult("c1", "list_dir", "[✓ list_dir: 3 entries] ref:abcd2345")
		msgs = append(msgs, toolResult("c3", "read_file", "package a"))
		name, arg = step(t, s, msgs, opts...)
		if offer {
			require.Equal(t, recallName, name)
			assert.Equal(t, "ref:abcd2345", arg)
			msgs = append(msgs, toolResult("c4", recallName, "       120  a.go\n"))
			name, arg = step(t, s, msgs, opts...)
		}
		require.Equal(t, "read_file", name, "offered %v", offer)
		assert.Equal(t, "b.go", arg)
		msgs = append(msgs, toolResult("c5", "read_file", "package b"))
		name, arg = step(t, s, msgs, opts...)
		require.Equal(t, "read_file", name, "recall is called once")
		assert.Equal(t, "c.go", arg)
		msgs = append(msgs, toolResult("c6", "read_file", "package c"))
		name, _ = step(t, s, msgs, opts...)
		require.Equal(t, "go_vet", name)
		msgs = append(msgs, toolResult("c7", "go_vet", "go vet .: no issues found"))
		name, answer := step(t, s, msgs, opts...)
		require.Empty(t, name)
		assert.Contains(t, answer, "read 3 files (a.go, b.go, c.go)")
		assert.Contains(t, answer, "1 condensed to their key facts")
		if offer {
			assert.Contains(t, answer, "recalled one condensed output by its ref (ref:abcd2345)")
		} else {
			assert.NotContains(t, answer, "recalled")
		}
	}
}

func TestScriptedSummarizes(t *testing.T) {
	c, err := budget.NewCounter("gpt-4o")
	require.NoError(t, err)
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Explore the project."),
		toolResult("c1", "read_file", "package compact\n\nfunc New() {}\n"),
	}
	req := summary.Request{Messages: msgs, Depth: 1, MaxTokens: 200, MaxInputTokens: 4000, Count: c.Count}

	s := &scriptedAgent{maxFiles: 1, summaries: scripted.Model{}}
	rec, err := scripted.NewSummarizer(s).Summarize(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, summary.ModeLLM, rec.Mode)
	assert.NotEmpty(t, rec.Summary)
	assert.Zero(t, s.step, "a summarizer call is no step of the script")

	_, err = (&scriptedAgent{}).GenerateContent(summary.MarkSummarizerCall(context.Background()), nil)
	assert.ErrorContains(t, err, "no summarizer model")
}

func TestLocate(t *testing.T) {
	original := "package a\n\nfunc A() {}\n"
	built := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "task"),
		toolResult("c1", "read_file", original),
		toolResult("c2", "read_file", "package b"),
	}
	sent := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "task"),
		toolResult("c1", "read_file", "[✓ read_file: File: a.go | Lines: 3] ref:abcd2345"),
		toolResult("c2", "read_file", "package b"),
	}
	marker, got, tool, ok := locate("abcd2345", sent, built)
	require.True(t, ok)
	assert.Equal(t, "[✓ read_file: File: a.go | Lines: 3] ref:abcd2345", marker)
	assert.Equal(t, original, got)
	assert.Equal(t, "read_file", tool, "no call in built: the response's name")

	built = append([]llms.MessageContent{{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: "c1", Type: "function",
		FunctionCall: &llms.FunctionCall{Name: "read_file", Arguments: `{"__arg1":"a.go"}`}}}}}, built...)
	_, _, tool, ok = locate("abcd2345", sent, built)
	require.True(t, ok)
	assert.Equal(t, "read_file a.go", tool, "the call's name and argument")

	// A cut marker in a text stands for no tool output.
	sent[0] = llms.TextParts(llms.ChatMessageTypeHuman, "head\n[… compact: 300 bytes cut, ref:efgh6777 …]\ntail")
	marker, _, _, ok = locate("efgh6777", sent, built)
	assert.False(t, ok)
	assert.Equal(t, "[… compact: 300 bytes cut, ref:efgh6777 …]", marker)

	marker, _, _, ok = locate("zzzz2222", sent, built)
	assert.False(t, ok)
	assert.Empty(t, marker)
}

func TestDescribeCall(t *testing.T) {
	tests := []struct{ args, want string }{
		{"a.go", "read_file a.go"},
		{`{"__arg1":"a.go"}`, "read_file a.go"},
		{`{"path":"a.go","n":"2"}`, "read_file"},
		{"", "read_file"},
		{"two\nlines", "read_file"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, describeCall(&llms.FunctionCall{Name: "read_file", Arguments: tt.args}), "%q", tt.args)
	}
}

func TestReportRecall(t *testing.T) {
	original := "package a\n\nfunc A() {}\n"
	tests := []struct {
		name string
		uses []recallUse
		want []string
	}{
		{name: "not called", want: []string{"none: the model did not call the recall tool"}},
		{name: "round trip", uses: []recallUse{{call: 7, input: "ref:abcd2345", ref: "abcd2345",
			marker: "[✓ read_file: File: a.go] ref:abcd2345", output: "ref:abcd2345 lines 1-3 of 3 (tool):\n1: package a\n2: \n3: func A() {}",
			original: original, originalTool: "read_file a.go", originalFound: true, recalled: "package a\n\nfunc A() {}", pages: 1}},
			want: []string{"marker sent at call 7: [✓ read_file: File: a.go] ref:abcd2345", "ref in the marker:     ref:abcd2345",
				"recall tool input:     ref:abcd2345", "recall answered with 4 lines; the first 4:", "    | 1: package a",
				"recalled text matches the original: yes (the read_file a.go output the agent had seen, 23 bytes, 1 page)"}},
		{name: "mismatch", uses: []recallUse{{call: 7, input: "ref:abcd2345", ref: "abcd2345",
			output: "ref:abcd2345 lines 1-1 of 1 (tool):\n1: other", recalled: "other", pages: 2, original: original, originalTool: "read_file", originalFound: true}},
			want: []string{"recalled text matches the original: no (5 bytes recalled in 2 pages; the read_file output the agent had seen has 23)"}},
		{name: "not a page", uses: []recallUse{{call: 7, input: "ref:abcd2345", ref: "abcd2345",
			output: "recall: no original with ref:abcd2345 in this session", originalFound: true}},
			want: []string{"recalled text matches the original: not checked (the answer is no original)"}},
		{name: "no tool output", uses: []recallUse{{call: 7, input: "ref:abcd2345", ref: "abcd2345",
			output: "ref:abcd2345 lines 1-1 of 1 (user):\n1: x", recalled: "x", pages: 1}},
			want: []string{"not checked (the marker does not stand for a tool output)"}},
		{name: "search", uses: []recallUse{{call: 3, input: "func A", output: "found"}},
			want: []string{"recall tool input:     func A", "    | found"}},
		{name: "failed", uses: []recallUse{{call: 3, input: "ref:abcd2345", err: errors.New("boom")}},
			want: []string{"recall failed: boom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			reportRecall(&b, tt.uses)
			assert.True(t, strings.HasPrefix(b.String(), "\nRecall:\n"), b.String())
			for _, w := range tt.want {
				assert.Contains(t, b.String(), w)
			}
		})
	}
}

func TestClip(t *testing.T) {
	assert.Equal(t, "short", clip("short", 10))
	got := clip(strings.Repeat("a", 50)+"ref:abcd2345", 40)
	assert.True(t, strings.HasSuffix(got, "ref:abcd2345"), got)
	assert.Contains(t, got, " … ")
}

// recallOver returns the recall tool over one session of originals, with
// a small cap so that originals take several pages.
func recallOver(t *testing.T, maxTokens int, originals ...store.Original) *recall.Tool {
	t.Helper()
	s := store.NewMemory()
	require.NoError(t, s.PutOriginals(context.Background(), "s", originals))
	return recall.New(func(context.Context) (recall.Source, error) { return recall.StoreSource(s, "s"), nil },
		recall.WithMaxTokens(maxTokens))
}

func TestReadPages(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 120; i++ {
		fmt.Fprintf(&b, "line %d of a long file, with some words to count\n", i)
	}
	long := b.String()
	tool := recallOver(t, 300,
		store.Original{Ref: "abcd2345", Role: llms.ChatMessageTypeTool, Name: "read_file", Text: long},
		store.Original{Ref: "efgh6777", Role: llms.ChatMessageTypeTool, Text: "one line, no break"},
		store.Original{Ref: "ijkl2345", Role: llms.ChatMessageTypeTool, Text: ""})
	ctx := context.Background()
	tests := []struct {
		ref       string
		want      string
		morePages bool
	}{
		{"abcd2345", strings.TrimSuffix(long, "\n"), true},
		{"efgh6777", "one line, no break", false},
		{"ijkl2345", "", false},
	}
	for _, tt := range tests {
		first, err := tool.Call(ctx, "ref:"+tt.ref)
		require.NoError(t, err)
		got, pages, err := readPages(ctx, tool, first)
		require.NoError(t, err, tt.ref)
		assert.Equal(t, tt.want, got, tt.ref)
		if tt.morePages {
			assert.Greater(t, pages, 1, "%s takes several pages", tt.ref)
		} else {
			assert.Equal(t, 1, pages, tt.ref)
		}
	}

	// An answer that is no page: nothing read.
	answer, err := tool.Call(ctx, "ref:zzzz2222")
	require.NoError(t, err)
	got, pages, err := readPages(ctx, tool, answer)
	assert.NoError(t, err)
	assert.Zero(t, pages)
	assert.Empty(t, got)

	// A next page that is no page is an error that says which.
	_, _, err = readPages(ctx, fakeTool("recall: something else"), "ref:abcd2345 lines 1-1 of 2 (tool):\n1: a\n"+
		`... 1 more lines: call recall with "ref:abcd2345 lines 2-2" for more`)
	assert.ErrorContains(t, err, "page 2 of the recalled original is not a page")
}

// fakeTool answers every call with its text.
type fakeTool string

func (f fakeTool) Name() string                                 { return recallName }
func (f fakeTool) Description() string                          { return "a fake recall tool" }
func (f fakeTool) Call(context.Context, string) (string, error) { return string(f), nil }

// TestRecallRecorder: the recorder finds the marker in the sent context,
// the original in the built one, and reads every page of the answer.
func TestRecallRecorder(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 80; i++ {
		fmt.Fprintf(&b, "func helper%d() int { return %d }\n", i, i)
	}
	original := b.String()
	built := &tap{last: []llms.MessageContent{
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: "c1", Type: "function",
			FunctionCall: &llms.FunctionCall{Name: "read_file", Arguments: `{"__arg1":"helpers.go"}`}}}},
		toolResult("c1", "", original),
	}}
	sent := &tap{last: []llms.MessageContent{built.last[0], toolResult("c1", "", "[✓ read_file: File: helpers.go | Lines: 80] ref:abcd2345")}}
	var said []string
	r := &recallRecorder{Tool: recallOver(t, 400, store.Original{Ref: "abcd2345", Role: llms.ChatMessageTypeTool, Text: original}),
		built: built, sent: sent, calls: func() int { return 5 },
		say: func(format string, args ...any) { said = append(said, fmt.Sprintf(format, args...)) }}
	out, err := r.Call(context.Background(), "ref:abcd2345")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(out, "ref:abcd2345 lines 1-"), out)
	assert.Equal(t, []string{"recall ref:abcd2345 → " + strconv.Itoa(lineCount(out)) + " lines"}, said)

	uses := r.used()
	require.Len(t, uses, 1)
	u := uses[0]
	assert.Equal(t, 5, u.call)
	assert.Equal(t, "[✓ read_file: File: helpers.go | Lines: 80] ref:abcd2345", u.marker)
	assert.Equal(t, "read_file helpers.go", u.originalTool)
	assert.Greater(t, u.pages, 1)
	assert.Equal(t, strings.TrimSuffix(original, "\n"), u.recalled)
	var rep bytes.Buffer
	reportRecall(&rep, uses)
	assert.Contains(t, rep.String(), "recalled text matches the original: yes (the read_file helpers.go output the agent had seen")

	// A search records no ref and reads no pages.
	_, err = r.Call(context.Background(), "helper17")
	require.NoError(t, err)
	assert.Empty(t, r.used()[1].ref)
	assert.Zero(t, r.used()[1].pages)
}

func TestRefInput(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ref:abcd2345", "abcd2345"},
		{"  ref:abcd2345 lines 40-80", "abcd2345"},
		{"REF:abcd2345", "abcd2345"},
		{"ref:a.b_c-d", "a.b_c-d"},
		{"ref:abcd2345, please", ""},
		{"helper17(", ""},
		{"where is ref:abcd2345", ""},
	}
	for _, tt := range tests {
		got := ""
		if m := refInputRe.FindStringSubmatch(tt.in); m != nil {
			got = m[1]
		}
		assert.Equal(t, tt.want, got, "%q", tt.in)
	}
}

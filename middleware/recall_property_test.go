package middleware

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/recallcheck"
	"github.com/agentcompact/compact/internal/refid"
	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// genRecallConversation returns a random agent conversation of about n
// messages: a system prompt, user turns, assistant text and tool calls
// (sometimes several per message) with their outputs. Outputs are
// multi-line: boilerplate lines shared by many messages, lines of their
// own, blank lines, invalid UTF-8, non-ASCII text, sometimes a final line
// break, sometimes empty; some outputs repeat an earlier one exactly. Every
// line is shorter than a page of the recall tool (a longer line comes back
// cut, see TestRecallLineLongerThanAPage).
func genRecallConversation(r *rand.Rand, n int) []llms.MessageContent {
	boiler := []string{"<returncode>0</returncode>", "<output>", "</output>", "import os", "    return nil", "}", "",
		"PASSED tests/test_parser.py::test_ok", "Traceback (most recent call last):", "ValueError: boom", "héllo wörld ✓", "bad \xff\xfe bytes"}
	unique := 0
	text := func(lines int) string {
		var b strings.Builder
		for i := range lines {
			if i > 0 {
				b.WriteByte('\n')
			}
			if r.Intn(3) == 0 {
				unique++
				fmt.Fprintf(&b, "line %d of %s: func helper%d(x int) int { return x * %d }", unique, []string{"a.go", "pkg/b.py", "c.rs"}[r.Intn(3)], unique, r.Intn(1000))
				continue
			}
			b.WriteString(boiler[r.Intn(len(boiler))])
			if r.Intn(10) == 0 {
				b.WriteString(strings.Repeat(" padding", 20+r.Intn(60)))
			}
		}
		if r.Intn(4) == 0 {
			b.WriteByte('\n')
		}
		return b.String()
	}
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are a coding agent.")}
	var outputs []string
	call := 0
	for len(msgs) < n {
		switch r.Intn(6) {
		case 0:
			msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, text(1+r.Intn(8))))
		case 1:
			msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeAI, text(1+r.Intn(5))))
		default:
			ai := llms.MessageContent{Role: llms.ChatMessageTypeAI}
			if r.Intn(3) == 0 {
				ai.Parts = append(ai.Parts, llms.TextPart(text(1+r.Intn(3))))
			}
			var ids []string
			for range 1 + r.Intn(2) {
				call++
				id := fmt.Sprintf("call_%d", call)
				ids = append(ids, id)
				name := []string{"bash", "read_file", "grep"}[r.Intn(3)]
				ai.Parts = append(ai.Parts, llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: name, Arguments: fmt.Sprintf(`{"path":"f%d.go"}`, call)}})
			}
			msgs = append(msgs, ai)
			for _, id := range ids {
				out := ""
				switch {
				case r.Intn(12) == 0:
				case r.Intn(8) == 0 && len(outputs) > 0:
					out = outputs[r.Intn(len(outputs))]
				default:
					out = text(r.Intn(120))
				}
				outputs = append(outputs, out)
				msgs = append(msgs, llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id, Content: out}}})
			}
		}
	}
	return msgs
}

// TestRecallEveryCompactedOriginal is the property of lossless compaction
// (I8) through the middleware: random conversations driven through Wrap
// with WithSession, one call per new message; after every call, every
// input message the result does not show verbatim (masked, cut or
// summarized) comes back whole through the Model's recall tool by its ref
// (which a masked or cut message shows), paging as the answers say, as
// recall.OriginalOf renders it; and at the
// last call each is found by a search for a line of its own that no other
// message holds.
func TestRecallEveryCompactedOriginal(t *testing.T) {
	seeds := 12
	if testing.Short() {
		seeds = 3
	}
	compacted := 0
	states := map[string]int{}
	searched := 0
	for seed := range seeds {
		r := rand.New(rand.NewSource(int64(seed)))
		window := []int{3_000, 5_000, 9_000}[seed%3]
		c := newCompactor(t, window, compact.WithPreserveRecent(2+r.Intn(4)))
		if seed%4 == 3 {
			c = newCompactor(t, window, compact.WithMaskOnly(true))
		}
		rec := &recorder{}
		m := Wrap(rec, c)
		tool := m.RecallTool()
		id := fmt.Sprintf("prop-%d", seed)
		ctx := WithSession(context.Background(), id)
		call := func(ctx context.Context, in string) (string, error) { return tool.Call(ctx, in) }
		conv := genRecallConversation(r, 30+r.Intn(50))
		var res *compact.Result
		var in []llms.MessageContent
		for n := 2; n <= len(conv); n++ {
			in = conv[:n:n]
			_, err := m.GenerateContent(ctx, in, withRecallTool()) // the agent offers the tool
			require.NoError(t, err, "seed %d, call with %d messages", seed, n)
			res, err = c.View(context.Background(), m.Session(id), in)
			require.NoError(t, err)
			calls := rec.received()
			require.Equal(t, calls[len(calls)-1], res.Messages, "seed %d, %d messages: the view is what was sent", seed, n)
			require.Len(t, res.Refs, n)
			for k, ref := range res.Refs {
				if ref == "" {
					continue
				}
				compacted++
				states[strings.TrimSuffix(res.States[k].String(), "+cut")]++
				if res.States[k].InOutput() { // masked or cut: the marker shows the ref
					var shown strings.Builder
					for j, o := range res.Origin {
						if o == k {
							shown.WriteString(recall.OriginalOf("", "", res.Messages[j]).Text)
						}
					}
					require.True(t, refid.Names(shown.String(), ref), "seed %d, %d messages: message %d (%s) shows ref:%s", seed, n, k, res.States[k], ref)
				}
				want := recall.OriginalOf(ref, "", in[k]).Text
				_, err := recallcheck.ByRef(ctx, call, ref, want)
				require.NoError(t, err, "seed %d, %d messages: message %d (%s)", seed, n, k, res.States[k])
			}
		}
		// At the last call, search for a line of each compacted original's own.
		var all, sent strings.Builder
		for _, mc := range in {
			all.WriteString(store.FoldCase(recall.OriginalOf("", "", mc).Text) + "\x00")
		}
		for _, mc := range res.Messages {
			sent.WriteString(store.FoldCase(recall.OriginalOf("", "", mc).Text) + "\x00")
		}
		for k, ref := range res.Refs {
			if ref == "" {
				continue
			}
			own := recall.OriginalOf(ref, "", in[k]).Text
			line, ok := recallcheck.SearchLine(own, func(l string) bool {
				f := store.FoldCase(l)
				return strings.Count(all.String(), f) == strings.Count(store.FoldCase(own), f) && !strings.Contains(sent.String(), f)
			})
			if ok {
				searched++
				require.NoError(t, recallcheck.BySearch(ctx, call, ref, line), "seed %d: message %d", seed, k)
			}
		}
	}
	require.Positive(t, compacted, "the windows are small enough to compact")
	for _, st := range []string{"masked", "cut", "summarized"} {
		require.Positive(t, states[st], "some originals are %s: %v", st, states)
	}
	require.Positive(t, searched, "some originals are searched for")
}

// TestRecallLineLongerThanAPage documents the tool's bound: a single line
// longer than a page (the answer's token cap) comes back cut, with a
// marker, and paging moves on to the next line; the rest of that line
// cannot be recalled by ref (a search still finds the original).
func TestRecallLineLongerThanAPage(t *testing.T) {
	c := newCompactor(t, 4_000)
	m := Wrap(&recorder{}, c)
	ctx := WithSession(context.Background(), "long-line")
	msgs := run("long", 0, 0)
	long := strings.Repeat("minified ", 3_000) + "tail_marker_0451"
	msgs = append(msgs, round("long", 0, 100)...)
	msgs[len(msgs)-1].Parts[0] = llms.ToolCallResponse{ToolCallID: "call_long_0", Name: "read_file", Content: "first\n" + long + "\nlast"}
	for r := 1; r < 12; r++ {
		msgs = append(msgs, round("long", r, 2_000)...)
		_, err := m.GenerateContent(ctx, msgs)
		require.NoError(t, err)
	}
	res, err := c.View(context.Background(), m.Session("long-line"), msgs)
	require.NoError(t, err)
	ref := res.Refs[3]
	require.NotEmpty(t, ref, "the long output is compacted")
	tool := m.RecallTool()
	_, err = recallcheck.ByRef(ctx, tool.Call, ref, "first\n"+long+"\nlast")
	require.ErrorContains(t, err, "line 2 of 3")
	require.ErrorContains(t, err, "longer than a page")
	require.NoError(t, recallcheck.BySearch(ctx, tool.Call, ref, "tail_marker_0451"), "found by a search for the end of the line")
}

package recall_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
)

// fuzzSlack is what an answer may count above the cap: nothing is
// expected, a few tokens are tolerated.
const fuzzSlack = 8

// FuzzRecallInput calls session A's tool with any input: no error, no
// panic, valid UTF-8 within the cap, and never text of session B (unless
// the input holds it: answers may echo their input).
func FuzzRecallInput(f *testing.F) {
	for _, s := range []string{
		"", "ref:", "ref:k3f2a9qx", "REF:k3f2a9qx lines 10-20", "ref:k3f2a9qx lines 20-10", "ref:k3f2a9qx lines 0",
		"ref:k3f2a9qx lines 99999999999999999999", "ref:b7secret", "ref:" + refFile + " lines 1-1 of 300 (tool x):",
		"helper17(", "ValueError parse.py", "zebra", "quokka session", `{"__arg1": "ref:s5mall22"}`, `"x"`, "`ref:e3mpty22`",
		"ref:crlf1234", "ref:bad12345", "ref:wide1234", "a.*b", "%", "\xff\xfe", "ref:k3f2a9qx\x00", strings.Repeat("helper ", 60),
		"ref:k3f2a9qx.", "ref:K3F2A9QX", "line", "\u2028ref:s5mall22",
	} {
		f.Add(s)
	}
	st := newFixture(f)
	require.NoError(f, st.PutOriginals(context.Background(), sessionA, []store.Original{
		{Ref: "crlf1234", Role: llms.ChatMessageTypeTool, Name: "bash\n(x)", Text: "a\r\nb\r\n\r\nhelper\r\n"},
		{Ref: "bad12345", Role: llms.ChatMessageTypeTool, Name: "cat", Text: "caf\xe9 \xff\xfe helper\n\xed\xa0\x80\n"},
		{Ref: "wide1234", Role: llms.ChatMessageTypeTool, Name: "cat", Text: strings.Repeat("日本語 helper ", 20000) + "\nx\n" + strings.Repeat("\n", 3000)},
	}))
	type tc struct {
		tool *recall.Tool
		cap  int
	}
	cases := []tc{
		{toolFor(st, sessionA, recall.WithMaxTokens(recall.MinMaxTokens)), recall.MinMaxTokens},
		{toolFor(st, sessionA), recall.DefaultMaxTokens},
		{toolFor(st, sessionA, recall.WithSearchLimit(2), recall.WithMaxTokens(300)), 300},
	}
	f.Fuzz(func(t *testing.T, input string) {
		for _, c := range cases {
			out, err := c.tool.Call(context.Background(), input)
			if err != nil {
				t.Fatalf("input %q: error %v", input, err)
			}
			if n := budget.EstimateTokens(out); n > c.cap+fuzzSlack {
				t.Fatalf("input %q: answer of %d tokens over the cap %d", input, n, c.cap)
			}
			if !utf8.ValidString(out) {
				t.Fatalf("input %q: answer not valid UTF-8", input)
			}
			if out == "" {
				t.Fatalf("input %q: empty answer", input)
			}
			for _, secret := range []string{secretB, secretB2} {
				if strings.Contains(out, secret) && !strings.Contains(input, secret) {
					t.Fatalf("input %q: session B's text in the answer: %q", input, out)
				}
			}
		}
	})
}

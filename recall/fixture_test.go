package recall_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
)

// The fixture: two sessions over one store. Session B holds text that
// must never reach session A's tool, under its own refs and under a ref
// session A uses too.
const (
	sessionA = "conversation-a"
	sessionB = "conversation-b"
	refFile  = "k3f2a9qx" // A: a 300-line read_file output
	refAI    = "m4p2b7cd" // A: an assistant message with a tool call
	refSmall = "s5mall22" // A: a 5-line bash output
	refEmpty = "e3mpty22" // A: an empty bash output
	refUser  = "u2ser222" // A: a user message
	refB     = "b7secret" // B only
	secretB  = "zebra-quokka-session-b"
	secretB2 = "SESSIONB-ONLY-TEXT"
)

// helpers is the text of the 300-line file.
func helpers() string {
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "func helper%d(x int) int { return x * %d }\n", i, i)
	}
	return b.String()
}

// newFixture returns the store of the two sessions.
func newFixture(t testing.TB) *store.Memory {
	t.Helper()
	st := store.NewMemory()
	ctx := context.Background()
	require.NoError(t, st.PutOriginals(ctx, sessionA, []store.Original{
		{Ref: refFile, Role: llms.ChatMessageTypeTool, Name: "read_file", Text: helpers()},
		{Ref: refAI, Role: llms.ChatMessageTypeAI, Name: "read_file", Text: "I will call helper17( next.\nread_file({\"path\": \"util.go\"})"},
		{Ref: refSmall, Role: llms.ChatMessageTypeTool, Name: "bash", Text: "l1\nl2\nl3\nl4\nl5\n"},
		{Ref: refEmpty, Role: llms.ChatMessageTypeTool, Name: "bash", Text: ""},
		{Ref: refUser, Role: llms.ChatMessageTypeHuman, Text: "Please fix the ValueError in parse.py"},
	}))
	require.NoError(t, st.PutOriginals(ctx, sessionB, []store.Original{
		{Ref: refB, Role: llms.ChatMessageTypeTool, Name: "read_file", Text: "token " + secretB + "\nhelper17( ValueError parse.py\n" + secretB2},
		{Ref: refFile, Role: llms.ChatMessageTypeTool, Name: "read_file", Text: secretB2 + " helper17(\n" + secretB},
	}))
	return st
}

// toolFor returns a tool reading one session of st.
func toolFor(st store.OriginalStore, session string, opts ...recall.Option) *recall.Tool {
	return recall.New(func(context.Context) (recall.Source, error) {
		return recall.StoreSource(st, session), nil
	}, opts...)
}

// call calls the tool and requires no error.
func call(t testing.TB, tool *recall.Tool, input string) string {
	t.Helper()
	out, err := tool.Call(context.Background(), input)
	require.NoError(t, err, "input %q", input)
	return out
}

// refsOf returns the refs of a search answer's hits, in order.
func refsOf(answer string) []string {
	var refs []string
	for _, line := range strings.Split(answer, "\n")[1:] {
		if ref, ok := strings.CutPrefix(line, "ref:"); ok {
			refs = append(refs, ref[:strings.IndexByte(ref, ' ')])
		}
	}
	return refs
}

package reliability

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/middleware"
	"github.com/agentcompact/compact/store"
)

// maxErrBytes bounds an error text that quotes an id (idtext.Quote: a
// prefix, the length and a hash) with the rest of its message.
const maxErrBytes = 400

// requireBounded fails unless err is an error of at most maxErrBytes.
func requireBounded(t *testing.T, err error, what string) {
	t.Helper()
	require.Error(t, err, what)
	assert.LessOrEqual(t, len(err.Error()), maxErrBytes, "%s: %d bytes: %.300q", what, len(err.Error()), err.Error())
}

// TestLongSessionIDErrorsBounded (the repro's longid): a 1 MiB session id
// through memory and the middleware, on every real store, is refused with
// an error of a few hundred bytes, not one that quotes the whole id; the
// stores' own errors quote it bounded too.
func TestLongSessionIDErrorsBounded(t *testing.T) {
	long := strings.Repeat("y", 1<<20)
	for name, open := range isoStores() {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t)
			c := isoCompactor(t)

			mem := memory.New(c, memory.WithStore(s), memory.WithSessionID(long))
			requireBounded(t, mem.SaveContext(ctx, map[string]any{"input": "a"}, map[string]any{"output": "b"}), "memory SaveContext")
			_, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": "x"})
			requireBounded(t, err, "memory LoadMemoryVariables")
			requireBounded(t, mem.Clear(ctx), "memory Clear")

			for _, llm := range []*middleware.Model{middleware.Wrap(okModel, c), middleware.Wrap(okModel, c, middleware.WithStore(s))} {
				_, err = llm.GenerateContent(middleware.WithSession(ctx, long), isoConversation("S", 12))
				requireBounded(t, err, "middleware GenerateContent")
			}

			// The stores' own errors: a ref that is not one, a chain
			// offset outside the chain.
			_, err = s.Original(ctx, long, "not a ref!")
			requireBounded(t, err, "store Original")
			_, err = s.Save(ctx, store.State{SessionID: long}, 5)
			requireBounded(t, err, "store Save")
			err = s.PutOriginals(ctx, long, []store.Original{{Ref: strings.Repeat("r", 1<<20) + "!", Text: "t"}})
			requireBounded(t, err, "store PutOriginals")
		})
	}
}

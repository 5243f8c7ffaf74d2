package reliability

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/middleware"
	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/pgstore"
	"github.com/agentcompact/compact/store/sqlitestore"
)

// isoStore is a store with originals: what the middleware and the memory
// keep a conversation in.
type isoStore interface {
	store.OriginalStore
	store.HistoryStore
}

// isoStores are the real stores the isolation tests run on: store.Memory,
// SQLite in a file, and PostgreSQL when COMPACT_POSTGRES_DSN answers
// (skipped with a message otherwise).
func isoStores() map[string]func(t *testing.T) isoStore {
	return map[string]func(t *testing.T) isoStore{
		"memory": func(*testing.T) isoStore { return store.NewMemory() },
		"sqlite": func(t *testing.T) isoStore {
			s, err := sqlitestore.Open(filepath.Join(t.TempDir(), "iso.db"))
			require.NoError(t, err)
			t.Cleanup(func() { _ = s.Close() })
			return s
		},
		"postgres": func(t *testing.T) isoStore {
			dsn := replicaDSN(t)
			prefix := randomName(t, "iso_")
			s, err := pgstore.New(context.Background(), dsn, pgstore.WithTablePrefix(prefix))
			require.NoError(t, err)
			t.Cleanup(func() { s.Close(); dropPrefix(t, dsn, prefix) })
			return s
		},
	}
}

// isoConversation is the repro's support conversation: a system prompt,
// "hi", then turns of a tool call whose output carries secret.
func isoConversation(secret string, turns int) []llms.MessageContent {
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are a support agent."),
		llms.TextParts(llms.ChatMessageTypeHuman, "hi")}
	for i := range turns {
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprintf("question %d", i)),
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: id, Type: "function",
				FunctionCall: &llms.FunctionCall{Name: "get_customer", Arguments: `{"id":"42"}`}}}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id,
				Name: "get_customer", Content: fmt.Sprintf("%s record %d\n%s", secret, i, replicaToolOutput(i))}}},
			llms.TextParts(llms.ChatMessageTypeAI, fmt.Sprintf("answer %d", i)))
	}
	return msgs
}

// isoCompactor is the repro's engine: a 4,000-token window with the
// shallow trigger (0.8, 0.7), so that old tool outputs are masked.
func isoCompactor(t *testing.T) *compact.Compactor {
	t.Helper()
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(4000), compact.WithReservedOutput(400),
		compact.WithTrigger(0.8, 0.7))
	require.NoError(t, err)
	return c
}

// okModel answers "ok" to every call.
var okModel = funcModel(func(context.Context, []llms.MessageContent, ...llms.CallOption) (*llms.ContentResponse, error) {
	return reply("ok"), nil
})

// TestIsolationThroughStores (I9, the repro's iso): a session-less
// conversation on a Model with a real store compacts; an attacker who
// computes its automatic id from its opening (on a Model of its own) and
// sets WithSession(ctx, "auto-...") or "\x00auto-..." reads none of its
// originals through the recall tool, nothing of it is in the store under
// that id, and a memory.Memory given those ids is refused. Explicit
// conversations stay apart as before.
func TestIsolationThroughStores(t *testing.T) {
	for name, open := range isoStores() {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t)
			c := isoCompactor(t)
			var infos []middleware.CallInfo
			llm := middleware.Wrap(okModel, c, middleware.WithStore(s), middleware.WithObserver(func(ci middleware.CallInfo) { infos = append(infos, ci) }))
			tool := llm.RecallTool()

			// An explicit conversation: its own recall finds its text.
			_, err := llm.GenerateContent(middleware.WithSession(ctx, "user-B"), isoConversation("BSECRET-hunter2", 12))
			require.NoError(t, err)
			out, err := tool.Call(middleware.WithSession(ctx, "user-B"), "BSECRET")
			require.NoError(t, err)
			require.Contains(t, out, "BSECRET-hunter2", "control: B recalls its own compacted text")

			// The victim: no WithSession.
			_, err = llm.GenerateContent(ctx, isoConversation("VICTIMSECRET-4111111111111111", 12))
			require.NoError(t, err)
			victim := infos[len(infos)-1]
			require.False(t, victim.Explicit)
			require.NotEmpty(t, victim.Compactions, "the victim's conversation compacted")
			auto := victim.SessionID

			// The attacker computes the id from the opening alone.
			var computed string
			local := middleware.Wrap(okModel, c, middleware.WithObserver(func(ci middleware.CallInfo) { computed = ci.SessionID }))
			_, err = local.GenerateContent(ctx, isoConversation("", 0))
			require.NoError(t, err)
			require.Equal(t, auto, computed, "the automatic id is computable: it must not be a key to anything shared")

			v, err := s.Version(ctx, auto)
			require.NoError(t, err)
			assert.Zero(t, v, "no state stored under the automatic id")
			for _, q := range []string{"VICTIMSECRET", "record"} {
				found, err := s.SearchOriginals(ctx, auto, q, 10)
				require.NoError(t, err)
				assert.Empty(t, found, "no original stored under the automatic id (search %q)", q)
				for _, id := range []string{auto, "\x00" + auto} {
					out, _ := tool.Call(middleware.WithSession(ctx, id), q)
					assert.NotContains(t, out, "VICTIMSECRET-4111", "recall as %q searching %q: %.200q", id, q, out)
				}
			}
			out, _ = tool.Call(middleware.WithSession(ctx, "user-A"), "BSECRET")
			assert.NotContains(t, out, "hunter2", "another explicit session reads nothing of B")

			// memory.Memory shares the store's namespace: the ids are
			// refused there too.
			for _, id := range []string{"\x00" + auto, "a\x00b"} {
				mem := memory.New(c, memory.WithStore(s), memory.WithSessionID(id))
				err := mem.SaveContext(ctx, map[string]any{"input": "attacker"}, map[string]any{"output": "ok"})
				require.Error(t, err, "memory with id %q", id)
				msgs, err := s.History(id).Messages(ctx)
				require.NoError(t, err)
				assert.Empty(t, msgs, "memory with id %q wrote nothing", id)
			}
		})
	}
}

// TestIsolationInTable (I9, the repro's iso, no store): an explicit id
// "\x00"+auto, the shape of the table's key of an automatic session, is
// refused, and the victim's session keeps its object and its summary.
func TestIsolationInTable(t *testing.T) {
	ctx := context.Background()
	c := isoCompactor(t)
	var got string
	llm := middleware.Wrap(okModel, c, middleware.WithObserver(func(ci middleware.CallInfo) { got = ci.SessionID }))
	_, err := llm.GenerateContent(ctx, isoConversation("VICTIMSECRET-4111111111111111", 12))
	require.NoError(t, err)
	auto := got
	require.True(t, strings.HasPrefix(auto, middleware.AutoSessionPrefix))
	sess := llm.Session(auto)
	require.NotNil(t, sess)
	require.NotNil(t, sess.Latest(), "the victim's session holds a summary")
	_, err = llm.GenerateContent(middleware.WithSession(ctx, "\x00"+auto), []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "attacker")})
	require.ErrorIs(t, err, middleware.ErrInvalidSession)
	assert.True(t, sess == llm.Session(auto), "the victim's session is the same object")
	assert.NotNil(t, sess.Latest(), "the victim's summary survives")
}

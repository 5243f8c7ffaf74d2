package middleware

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact/store"
)

// victim is a session-less conversation long enough to compact in a
// 2,000-token window, holding a secret in its tool outputs.
func victim() []llms.MessageContent {
	msgs := run("victim", 12, 600)
	msgs[3] = llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{
		ToolCallID: "call_victim_0", Name: "read_file", Content: "VICTIMSECRET-4111111111111111\n" + text(msgs[3])}}}
	return msgs
}

// autoIDOf returns the automatic id a Model gives msgs (as CallInfo
// reports it), computed on a Model of its own: what an attacker can do
// with the opening of another's conversation.
func autoIDOf(t *testing.T, msgs []llms.MessageContent) string {
	t.Helper()
	var id string
	m := Wrap(&recorder{}, newCompactor(t, 2000), WithObserver(func(ci CallInfo) { id = ci.SessionID }))
	_, err := m.GenerateContent(context.Background(), msgs[:2])
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(id, AutoSessionPrefix), id)
	return id
}

// TestChosenIDNeverReachesAutomaticSession (I9): an id set with
// WithSession that spells the table's internal key of an automatic session
// ("\x00auto-...") or its id ("auto-...") is rejected before it touches
// the table, and the automatic session keeps its summary.
func TestChosenIDNeverReachesAutomaticSession(t *testing.T) {
	ctx := context.Background()
	m := Wrap(&recorder{}, newCompactor(t, 2000))
	msgs := victim()
	_, err := m.GenerateContent(ctx, msgs)
	require.NoError(t, err)
	auto := autoIDOf(t, msgs)
	sess := m.Session(auto)
	require.NotNil(t, sess, "the victim's automatic session is in the table")
	require.NotNil(t, sess.Latest(), "the victim's session holds a summary")

	attacker := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "attacker")}
	for _, id := range []string{"\x00" + auto, auto, AutoSessionPrefix, "a\x00b", "line\nbreak", "del\x7f"} {
		_, err := m.GenerateContent(WithSession(ctx, id), attacker)
		require.Error(t, err, "chosen id %q", id)
		assert.ErrorIs(t, err, ErrInvalidSession, "chosen id %q", id)
		assert.True(t, sess == m.Session(auto), "chosen id %q left the victim's session alone", id)
		assert.NotNil(t, sess.Latest(), "chosen id %q: the victim's summary is still there", id)
		if id != auto {
			assert.Nil(t, m.Session(id), "chosen id %q names no session", id)
		}
	}
	assert.Equal(t, 1, m.Sessions(), "no session was created for a rejected id")
}

// TestRecallNeverReadsAutomaticOriginals (I9): with a store of originals,
// a session-less conversation is process-local: nothing of it is stored
// under its automatic id, and a recall with WithSession(ctx, "auto-...")
// (the id computed from the victim's opening) reads none of its text.
func TestRecallNeverReadsAutomaticOriginals(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	var infos []CallInfo
	m := Wrap(&recorder{}, newCompactor(t, 2000), WithStore(st), WithObserver(func(ci CallInfo) { infos = append(infos, ci) }))
	msgs := victim()
	_, err := m.GenerateContent(ctx, msgs)
	require.NoError(t, err)
	require.Len(t, infos, 1)
	require.NotEmpty(t, infos[0].Compactions, "the victim's conversation compacted")
	auto := autoIDOf(t, msgs)
	require.Equal(t, auto, infos[0].SessionID)

	v, err := st.Version(ctx, auto)
	require.NoError(t, err)
	assert.Zero(t, v, "no state stored under the automatic id")
	found, err := st.SearchOriginals(ctx, auto, "VICTIMSECRET", 10)
	require.NoError(t, err)
	assert.Empty(t, found, "no original stored under the automatic id")

	tool := m.RecallTool()
	for _, id := range []string{auto, "\x00" + auto} {
		for _, q := range []string{"VICTIMSECRET", "read_file"} {
			out, err := tool.Call(WithSession(ctx, id), q)
			require.NoError(t, err, "a refused id is answered as no session")
			assert.True(t, strings.HasPrefix(out, "recall: no session"), "recall as %q searching %q: %.120q", id, q, out)
			assert.NotContains(t, out, "VICTIMSECRET-4111", "recall as %q searching %q", id, q)
			assert.NotContains(t, out, "handler", "recall as %q searching %q: %.120q", id, q, out)
		}
	}
}

// TestValidChosenIDs: ordinary chosen ids, unicode included, still work.
func TestValidChosenIDs(t *testing.T) {
	m := Wrap(&recorder{}, newCompactor(t, 2000))
	for _, id := range []string{"user-42", "会话-🙂", `a'b"c`, "x'; DROP TABLE t; --", "autox", "Auto-1"} {
		_, err := m.GenerateContent(WithSession(context.Background(), id), run("ok", 1, 100))
		require.NoError(t, err, "chosen id %q", id)
		assert.NotNil(t, m.Session(id), "chosen id %q", id)
	}
}

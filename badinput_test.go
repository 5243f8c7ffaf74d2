package compact

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// weirdPart is a part type the engine does not know (it embeds a known one
// only to satisfy llms.ContentPart's unexported method).
type weirdPart struct {
	llms.ImageURLContent
	X int
}

func TestBadInput(t *testing.T) {
	sys := llms.TextParts(llms.ChatMessageTypeSystem, "system prompt")
	task := llms.TextParts(llms.ChatMessageTypeHuman, "the task")
	call := func(id string) llms.MessageContent {
		return llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
			llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: "bash", Arguments: `{"command":"ls"}`}}}}
	}
	result := func(id, content string) llms.MessageContent {
		return llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id, Content: content}}}
	}
	tests := []struct {
		name    string
		window  int
		msgs    []llms.MessageContent
		wantErr error
		repairs string // a repair the result must report
		check   func(t *testing.T, res *Result)
	}{
		{name: "nil list", msgs: nil, repairs: RepairEmpty, check: func(t *testing.T, res *Result) { assert.Empty(t, res.Messages); assert.Zero(t, res.Tokens) }},
		{name: "empty list", msgs: []llms.MessageContent{}, repairs: RepairEmpty, check: func(t *testing.T, res *Result) { assert.Empty(t, res.Messages) }},
		{name: "nil parts", msgs: []llms.MessageContent{sys, {Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{nil, llms.TextPart("hi"), nil}}}, repairs: RepairNilPart,
			check: func(t *testing.T, res *Result) { assert.Len(t, res.Messages[1].Parts, 1) }},
		{name: "message without parts", msgs: []llms.MessageContent{sys, {Role: llms.ChatMessageTypeAI}, task}, repairs: RepairEmpty},
		{name: "message without a role", msgs: []llms.MessageContent{sys, {Parts: []llms.ContentPart{llms.TextPart("who says this?")}}, task}, repairs: RepairNoRole},
		{name: "unknown part type passes through", msgs: []llms.MessageContent{sys, {Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{weirdPart{X: 7}}}},
			check: func(t *testing.T, res *Result) {
				assert.Equal(t, weirdPart{X: 7}, res.Messages[1].Parts[0])
				assert.Greater(t, res.Tokens, 0)
			}},
		{name: "invalid UTF-8", msgs: []llms.MessageContent{sys, llms.TextParts(llms.ChatMessageTypeHuman, "\xff\xfe bad \xc3")}},
		{name: "orphan tool result", msgs: []llms.MessageContent{sys, task, result("ghost", "output nobody asked for")}, repairs: RepairOrphan,
			check: func(t *testing.T, res *Result) {
				assert.Equal(t, llms.ChatMessageTypeHuman, res.Messages[2].Role)
				assert.Contains(t, textOf(res.Messages[2]), "output nobody asked for", "the orphan's content is kept")
			}},
		{name: "dangling tool call", msgs: []llms.MessageContent{sys, task, call("c1"), llms.TextParts(llms.ChatMessageTypeHuman, "next")}, repairs: RepairDanglingCall,
			check: func(t *testing.T, res *Result) { assert.Equal(t, llms.ChatMessageTypeTool, res.Messages[3].Role) }},
		{name: "trailing dangling tool call", msgs: []llms.MessageContent{sys, task, call("c1")}, repairs: RepairDanglingCall},
		{name: "duplicate tool result", msgs: []llms.MessageContent{sys, task, call("c1"), result("c1", "a"), result("c1", "b")}, repairs: RepairOrphan},
		{name: "result after an unrelated message", msgs: []llms.MessageContent{sys, task, call("c1"), llms.TextParts(llms.ChatMessageTypeAI, "hm"), result("c1", "late")}, repairs: RepairOrphan},
		{name: "tool call without function", msgs: []llms.MessageContent{sys, task, {Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: "x"}}}, result("x", "ok")}},
		{name: "single message larger than the window", window: 2_000,
			msgs: []llms.MessageContent{sys, task, call("c1"), result("c1", strings.Repeat("huge output line\n", 5_000))},
			check: func(t *testing.T, res *Result) {
				assert.True(t, res.Compacted)
				assert.LessOrEqual(t, res.Tokens, res.Budget)
			}},
		{name: "latest user message larger than the window", window: 2_000,
			msgs: []llms.MessageContent{sys, llms.TextParts(llms.ChatMessageTypeHuman, strings.Repeat("please read this ", 3_000))},
			check: func(t *testing.T, res *Result) {
				assert.Contains(t, textOf(res.Messages[1]), "bytes cut", "cut visibly")
				assert.True(t, strings.HasPrefix(textOf(res.Messages[1]), "please read this"), "head kept")
			}},
		{name: "system prompt larger than the window", window: 2_000,
			msgs: []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, strings.Repeat("rule ", 5_000)), task}, wantErr: ErrBudgetTooSmall},
		{name: "only system messages", msgs: []llms.MessageContent{sys, sys}},
		{name: "tool call in a user message", msgs: []llms.MessageContent{sys, {Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{
			llms.TextPart("run it"), llms.ToolCall{ID: "u1", FunctionCall: &llms.FunctionCall{Name: "bash", Arguments: `{"command":"ls"}`}}}}},
			repairs: RepairMisplacedCall,
			check: func(t *testing.T, res *Result) {
				assert.Contains(t, textOf(res.Messages[1]), "tool call bash", "kept as text")
			}},
		{name: "huge tool arguments in the latest round", window: 4_000,
			msgs: []llms.MessageContent{sys, task, {Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
				llms.ToolCall{ID: "w", Type: "function", FunctionCall: &llms.FunctionCall{Name: "write_file", Arguments: `{"path":"a.txt","content":"` + strings.Repeat("data ", 20_000) + `"}`}}}},
				result("w", "written"), llms.TextParts(llms.ChatMessageTypeHuman, "next")},
			check: func(t *testing.T, res *Result) {
				for _, m := range res.Messages {
					for _, p := range m.Parts {
						if tc, ok := p.(llms.ToolCall); ok {
							assert.True(t, json.Valid([]byte(tc.FunctionCall.Arguments)), "cut arguments stay valid JSON")
							assert.Contains(t, tc.FunctionCall.Arguments, CutArgumentsKey)
						}
					}
				}
			}},
		{name: "images and binary parts", msgs: []llms.MessageContent{sys, {Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{
			llms.ImageURLPart("https://x/y.png"), llms.BinaryPart("image/png", make([]byte, 10_000))}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			window := tt.window
			if window == 0 {
				window = 16_000
			}
			c, err := New(WithContextWindow(window))
			require.NoError(t, err)
			before := deepCopy(tt.msgs)
			res, err := c.Compact(context.Background(), NewSession(tt.name), tt.msgs)
			assert.Equal(t, before, deepCopy(tt.msgs), "I5: input unchanged")
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.NoError(t, CheckToolPairs(res.Messages))
			assert.LessOrEqual(t, res.Tokens, res.Budget)
			if tt.repairs != "" {
				assert.True(t, strings.Contains(strings.Join(res.Repairs, ";"), tt.repairs), "repairs %v", res.Repairs)
			}
			if tt.check != nil {
				tt.check(t, res)
			}
		})
	}
	t.Run("nil session", func(t *testing.T) {
		c, err := New()
		require.NoError(t, err)
		_, err = c.Compact(context.Background(), nil, []llms.MessageContent{task})
		require.ErrorIs(t, err, ErrNilSession)
	})
}

func TestCorruptedSessionStateIsSafe(t *testing.T) {
	c, err := New(WithContextWindow(16_000))
	require.NoError(t, err)
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hello")}
	id := MessageIDs(msgs)[0]
	for _, state := range []string{
		`{"version":1,"cut":{"` + id + `":[0,-5,0]}}`,
		`{"version":1,"cut":{"` + id + `":[7,1,1]}}`,
		`{"version":1,"masked":{"` + id + `":["x","y","z"]}}`,
		`{"version":1,"dropped":["` + id + `"],"chain":[]}`,
		`{"version":1,"lastCompactionLen":-9,"lastCompactionTokens":-1}`,
	} {
		s := NewSession("")
		require.NoError(t, s.UnmarshalJSON([]byte(state)))
		res, err := c.Compact(context.Background(), s, msgs)
		require.NoError(t, err, state)
		assert.Equal(t, "hello", textOf(res.Messages[len(res.Messages)-1]), state)
	}
}

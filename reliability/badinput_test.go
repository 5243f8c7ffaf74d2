package reliability

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/llmsummary"
	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/middleware"
	"github.com/agentcompact/compact/prompts"
	"github.com/agentcompact/compact/store/sqlitestore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	lcmemory "github.com/tmc/langchaingo/memory"
)

// badCase is one row of the bad-input catalogue: a class of bad input, the
// entry point it is given to, the documented outcome, and the check.
type badCase struct {
	class, entry, outcome string
	run                   func(t *testing.T)
}

// Small building blocks of the catalogue's inputs.
var (
	bSys  = llms.TextParts(llms.ChatMessageTypeSystem, "You are a careful coding agent.")
	bTask = llms.TextParts(llms.ChatMessageTypeHuman, "Fix the failing test in fields.py.")
)

func bCall(id, name, args string) llms.MessageContent {
	return llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
		llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: name, Arguments: args}}}}
}

func bResult(id, content string) llms.MessageContent {
	return llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id, Content: content}}}
}

// bFiller returns n messages of ordinary history (tool rounds and replies).
func bFiller(n int) []llms.MessageContent {
	var out []llms.MessageContent
	for i := 0; len(out) < n; i++ {
		id := fmt.Sprintf("f%d", i)
		out = append(out, bCall(id, "read_file", `{"path": "src/mod.py"}`), bResult(id, strings.Repeat("def f(): pass\n", 40)),
			llms.TextParts(llms.ChatMessageTypeAI, "Looked at the module."))
	}
	return out[:n]
}

// bChat returns n user and assistant messages of plain text (nothing to
// mask: compaction has to drop and summarize).
func bChat(n int) []llms.MessageContent {
	var out []llms.MessageContent
	for i := 0; i < n; i++ {
		role := llms.ChatMessageTypeHuman
		if i%2 == 1 {
			role = llms.ChatMessageTypeAI
		}
		out = append(out, llms.TextParts(role, fmt.Sprintf("Message %d: we must keep the API stable and run the tests in tests/test_fields.py after every change to fields.py.", i)))
	}
	return out
}

func join(parts ...[]llms.MessageContent) []llms.MessageContent {
	var out []llms.MessageContent
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func one(m ...llms.MessageContent) []llms.MessageContent { return m }

// newC builds a compactor or fails.
func newC(t *testing.T, opts ...compact.Option) *compact.Compactor {
	t.Helper()
	c, err := compact.New(opts...)
	require.NoError(t, err)
	return c
}

// safeCompact expects a safe result: no error, I1-I5.
func safeCompact(t *testing.T, c *compact.Compactor, msgs []llms.MessageContent) *compact.Result {
	t.Helper()
	before := cloneMessages(msgs)
	res, err := compactNoPanic(c, compact.NewSession("bad"), msgs)
	require.NoError(t, err)
	require.NoError(t, checkUnchanged(before, msgs))
	require.NoError(t, checkOutput(c, msgs, res))
	return res
}

// wrapSend sends msgs through middleware.Wrap and returns what the
// wrapped model received (nil when it was not called) and the error.
func wrapSend(t *testing.T, c *compact.Compactor, ctx context.Context, msgs []llms.MessageContent) ([]llms.MessageContent, error) {
	t.Helper()
	rec := &recordingModel{fn: func([]llms.MessageContent) string { return "ok" }}
	before := cloneMessages(msgs)
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("%w: GenerateContent: %v", errPanic, p)
			}
		}()
		_, err = middleware.Wrap(rec, c).GenerateContent(ctx, msgs)
	}()
	require.NoError(t, checkUnchanged(before, msgs))
	calls := rec.recorded()
	if len(calls) == 0 {
		return nil, err
	}
	return calls[0], err
}

// noPanic runs f and fails t if it panics.
func noPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%s panicked: %v", what, p)
		}
	}()
	f()
}

// badInputCatalogue is the catalogue; README.md shows it as a table.
func badInputCatalogue() []badCase {
	huge := strings.Repeat("hello world, this is a very long message. ", 10<<20/42)
	bigArgs := `{"command": "` + strings.Repeat("echo build step; ", 1<<20/17) + `"}`
	nested := strings.Repeat(`{"a":[`, 100_000) + strings.Repeat(`]}`, 100_000)
	return []badCase{
		{"nil message list", "Compact", "safe: empty result, 0 tokens, reported as the repair empty-message", func(t *testing.T) {
			res := safeCompact(t, newC(t), nil)
			assert.Empty(t, res.Messages)
			assert.Zero(t, res.Tokens)
			assert.Contains(t, res.Repairs, compact.RepairEmpty+": no messages")
		}},
		{"nil message list", "Wrap.GenerateContent", "error wrapping compact.ErrInvalidInput, nothing sent", func(t *testing.T) {
			sent, err := wrapSend(t, newC(t), context.Background(), nil)
			require.ErrorIs(t, err, compact.ErrInvalidInput)
			assert.Empty(t, sent)
		}},
		{"nil maps", "Memory.SaveContext", "error wrapping langchaingo memory.ErrInvalidInputValues, nothing written", func(t *testing.T) {
			m := memory.New(newC(t))
			require.ErrorIs(t, m.SaveContext(context.Background(), nil, nil), lcmemory.ErrInvalidInputValues)
			v, err := m.LoadMemoryVariables(context.Background(), nil)
			require.NoError(t, err)
			assert.Equal(t, "", v["history"])
		}},
		{"empty strings", "Compact, ParseSummary, Extract", "safe result; ParseSummary: error wrapping prompts.ErrInvalidSummary", func(t *testing.T) {
			safeCompact(t, newC(t), one(llms.TextParts(llms.ChatMessageTypeSystem, ""), llms.TextParts(llms.ChatMessageTypeHuman, ""), bCall("", "", ""), bResult("", "")))
			_, err := prompts.ParseSummary("")
			require.ErrorIs(t, err, prompts.ErrInvalidSummary)
			s := extractors.Default().Extract(extractors.Call{}, "")
			assert.Empty(t, extractortestProblems(s))
		}},
		{"non-string values", "Memory.SaveContext", "error wrapping memory.ErrInvalidInputValues", func(t *testing.T) {
			m := memory.New(newC(t))
			require.ErrorIs(t, m.SaveContext(context.Background(), map[string]any{"input": 42}, map[string]any{"output": "ok"}), lcmemory.ErrInvalidInputValues)
			require.ErrorIs(t, m.SaveContext(context.Background(), map[string]any{"a": "x", "b": "y"}, map[string]any{"output": "ok"}), lcmemory.ErrInvalidInputValues)
		}},
		{"nil context", "Compact, Wrap.GenerateContent", "safe: treated as context.Background()", func(t *testing.T) {
			c := newC(t)
			//lint:ignore SA1012 a nil context is the bad input under test
			res, err := c.Compact(nil, compact.NewSession("nil-ctx"), one(bSys, bTask))
			require.NoError(t, err)
			require.NoError(t, checkOutput(c, one(bSys, bTask), res))
			sent, err := wrapSend(t, c, nil, one(bSys, bTask))
			require.NoError(t, err)
			assert.Len(t, sent, 2)
		}},
		{"nil context", "Memory.SaveContext, LoadMemoryVariables", "safe: treated as context.Background() (as in Compact and Wrap)", func(t *testing.T) {
			m := memory.New(newC(t))
			noPanic(t, "SaveContext(nil ctx)", func() {
				//lint:ignore SA1012 a nil context is the bad input under test
				_ = m.SaveContext(nil, map[string]any{"input": "hi"}, map[string]any{"output": "hello"})
			})
			noPanic(t, "LoadMemoryVariables(nil ctx)", func() {
				//lint:ignore SA1012 a nil context is the bad input under test
				_, _ = m.LoadMemoryVariables(nil, nil)
			})
		}},
		{"nil session", "Compact", "error compact.ErrNilSession", func(t *testing.T) {
			_, err := newC(t).Compact(context.Background(), nil, one(bSys, bTask))
			require.ErrorIs(t, err, compact.ErrNilSession)
		}},
		{"nil model or compactor", "Wrap", "GenerateContent returns middleware.ErrNotConfigured; nothing is sent", func(t *testing.T) {
			_, err := middleware.Wrap(nil, newC(t)).GenerateContent(context.Background(), one(bSys, bTask))
			require.ErrorIs(t, err, middleware.ErrNotConfigured)
			_, err = middleware.Wrap(&recordingModel{fn: echoSummary}, nil).GenerateContent(context.Background(), one(bSys, bTask))
			require.ErrorIs(t, err, middleware.ErrNotConfigured)
		}},
		{"nil compactor", "memory.New", "safe: the engine's defaults (compact.New())", func(t *testing.T) {
			m := memory.New(nil)
			require.NoError(t, m.SaveContext(context.Background(), map[string]any{"input": "hi"}, map[string]any{"output": "hello"}))
			v, err := m.LoadMemoryVariables(context.Background(), nil)
			require.NoError(t, err)
			assert.Contains(t, v["history"], "hello")
		}},
		{"nil parts and empty messages", "Compact", "repaired: nil parts removed (Result.Repairs), empty messages kept", func(t *testing.T) {
			res := safeCompact(t, newC(t), one(bSys, llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{nil, llms.TextPart("hi"), nil}}, llms.MessageContent{Role: llms.ChatMessageTypeAI}))
			assert.Contains(t, strings.Join(res.Repairs, ";"), compact.RepairNilPart)
		}},
		{"invalid UTF-8", "Compact (LLM summarizer), Extract, Digest", "safe: summaries and facts are valid UTF-8", func(t *testing.T) {
			bad := "caf\xe9 \xff\xfe \xed\xa0\x80 done"
			msgs := join(one(bSys, llms.TextParts(llms.ChatMessageTypeHuman, "task "+bad)), bChat(60), one(bCall("u", "bash", `{"command": "`+bad+`"}`), bResult("u", bad), llms.TextParts(llms.ChatMessageTypeHuman, bad)))
			for _, withLLM := range []bool{false, true} {
				opts := []compact.Option{compact.WithContextWindow(2_000)}
				if withLLM {
					opts = append(opts, compact.WithSummarizer(&recordingModel{fn: echoSummary}))
				}
				res := safeCompact(t, newC(t, opts...), msgs)
				require.NotNil(t, res.Summary)
				assert.True(t, utf8.ValidString(res.Summary.Summary), "summary is valid UTF-8")
			}
			s := extractors.Default().Extract(extractors.Call{Name: "bash", Arguments: bad}, bad)
			assert.Empty(t, extractortestProblems(s))
		}},
		{"NUL and control characters", "Compact, Extract", "safe result", func(t *testing.T) {
			ctl := "a\x00b\x1b[31mred\x7f\r\n\u2028\ufeff"
			safeCompact(t, newC(t, compact.WithContextWindow(2_000)), join(one(bSys, llms.TextParts(llms.ChatMessageTypeHuman, ctl)), bFiller(30), one(bCall("c", "bash", ctl), bResult("c", ctl), bTask)))
			assert.Empty(t, extractortestProblems(extractors.Default().Extract(extractors.Call{Name: "bash"}, strings.Repeat(ctl, 1000))))
		}},
		{"10 MB single user message", "Compact, Wrap.GenerateContent", "safe: cut head and tail with a visible marker, within budget", func(t *testing.T) {
			c := newC(t, compact.WithContextWindow(16_000))
			msgs := one(bSys, llms.TextParts(llms.ChatMessageTypeHuman, huge))
			res := safeCompact(t, c, msgs)
			assert.True(t, isCut(res.Messages[1]), "visibly cut")
			sent, err := wrapSend(t, c, context.Background(), msgs)
			require.NoError(t, err)
			assert.LessOrEqual(t, c.CountTokens(sent), c.Budget())
		}},
		{"10 MB tool output", "Compact, Extract", "safe: masked to its key facts or cut, within budget; the extractor's line stays under FormatMaxBytes", func(t *testing.T) {
			c := newC(t, compact.WithContextWindow(16_000))
			safeCompact(t, c, join(one(bSys, bTask, bCall("big", "bash", `{"command": "cat big.log"}`), bResult("big", huge)), bFiller(12), one(llms.TextParts(llms.ChatMessageTypeHuman, "go on"))))
			assert.Empty(t, extractortestProblems(extractors.Default().Extract(extractors.Call{Name: "bash", Arguments: `{"command": "cat big.log"}`}, huge)))
		}},
		{"10 MB saved turn", "Memory.SaveContext, LoadMemoryVariables", "safe: stored whole in the history; the loaded context fits the budget", func(t *testing.T) {
			c := newC(t, compact.WithContextWindow(16_000))
			m := memory.New(c, memory.WithReturnMessages(true))
			require.NoError(t, m.SaveContext(context.Background(), map[string]any{"input": huge}, map[string]any{"output": "ok"}))
			v, err := m.LoadMemoryVariables(context.Background(), nil)
			require.NoError(t, err)
			msgs, _ := v["history"].([]llms.ChatMessage)
			assert.LessOrEqual(t, c.CountTokens(memory.Contents(msgs)), c.Budget())
			hist, err := m.ChatHistory().Messages(context.Background())
			require.NoError(t, err)
			require.NotEmpty(t, hist)
			assert.Equal(t, huge, hist[0].GetContent(), "the original stays in the history")
		}},
		{"unknown part types", "Compact, Wrap.GenerateContent", "safe: passed through unchanged, counted with an estimate", func(t *testing.T) {
			msgs := one(bSys, llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{oddPart{Note: "x"}, llms.ImageURLPart("https://x/y.png"), llms.BinaryPart("application/pdf", make([]byte, 50_000))}})
			res := safeCompact(t, newC(t), msgs)
			assert.Equal(t, oddPart{Note: "x"}, res.Messages[1].Parts[0])
			_, err := wrapSend(t, newC(t), context.Background(), msgs)
			require.NoError(t, err)
		}},
		{"unknown and empty roles", "Compact", "safe: kept like other messages", func(t *testing.T) {
			safeCompact(t, newC(t), one(bSys, llms.TextParts("weird", "x"), llms.TextParts("", "y"), llms.TextParts(llms.ChatMessageTypeFunction, "z"), llms.TextParts(llms.ChatMessageTypeGeneric, "g"), bTask))
		}},
		{"orphan tool result", "Compact, Wrap.GenerateContent", "repaired: turned into a user message keeping its content (compact.RepairOrphan)", func(t *testing.T) {
			msgs := one(bSys, bTask, bResult("ghost", "output nobody asked for"))
			res := safeCompact(t, newC(t), msgs)
			assert.Contains(t, strings.Join(res.Repairs, ";"), compact.RepairOrphan)
			sent, err := wrapSend(t, newC(t), context.Background(), msgs)
			require.NoError(t, err)
			require.NoError(t, compact.CheckToolPairs(sent))
		}},
		{"dangling tool call", "Compact", "repaired: a synthetic result compact.NoResultContent (compact.RepairDanglingCall)", func(t *testing.T) {
			res := safeCompact(t, newC(t), one(bSys, bTask, bCall("c1", "bash", "{}"), llms.TextParts(llms.ChatMessageTypeHuman, "next")))
			assert.Contains(t, strings.Join(res.Repairs, ";"), compact.RepairDanglingCall)
		}},
		{"duplicate tool ids", "Compact, Wrap.GenerateContent", "repaired: pairs valid (I2); the duplicate result kept as a user message", func(t *testing.T) {
			dup := llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
				llms.ToolCall{ID: "same", Type: "function", FunctionCall: &llms.FunctionCall{Name: "bash", Arguments: "{}"}},
				llms.ToolCall{ID: "same", Type: "function", FunctionCall: &llms.FunctionCall{Name: "grep", Arguments: "{}"}}}}
			msgs := join(one(bSys, bTask, dup, bResult("same", "a"), bResult("same", "b"), bResult("same", "c")), one(bCall("same", "bash", "{}"), bResult("same", "d")))
			safeCompact(t, newC(t), msgs)
			safeCompact(t, newC(t, compact.WithContextWindow(1_500)), join(msgs, bFiller(20), one(bTask)))
			sent, err := wrapSend(t, newC(t), context.Background(), msgs)
			require.NoError(t, err)
			require.NoError(t, compact.CheckToolPairs(sent))
		}},
		{"tool call in a non-assistant message", "Compact", "repaired: every tool call in the output has its result (I2)", func(t *testing.T) {
			for _, role := range []llms.ChatMessageType{llms.ChatMessageTypeSystem, llms.ChatMessageTypeHuman, llms.ChatMessageTypeGeneric} {
				msgs := one(bSys, llms.MessageContent{Role: role, Parts: []llms.ContentPart{llms.TextPart("x"),
					llms.ToolCall{ID: "c1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "bash", Arguments: "{}"}}}}, bTask)
				res, err := newC(t).Compact(context.Background(), compact.NewSession("x"), msgs)
				require.NoError(t, err)
				assert.NoError(t, compact.CheckToolPairs(res.Messages), "tool call in a %s message", role)
			}
		}},
		{"tool call without a function", "Compact, Extract", "safe: kept, paired", func(t *testing.T) {
			safeCompact(t, newC(t), one(bSys, bTask, llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: "x"}}}, bResult("x", "ok")))
		}},
		{"huge tool arguments (1 MB) in an old round", "Compact", "safe: the round is dropped and summarized; the arguments are never cut (they stay valid JSON)", func(t *testing.T) {
			c := newC(t, compact.WithContextWindow(16_000))
			res := safeCompact(t, c, join(one(bSys, bTask, bCall("a", "bash", bigArgs), bResult("a", "ok")), bFiller(12), one(llms.TextParts(llms.ChatMessageTypeHuman, "next"))))
			for _, m := range res.Messages {
				for _, p := range m.Parts {
					if tc, ok := p.(llms.ToolCall); ok && tc.FunctionCall != nil {
						assert.True(t, json.Valid([]byte(tc.FunctionCall.Arguments)), "arguments stay valid JSON")
					}
				}
			}
		}},
		{"huge tool arguments (1 MB) in the latest round", "Compact", "safe: the system prompt and the latest user message fit, so no ErrBudgetTooSmall (design: the error only when they alone cannot fit)", func(t *testing.T) {
			c := newC(t, compact.WithContextWindow(16_000))
			safeCompact(t, c, join(one(bSys, bTask), bFiller(6), one(bCall("a", "bash", bigArgs), bResult("a", "ok"), llms.TextParts(llms.ChatMessageTypeHuman, "next"))))
		}},
		{"deeply nested JSON arguments (100,000 levels)", "Compact, Extract, Digest", "safe: no stack overflow; the arguments are treated as opaque text", func(t *testing.T) {
			c := newC(t, compact.WithContextWindow(16_000))
			safeCompact(t, c, join(one(bSys, bTask), one(bCall("n", "bash", nested), bResult("n", nested)), bFiller(12), one(llms.TextParts(llms.ChatMessageTypeHuman, "next"))))
			for _, tool := range []string{"bash", "json", "read_file", "http_get", "sql", "unknown"} {
				assert.Empty(t, extractortestProblems(extractors.Default().Extract(extractors.Call{Name: tool, Arguments: nested}, nested)))
			}
		}},
		{"very many messages (20,000)", "Compact", "safe: compacted within budget", func(t *testing.T) {
			msgs := one(bSys)
			for i := 0; i < 20_000; i++ {
				msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprint("message ", i)))
			}
			safeCompact(t, newC(t, compact.WithContextWindow(16_000)), msgs)
		}},
		{"negative options", "compact.New", "error wrapping compact.ErrInvalidOption naming the option", func(t *testing.T) {
			for name, opt := range map[string]compact.Option{
				"WithContextWindow": compact.WithContextWindow(-1), "WithReservedOutput": compact.WithReservedOutput(-5),
				"WithMinMessages": compact.WithMinMessages(-1), "WithPreserveRecent": compact.WithPreserveRecent(-1),
				//lint:ignore SA1019 the deprecated option still validates its value
				"WithCooldown": compact.WithCooldown(-1), "WithMaxChainDepth": compact.WithMaxChainDepth(0),
				"WithMaxSummaryTokens": compact.WithMaxSummaryTokens(-1), "WithSummaryInputCap": compact.WithSummaryInputCap(-8),
			} {
				_, err := compact.New(opt)
				require.ErrorIs(t, err, compact.ErrInvalidOption, name)
				assert.Contains(t, err.Error(), name)
			}
		}},
		{"NaN and infinite options", "compact.New", "error wrapping compact.ErrInvalidOption", func(t *testing.T) {
			for i, opt := range []compact.Option{
				compact.WithTrigger(math.NaN(), 0.5), compact.WithTrigger(0.8, math.NaN()), compact.WithTrigger(math.Inf(1), 0.5),
				compact.WithTrigger(0.8, math.Inf(-1)), compact.WithEmergencyRatio(math.NaN()), compact.WithEmergencyRatio(math.Inf(1)),
				compact.WithTrigger(0.5, 0.8), compact.WithTrigger(1.5, 0.5),
			} {
				_, err := compact.New(opt)
				require.ErrorIs(t, err, compact.ErrInvalidOption, "option %d", i)
			}
		}},
		{"window smaller than the system prompt", "Compact, Wrap.GenerateContent", "error compact.ErrBudgetTooSmall; Wrap returns it wrapped and sends nothing", func(t *testing.T) {
			c := newC(t, compact.WithContextWindow(1_000))
			msgs := one(llms.TextParts(llms.ChatMessageTypeSystem, strings.Repeat("rule ", 5_000)), bTask)
			_, err := c.Compact(context.Background(), compact.NewSession("small"), msgs)
			require.ErrorIs(t, err, compact.ErrBudgetTooSmall)
			sent, err := wrapSend(t, c, context.Background(), msgs)
			require.ErrorIs(t, err, compact.ErrBudgetTooSmall)
			assert.Nil(t, sent, "nothing sent")
		}},
		{"window of 1 token, reserved output >= window", "compact.New, Compact", "New: ErrInvalidOption for reserved >= window; a 1-token window: ErrBudgetTooSmall", func(t *testing.T) {
			_, err := compact.New(compact.WithContextWindow(100), compact.WithReservedOutput(100))
			require.ErrorIs(t, err, compact.ErrInvalidOption)
			c := newC(t, compact.WithContextWindow(1))
			_, err = c.Compact(context.Background(), compact.NewSession("one"), one(bSys, bTask))
			require.ErrorIs(t, err, compact.ErrBudgetTooSmall)
		}},
		{"canceled context", "Compact, Wrap.GenerateContent, Memory.LoadMemoryVariables", "the context's error; the session unchanged; nothing sent", func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			c := newC(t)
			s := compact.NewSession("canceled")
			_, err := c.Compact(ctx, s, one(bSys, bTask))
			require.ErrorIs(t, err, context.Canceled)
			assert.Nil(t, s.Latest())
			sent, err := wrapSend(t, c, ctx, one(bSys, bTask))
			require.ErrorIs(t, err, context.Canceled)
			assert.Nil(t, sent)
			_, err = memory.New(c).LoadMemoryVariables(ctx, nil)
			require.ErrorIs(t, err, context.Canceled)
		}},
		{"corrupted persisted session state", "Session.UnmarshalJSON + Compact", "an error, or a safe result; never a panic", func(t *testing.T) {
			msgs := one(bSys, llms.TextParts(llms.ChatMessageTypeHuman, "task with some text"))
			ids := compact.MessageIDs(msgs)
			for _, st := range []string{
				fmt.Sprintf(`{"version":1,"cut":{%q:[0,-5,0]}}`, ids[1]),
				fmt.Sprintf(`{"version":1,"cut":{%q:[0,3,-2]}}`, ids[1]),
				fmt.Sprintf(`{"version":1,"masked":{%q:["a","b","c"]}}`, ids[1]),
				fmt.Sprintf(`{"version":1,"dropped":[%q, %q]}`, ids[0], ids[1]),
				`{"version":1,"lastCompactionLen":-100,"calibration":-3}`,
				`{"version":1,"chain":[{"id":"x","depth":-1,"summary":""}]}`,
			} {
				s := compact.NewSession("")
				if s.UnmarshalJSON([]byte(st)) != nil {
					continue
				}
				c := newC(t)
				res, err := compactNoPanic(c, s, msgs)
				require.False(t, errors.Is(err, errPanic), "state %s: %v", st, err)
				if err == nil {
					require.NoError(t, checkOutput(c, msgs, res), "state %s", st)
				}
			}
		}},
		{"session state of a newer or negative version; a chain record with an empty summary; not JSON", "Session.UnmarshalJSON", "error; the session is unchanged", func(t *testing.T) {
			s := compact.NewSession("v")
			require.Error(t, s.UnmarshalJSON([]byte(fmt.Sprintf(`{"version":%d}`, compact.SessionVersion+1))))
			require.Error(t, s.UnmarshalJSON([]byte(`{"version":-1}`)))
			require.Error(t, s.UnmarshalJSON([]byte(`{"version":1,"chain":[{"id":"x","summary":"  "}]}`)))
			require.Error(t, s.UnmarshalJSON([]byte(`{"version":`)))
			assert.Equal(t, "v", s.ID())
		}},
		{"summarizer model failures (garbage, 2 MB, panic, nil response)", "Compact with WithSummarizer", "safe: rule-based fallback, Event.Mode \"fallback\"; with WithAbortOnFailure an error wrapping compact.ErrSummarizer", func(t *testing.T) {
			msgs := join(one(bSys, bTask), bChat(80), one(llms.TextParts(llms.ChatMessageTypeHuman, "next")))
			for name, fn := range map[string]func([]llms.MessageContent) (*llms.ContentResponse, error){
				"garbage": func([]llms.MessageContent) (*llms.ContentResponse, error) {
					return reply("Sure! Here is your summary."), nil
				},
				"2MB": func([]llms.MessageContent) (*llms.ContentResponse, error) {
					return reply(strings.Repeat("garbage ", 2<<20/8)), nil
				},
				"panic": func([]llms.MessageContent) (*llms.ContentResponse, error) { panic("boom") },
				"nil":   func([]llms.MessageContent) (*llms.ContentResponse, error) { return nil, nil },
			} {
				fn := fn
				model := funcModel(func(_ context.Context, m []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
					return fn(m)
				})
				var ev compact.Event
				c := newC(t, compact.WithContextWindow(3_000), compact.WithSummarizer(model), onEvent(func(e compact.Event) { ev = e }))
				safeCompact(t, c, msgs)
				assert.Equal(t, compact.ModeFallback, ev.Mode, name)
				ca := newC(t, compact.WithContextWindow(3_000), compact.WithSummarizer(model), compact.WithAbortOnFailure(true))
				_, err := ca.Compact(context.Background(), compact.NewSession(name), msgs)
				require.ErrorIs(t, err, compact.ErrSummarizer, name)
			}
		}},
		{"summary reply: oversized, trailing data, wrong types", "prompts.ParseSummary", "error wrapping prompts.ErrInvalidSummary", func(t *testing.T) {
			for _, r := range []string{strings.Repeat(" ", 2<<20) + `{"summary":"x"}`, `{"summary":"x"} {"summary":"y"}`, `{"summary": 5}`, `{"summary":"x","keyPoints":"y"}`, "```python\n{}\n```", `{"summary":"x","schemaVersion":99}`} {
				_, err := prompts.ParseSummary(r)
				require.ErrorIs(t, err, prompts.ErrInvalidSummary, "%.60q", r)
			}
		}},
		{"summary reply far over its max_tokens (more than max(16 bytes per token of the cap, 64 KiB))", "LLM summarizer", "rejected as invalid before it is tokenized or parsed (no CPU spent on it); rule-based fallback", func(t *testing.T) {
			msgs := join(one(bSys, bTask), bChat(80), one(llms.TextParts(llms.ChatMessageTypeHuman, "next")))
			huge := `{"summary":"` + strings.Repeat("a", 1<<20) + `"}` // one megabyte without a separator
			model := funcModel(func(context.Context, []llms.MessageContent, ...llms.CallOption) (*llms.ContentResponse, error) {
				return reply(huge), nil
			})
			var ev compact.Event
			sum := llmsummary.New([]llms.Model{model})
			c := newC(t, compact.WithContextWindow(3_000), compact.WithCustomSummarizer(sum), onEvent(func(e compact.Event) { ev = e }))
			res, err := c.Compact(context.Background(), compact.NewSession("huge"), msgs)
			require.NoError(t, err)
			require.NoError(t, checkOutput(c, msgs, res))
			assert.Equal(t, compact.ModeFallback, ev.Mode)
			assert.Equal(t, 1, sum.Stats().ValidationErrors, "the reply is rejected as invalid")
		}},
		{"closed database", "Memory.SaveContext, LoadMemoryVariables (SQLite store)", "an error saying what was attempted; never a panic", func(t *testing.T) {
			st, err := sqlitestore.Open(filepath.Join(t.TempDir(), "closed.db"))
			require.NoError(t, err)
			m := memory.New(newC(t), memory.WithStore(st), memory.WithSessionID("s"))
			require.NoError(t, m.SaveContext(context.Background(), map[string]any{"input": "hi"}, map[string]any{"output": "yo"}))
			require.NoError(t, st.Close())
			err = m.SaveContext(context.Background(), map[string]any{"input": "hi"}, map[string]any{"output": "yo"})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "closed")
			_, err = m.LoadMemoryVariables(context.Background(), nil)
			require.Error(t, err)
		}},
		{"unusable database path", "sqlitestore.Open", "an error naming the path", func(t *testing.T) {
			_, err := sqlitestore.Open("")
			require.Error(t, err)
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "notadb"), []byte("this is not a database, just text"), 0o600))
			_, err = sqlitestore.Open(filepath.Join(dir, "notadb"))
			require.Error(t, err)
			_, err = sqlitestore.Open(filepath.Join(dir, "missing-dir", "x.db"))
			require.Error(t, err)
		}},
	}
}

// extractortestProblems runs the extractortest checks (without the
// secrets check) on s.
func extractortestProblems(s extractors.ToolSummary) []string {
	var probs []string
	line := extractors.Format(s)
	if len(line) > extractors.FormatMaxBytes {
		probs = append(probs, "Format over the cap")
	}
	if !utf8.ValidString(line) || strings.ContainsAny(line, "\r\n") {
		probs = append(probs, "Format not one line of valid UTF-8")
	}
	return probs
}

// TestBadInputCatalogue runs the catalogue: every class of bad input at
// every entry point it applies to, with its documented outcome (a clear
// error or a safe result). README.md shows the same table.
func TestBadInputCatalogue(t *testing.T) {
	cases := badInputCatalogue()
	classes := map[string]bool{}
	for _, bc := range cases {
		classes[bc.class] = true
		t.Run(bc.class+"/"+bc.entry, bc.run)
	}
	if len(classes) < 20 {
		t.Errorf("the catalogue covers %d classes, want at least 20", len(classes))
	}
	t.Logf("bad-input catalogue: %d classes, %d rows", len(classes), len(cases))
}

// TestBadInputCatalogueDocumented checks that README.md lists every row of
// the catalogue with its outcome.
func TestBadInputCatalogueDocumented(t *testing.T) {
	b, err := os.ReadFile("README.md")
	require.NoError(t, err)
	doc := string(b)
	for _, bc := range badInputCatalogue() {
		row := fmt.Sprintf("| %s | %s | %s |", bc.class, bc.entry, bc.outcome)
		assert.Contains(t, doc, row, "README.md lacks the catalogue row")
	}
}

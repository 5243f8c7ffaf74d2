package compact

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentcompact/compact/internal/callpaths"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// longRun returns a synthetic agent run of calls tool calls naming
// distinct paths, in every argument shape: flat (Read's file_path,
// str_replace_editor's path), nested (Moatless ViewCode's
// files[].file_path, deeper objects, lists of paths) and shell commands,
// with outputs of about outBytes bytes. Paths are revisited.
func longRun(calls, distinct, outBytes int) []llms.MessageContent {
	path := func(i int) string {
		i %= distinct
		if i%3 == 0 {
			return fmt.Sprintf("/work/app/internal/pkg%02d/handler_%03d.go", i%17, i)
		}
		return fmt.Sprintf("src/module%02d/sub/file_%03d.py", i%13, i)
	}
	args := func(k int) (string, string) {
		a, b := path(2*k), path(2*k+1)
		var v any
		name := ""
		switch k % 6 {
		case 0:
			name, v = "Read", map[string]any{"file_path": a}
		case 1:
			name, v = "ViewCode", map[string]any{"files": []any{map[string]any{"file_path": a, "start_line": 1}, map[string]any{"file_path": b}}}
		case 2:
			name, v = "bash", map[string]any{"command": "cat " + a + " && grep -n 'def ' " + b}
		case 3:
			name, v = "str_replace_editor", map[string]any{"command": "str_replace", "path": a, "old_str": "x = 1", "new_str": "x = 2"}
		case 4:
			name, v = "apply_edits", map[string]any{"edits": []any{map[string]any{"target": map[string]any{"file": a}, "text": "y"}}, "paths": []any{b}}
		case 5:
			name, v = "NotebookEdit", map[string]any{"notebook_path": a, "new_source": "print(1)"}
		}
		j, _ := json.Marshal(v)
		return name, string(j)
	}
	out := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are a coding agent."),
		llms.TextParts(llms.ChatMessageTypeHuman, "Refactor the handlers. Remember to keep the API stable."),
	}
	for k := 0; k < calls; k++ {
		name, a := args(k)
		id := fmt.Sprintf("call_%03d", k)
		body := strings.Repeat(fmt.Sprintf("line %d of the output of call %d\n", k, k), outBytes/32+1)
		out = append(out,
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
				llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: name, Arguments: a}}}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: id, Name: name, Content: body}}})
	}
	return out
}

// TestLongRunKeepsEveryPath replays a synthetic 300-call run naming 200
// distinct paths (flat, nested and in shell commands) through the engine
// with its real tokenizer and rule-based summaries, one Compact call per
// agent turn, and checks that every context sent shows every path of
// every call it summarized (a substring search finds it), and that every
// summary stays within SummaryCap()+IndexCap().
func TestLongRunKeepsEveryPath(t *testing.T) {
	run := longRun(300, 200, 1200)
	distinct := map[string]bool{}
	for _, m := range run {
		for _, p := range m.Parts {
			if tc, ok := p.(llms.ToolCall); ok {
				for _, path := range callpaths.Call(tc.FunctionCall.Name, tc.FunctionCall.Arguments) {
					distinct[path] = true
				}
			}
		}
	}
	require.Len(t, distinct, 200)
	for _, window := range []int{24_000, 32_000} {
		t.Run(fmt.Sprint(window), func(t *testing.T) {
			// A cap under the index, so that the index grows the summary past it.
			c, err := New(WithContextWindow(window), WithMaxSummaryTokens(800))
			require.NoError(t, err)
			s := NewSession("long-run")
			summarized := map[string]bool{}
			compactions, grown := 0, 0
			for i := 1; i < len(run); i++ {
				if run[i].Role != llms.ChatMessageTypeAI {
					continue
				}
				res, err := c.Compact(context.Background(), s, run[:i:i])
				require.NoError(t, err)
				require.LessOrEqual(t, res.Tokens, c.Budget(), "I1")
				var b strings.Builder
				for _, m := range res.Messages {
					msg.WriteText(&b, m)
				}
				text := b.String()
				for j := 0; j < i; j++ {
					if !res.States[j].Summarized() {
						continue
					}
					for _, p := range run[j].Parts {
						if tc, ok := p.(llms.ToolCall); ok {
							for _, path := range callpaths.Call(tc.FunctionCall.Name, tc.FunctionCall.Arguments) {
								summarized[path] = true
								require.Contains(t, text, path, "turn %d: a path of a summarized call", i)
							}
						}
					}
				}
				if res.Compacted && res.Summary != nil {
					compactions++
					n := c.Counter().Count(res.Summary.Summary)
					require.LessOrEqual(t, n, c.SummaryCap()+c.IndexCap(), "turn %d: the summary within its cap", i)
					if n > c.SummaryCap() {
						grown++
					}
				}
			}
			t.Logf("window %d: %d compactions (%d summaries grown past SummaryCap %d for the index, at most +%d), %d distinct paths summarized",
				window, compactions, grown, c.SummaryCap(), c.IndexCap(), len(summarized))
			assert.Greater(t, len(summarized), 180, "most paths' calls were summarized")
			assert.Positive(t, grown, "the index grew the summary")
		})
	}
}

package middleware

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/agentcompact/compact"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/tools"
)

var refRe = regexp.MustCompile(`ref:[a-z2-7]{8}`)

// recordingTool records what a tool answered.
type recordingTool struct {
	tools.Tool
	mu  sync.Mutex
	ins []string
	out []string
}

func (r *recordingTool) Call(ctx context.Context, in string) (string, error) {
	out, err := r.Tool.Call(ctx, in)
	r.mu.Lock()
	r.ins, r.out = append(r.ins, in), append(r.out, out)
	r.mu.Unlock()
	return out, err
}

// recallScript reads the files one by one; once a masked output's ref is in
// what it was sent, it calls recall with it once, then answers.
func recallScript(kind string, files []string) func(int, []llms.MessageContent) (*llms.ContentResponse, error) {
	recalled := false
	act := func(step int, tool, input string) *llms.ContentResponse {
		if kind == "functions" {
			args, _ := json.Marshal(map[string]string{"__arg1": input})
			return &llms.ContentResponse{Choices: []*llms.ContentChoice{{ToolCalls: []llms.ToolCall{{
				ID: fmt.Sprintf("call_%d", step), Type: "function", FunctionCall: &llms.FunctionCall{Name: tool, Arguments: string(args)}}}}}}
		}
		return textResponse(fmt.Sprintf("Thought: next.\nAction: %s\nAction Input: %s", tool, input))
	}
	return func(n int, msgs []llms.MessageContent) (*llms.ContentResponse, error) {
		if !recalled {
			var sent strings.Builder
			for _, m := range msgs {
				sent.WriteString(fmt.Sprint(m.Parts))
			}
			if ref := refRe.FindString(sent.String()); ref != "" {
				recalled = true
				return act(n, "recall", ref), nil
			}
		}
		if n <= len(files) {
			return act(n, "read_file", files[n-1]), nil
		}
		if kind == "functions" {
			return textResponse("done"), nil
		}
		return textResponse("Thought: I now know the final answer\nFinal Answer: done"), nil
	}
}

// TestRecallThroughExecutor: an agent run by langchaingo's executor (the
// OpenAI functions agent, and the MRKL text agent) reads files until the
// context compacts, then calls the recall tool with a ref it saw in a
// masked output, and gets the original back.
func TestRecallThroughExecutor(t *testing.T) {
	// Files of a few KB, so that old outputs are masked (a ref shows)
	// rather than summarized whole as one file of many KB would be.
	var files []string
	for _, f := range goFiles(t) {
		if fi, err := os.Stat(f); err == nil && fi.Size() < 12<<10 {
			files = append(files, f)
		}
	}
	require.GreaterOrEqual(t, len(files), 6)
	for _, kind := range []string{"functions", "mrkl"} {
		t.Run(kind, func(t *testing.T) {
			// The specification's shallow policy leaves masked outputs (and
			// their refs) in the context; the default compacts deeper.
			c := newCompactor(t, 8_000, compact.WithTrigger(0.80, 0.70))
			rec := &recorder{reply: recallScript(kind, files)}
			llm := Wrap(rec, c)
			recall := &recordingTool{Tool: llm.RecallTool()}
			reader := fileTool{"."}
			tl := []tools.Tool{reader, recall}
			var agent agents.Agent = agents.NewOneShotAgent(llm, tl)
			if kind == "functions" {
				agent = agents.NewOpenAIFunctionsAgent(llm, tl)
			}
			ctx := WithSession(context.Background(), "run-"+kind)
			_, err := chains.Run(ctx, agents.NewExecutor(agent, agents.WithMaxIterations(len(files)+3)), "What do these files do?")
			require.NoError(t, err)
			require.Len(t, recall.ins, 1, "the model called recall once")
			out := recall.out[0]
			assert.True(t, strings.HasPrefix(out, recall.ins[0]), "the answer names the ref: %.80q", out)
			matched := false
			for _, f := range files {
				orig, _ := reader.Call(context.Background(), f)
				first := strings.SplitN(orig, "\n", 2)[0]
				if first != "" && strings.Contains(out, first) {
					matched = true
				}
			}
			assert.True(t, matched, "the original comes back: %.200q", out)
		})
	}
}

// TestRecallNeedsSession: without WithSession the tool answers in one line
// that it cannot know the session; sessions never see each other's
// originals.
func TestRecallNeedsSession(t *testing.T) {
	c := newCompactor(t, 2_500)
	m := Wrap(&recorder{}, c)
	tool := m.RecallTool()
	assert.Equal(t, "recall", tool.Name())
	out, err := tool.Call(context.Background(), "ref:abcdefgh")
	require.NoError(t, err)
	assert.NotContains(t, strings.TrimSpace(out), "\n", "one line")
	assert.Contains(t, strings.ToLower(out), "session")

	a := WithSession(context.Background(), "a")
	msgs := run("secret-a", 0, 0)
	for r := range 30 {
		msgs = append(msgs, round("secret-a", r, 400)...)
		_, err := m.GenerateContent(a, msgs)
		require.NoError(t, err)
	}
	res, err := c.View(context.Background(), m.Session("a"), msgs)
	require.NoError(t, err)
	var ref string
	for _, r := range res.Refs {
		if r != "" {
			ref = r
			break
		}
	}
	require.NotEmpty(t, ref)
	got, err := tool.Call(a, "ref:"+ref)
	require.NoError(t, err)
	assert.Contains(t, got, "ref:"+ref)
	b := WithSession(context.Background(), "b")
	other := run("other-b", 0, 0)
	for r := range 30 {
		other = append(other, round("other-b", r, 400)...)
		_, err = m.GenerateContent(b, other)
		require.NoError(t, err)
	}
	own, err := tool.Call(b, "other-b")
	require.NoError(t, err)
	require.Contains(t, own, "// other-b", "session b has compacted originals of its own")
	for _, in := range []string{"ref:" + ref, "secret-a", "handler0_1"} {
		got, err := tool.Call(b, in)
		require.NoError(t, err)
		assert.NotContains(t, got, "// secret-a", "session b reads nothing of a (%s)", in)
	}
}

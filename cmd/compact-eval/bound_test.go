package main

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/internal/trajectory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// boundRun is a system message, a task, then n identical tool rounds.
func boundRun(n int) []llms.MessageContent {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are a coding agent."),
		llms.TextParts(llms.ChatMessageTypeHuman, "Fix the failing test in parse.go."),
	}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("call_%02d", i)
		msgs = append(msgs,
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
				llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: "bash", Arguments: `{"command":"cat parse.go"}`}}}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: id, Name: "bash", Content: "package parse\n\nfunc Parse(s string) error { return nil }\n"}}},
		)
	}
	return append(msgs, llms.TextParts(llms.ChatMessageTypeAI, "Done."))
}

func TestFewestCompactions(t *testing.T) {
	counter, err := budget.NewCounter("gpt-4o")
	require.NoError(t, err)
	msgs := boundRun(10) // 11 calls
	pinned := counter.CountMessage(msgs[0]) + counter.CountMessage(msgs[1])
	round := counter.CountMessage(msgs[2]) + counter.CountMessage(msgs[3])
	// Room for the pinned messages and 3 rounds: call k (1-based) holds
	// k-1 rounds, so call 5 compacts down to its last round, then every
	// third call again: calls 5, 8 and 11.
	bud := budget.ReplyPriming + pinned + 3*round
	b := fewestCompactions(msgs, counter, bud)
	assert.Equal(t, stabilityBound{compactions: 3, calls: 10}, b)
	assert.InDelta(t, 0.7, b.share(), 1e-9)

	b = fewestCompactions(msgs, counter, 1<<20)
	assert.Equal(t, stabilityBound{compactions: 0, calls: 10}, b, "everything fits")
	assert.Equal(t, 1.0, stabilityBound{}.share())

	// A budget the first call already exceeds: that call is not counted
	// (no call before it), the later ones compact every time.
	b = fewestCompactions(msgs, counter, budget.ReplyPriming+pinned)
	assert.Equal(t, stabilityBound{compactions: 10, calls: 10}, b)
	assert.Equal(t, stabilityBound{compactions: 13, calls: 20}, b.add(stabilityBound{3, 10}))
}

// TestFewestCompactionsBoundsTheEngine: on real trajectories, the engine
// with its defaults never compacts less often than the bound allows.
func TestFewestCompactionsBoundsTheEngine(t *testing.T) {
	counter, err := budget.NewCounter("gpt-4o", budget.WithCacheSize(1<<16))
	require.NoError(t, err)
	paths, err := trajectory.Files(testdataDir)
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	for _, window := range []int{8_000, 16_000} {
		for _, p := range paths {
			msgs, err := trajectory.ReadFile(p)
			require.NoError(t, err)
			c, err := compact.New(compact.WithContextWindow(window), compact.WithCounter(counter))
			require.NoError(t, err)
			st, sent := 0, replayEngine(t, c, msgs)
			for i := 1; i < len(sent); i++ {
				if commonPrefix(sent[i-1], sent[i]) < len(sent[i-1]) {
					st++
				}
			}
			b := fewestCompactions(msgs, counter, c.Budget())
			assert.Equal(t, len(sent)-1, b.calls, "%s at %d", filepath.Base(p), window)
			assert.LessOrEqual(t, b.compactions, st, "%s at %d: the bound is at most the engine's unstable calls", filepath.Base(p), window)
			t.Logf("%s at %d: %d calls, engine %d unstable, bound %d", filepath.Base(p), window, len(sent), st, b.compactions)
		}
	}
}

// replayEngine returns what c sends on each call of msgs.
func replayEngine(t *testing.T, c *compact.Compactor, msgs []llms.MessageContent) [][]llms.MessageContent {
	s := compact.NewSession("bound")
	var out [][]llms.MessageContent
	for i := 1; i < len(msgs); i++ {
		if msgs[i].Role != llms.ChatMessageTypeAI {
			continue
		}
		res, err := c.Compact(context.Background(), s, msgs[:i:i])
		require.NoError(t, err)
		out = append(out, res.Messages)
	}
	return out
}

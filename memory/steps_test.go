package memory

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

func TestSplitSteps(t *testing.T) {
	s1 := []schema.AgentStep{{Action: schema.AgentAction{Tool: "a"}}}
	s2 := []schema.AgentStep{{Action: schema.AgentAction{Tool: "b"}}}
	out := map[string]any{"output": "x", "intermediateSteps": s1, "other": s2}
	steps, rest := splitSteps(out)
	assert.Equal(t, map[string]any{"output": "x"}, rest)
	assert.Equal(t, []schema.AgentStep{s1[0], s2[0]}, steps, "in key order")
	assert.Len(t, out, 3, "the outputs are not modified")
	steps, rest = splitSteps(map[string]any{"output": "x"})
	assert.Nil(t, steps)
	assert.Equal(t, map[string]any{"output": "x"}, rest)
}

func TestToolRounds(t *testing.T) {
	steps := []schema.AgentStep{
		{Action: schema.AgentAction{Tool: "search", ToolInput: "go", Log: "Invoking both\n", ToolID: "c1"}, Observation: "r1"},
		{Action: schema.AgentAction{Tool: "fetch", ToolInput: `{"url":"u"}`, Log: "Invoking both\n", ToolID: "c2"}, Observation: "r2"},
		{Observation: "Could not parse output"},
		{Action: schema.AgentAction{Tool: "calc", ToolInput: "2+2", Log: "Action: calc"}, Observation: "4"},
	}
	got := toolRounds(steps, "salt")
	require.Len(t, got, 5)
	ai := got[0].(llms.AIChatMessage)
	assert.Equal(t, "Invoking both", ai.Content)
	require.Len(t, ai.ToolCalls, 2, "parallel calls of one reply share an AI message")
	assert.Equal(t, "c1", ai.ToolCalls[0].ID)
	assert.JSONEq(t, `{"__arg1":"go"}`, ai.ToolCalls[0].FunctionCall.Arguments)
	assert.JSONEq(t, `{"url":"u"}`, ai.ToolCalls[1].FunctionCall.Arguments)
	assert.Equal(t, llms.ToolChatMessage{ID: "c1", Content: "r1"}, got[1])
	assert.Equal(t, llms.ToolChatMessage{ID: "c2", Content: "r2"}, got[2])
	ai2 := got[3].(llms.AIChatMessage)
	require.Len(t, ai2.ToolCalls, 1)
	id := ai2.ToolCalls[0].ID
	assert.Regexp(t, `^call_[0-9a-f]{16}$`, id)
	assert.Equal(t, llms.ToolChatMessage{ID: id, Content: "4"}, got[4])
	assert.Equal(t, id, toolRounds(steps, "salt")[3].(llms.AIChatMessage).ToolCalls[0].ID, "ids are deterministic")
	assert.NotEqual(t, id, toolRounds(steps, "other")[3].(llms.AIChatMessage).ToolCalls[0].ID)
	assert.Empty(t, toolRounds(nil, ""))

	text := toolRoundsText(steps)
	assert.Contains(t, text, "search(\"go\") returned:\nr1")
	assert.Contains(t, text, "calc(\"2+2\") returned:\n4")
	assert.NotContains(t, text, "Could not parse")
}

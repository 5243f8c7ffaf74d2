package memory

import (
	"context"
	"fmt"
	"strings"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	lcmemory "github.com/tmc/langchaingo/memory"
	"github.com/tmc/langchaingo/prompts"
	"github.com/tmc/langchaingo/tools"
)

// fakeTool is a deterministic tool: it answers from a table.
type fakeTool struct {
	name    string
	answers map[string]string
	calls   []string
}

func (t *fakeTool) Name() string        { return t.name }
func (t *fakeTool) Description() string { return "looks things up" }
func (t *fakeTool) Call(_ context.Context, input string) (string, error) {
	t.calls = append(t.calls, input)
	if a, ok := t.answers[input]; ok {
		return a, nil
	}
	return "no data for " + input, nil
}

// promptText returns the concatenated text of a request's messages.
func promptText(msgs []llms.MessageContent) string {
	var b strings.Builder
	for _, m := range msgs {
		for _, p := range m.Parts {
			if t, ok := p.(llms.TextContent); ok {
				b.WriteString(t.Text)
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

func TestConversationChain(t *testing.T) {
	ctx := context.Background()
	ins, outs := corpusTexts(t)
	llm := &scriptedModel{}
	for i := 0; i < 40; i++ {
		llm.replies = append(llm.replies, scriptedReply{content: outs[i%len(outs)]})
	}
	h := store.NewChatHistory()
	mem := New(testCompactor(t, 3000), WithChatHistory(h))
	chain := chains.NewConversation(llm, mem)
	var sent []string
	for i := 0; i < 40; i++ {
		in := fmt.Sprintf("turn %d: %s", i, ins[i%len(ins)])
		sent = append(sent, in)
		out, err := chains.Run(ctx, chain, in)
		require.NoError(t, err)
		require.Equal(t, strings.TrimSpace(outs[i%len(outs)]), strings.TrimSpace(out))
		req, err := llm.lastRequest()
		require.NoError(t, err)
		require.LessOrEqual(t, mem.c.CountTokens(req), mem.c.Budget(), "turn %d: the whole prompt fits", i)
		if i == 1 {
			req, err := llm.lastRequest()
			require.NoError(t, err)
			assert.Contains(t, promptText(req), "Human: "+sent[0], "the second turn sees the first")
		}
	}
	req, err := llm.lastRequest()
	require.NoError(t, err)
	prompt := promptText(req)
	assert.Contains(t, prompt, compact.SummaryPreamble, "the history was compacted")
	// The engine pins the first human message (the task): beside the
	// largest inputs of this test (2,208 tokens of a 3,000-token budget) it
	// had to cut it, with its visible marker.
	assert.Contains(t, prompt, "Human: "+sent[0][:2], "the engine pins the first human message (the task)")
	assert.Regexp(t, `\[… compact: \d+ bytes cut, ref:[a-z2-7]{8} …( instructions in the cut part: [^\n]+)?\]`, prompt)
	// Before the retrieved earlier messages (which may bring it back, with its ref).
	stable, _, _ := strings.Cut(prompt, RetrievedPreamble)
	assert.NotContains(t, stable, "Human: "+sent[1])
	assert.Contains(t, prompt, "Human: "+sent[38], "the recent turns are verbatim")

	// The originals are all still in the history, and no summary is.
	msgs, err := h.Messages(ctx)
	require.NoError(t, err)
	require.Len(t, msgs, 80)
	for i, m := range msgs {
		if i%2 == 0 {
			require.Equal(t, llms.HumanChatMessage{Content: sent[i/2]}, m)
		}
		assert.NotContains(t, m.GetContent(), compact.SummaryPreamble)
	}
	sums, err := mem.Summaries(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, sums)
	require.NoError(t, mem.Verify(ctx))
}

func TestLLMChainWithMemory(t *testing.T) {
	ctx := context.Background()
	t.Run("string", func(t *testing.T) {
		llm := &scriptedModel{replies: []scriptedReply{{content: "Paris"}, {content: "About 2.1 million"}}}
		mem := New(testCompactor(t, 8000), WithInputKey("question"))
		chain := chains.NewLLMChain(llm, prompts.NewPromptTemplate("{{.history}}\nQuestion: {{.question}}", []string{"history", "question"}))
		chain.Memory = mem
		_, err := chains.Call(ctx, chain, map[string]any{"question": "Capital of France?"})
		require.NoError(t, err)
		out, err := chains.Call(ctx, chain, map[string]any{"question": "Population?"})
		require.NoError(t, err)
		assert.Equal(t, "About 2.1 million", out["text"])
		req, err := llm.lastRequest()
		require.NoError(t, err)
		assert.Contains(t, promptText(req), "Human: Capital of France?\nAI: Paris\nQuestion: Population?")
	})
	t.Run("messages", func(t *testing.T) {
		llm := &scriptedModel{replies: []scriptedReply{{content: "Paris"}, {content: "2.1 million"}}}
		mem := New(testCompactor(t, 8000), WithReturnMessages(true))
		prompt := prompts.NewChatPromptTemplate([]prompts.MessageFormatter{
			prompts.NewSystemMessagePromptTemplate("You answer briefly.", nil),
			prompts.MessagesPlaceholder{VariableName: "history"},
			prompts.NewHumanMessagePromptTemplate("{{.input}}", []string{"input"}),
		})
		chain := chains.NewLLMChain(llm, prompt)
		chain.Memory = mem
		_, err := chains.Call(ctx, chain, map[string]any{"input": "Capital of France?"})
		require.NoError(t, err)
		_, err = chains.Call(ctx, chain, map[string]any{"input": "Population?"})
		require.NoError(t, err)
		req, err := llm.lastRequest()
		require.NoError(t, err)
		assert.Contains(t, promptText(req), "Human: Capital of France?\nAI: Paris\nHuman: Population?")
	})
}

func TestConversationalAgentExecutor(t *testing.T) {
	ctx := context.Background()
	tool := &fakeTool{name: "weather", answers: map[string]string{"Paris": "Paris: 22°C, sunny"}}
	llm := &scriptedModel{replies: []scriptedReply{
		{content: "Thought: Do I need to use a tool? Yes\nAction: weather\nAction Input: Paris"},
		{content: "Thought: Do I need to use a tool? No\nAI: It is 22°C and sunny in Paris."},
		{content: "Thought: Do I need to use a tool? No\nAI: You asked about Paris."},
	}}
	for _, steps := range []bool{false, true} {
		t.Run(fmt.Sprintf("intermediate steps %v", steps), func(t *testing.T) {
			llm := &scriptedModel{replies: append([]scriptedReply(nil), llm.replies...)}
			h := store.NewChatHistory()
			mem := New(testCompactor(t, 8000), WithChatHistory(h))
			opts := []agents.Option{agents.WithMemory(mem)}
			if steps {
				opts = append(opts, agents.WithReturnIntermediateSteps())
			}
			exec := agents.NewExecutor(agents.NewConversationalAgent(llm, []tools.Tool{tool}), opts...)
			out, err := chains.Call(ctx, exec, map[string]any{"input": "Weather in Paris?"})
			require.NoError(t, err)
			assert.Equal(t, " It is 22°C and sunny in Paris.", out["output"])
			_, err = chains.Call(ctx, exec, map[string]any{"input": "What did I ask?"})
			require.NoError(t, err)
			req, err := llm.lastRequest()
			require.NoError(t, err)
			prompt := promptText(req)
			assert.Contains(t, prompt, "Human: Weather in Paris?\n")
			assert.Contains(t, prompt, "AI:  It is 22°C and sunny in Paris.")
			msgs, err := h.Messages(ctx)
			require.NoError(t, err)
			if !steps {
				assert.Len(t, msgs, 4)
				return
			}
			// The tool round sits between the question and the answer, and
			// the next turn sees the tool's output.
			require.Len(t, msgs, 6)
			ai, ok := msgs[1].(llms.AIChatMessage)
			require.True(t, ok, "%T", msgs[1])
			require.Len(t, ai.ToolCalls, 1)
			assert.Equal(t, "weather", ai.ToolCalls[0].FunctionCall.Name)
			assert.JSONEq(t, `{"__arg1":"Paris"}`, ai.ToolCalls[0].FunctionCall.Arguments)
			assert.Equal(t, llms.ToolChatMessage{ID: ai.ToolCalls[0].ID, Content: "Paris: 22°C, sunny"}, msgs[2])
			assert.Contains(t, prompt, "tool: Paris: 22°C, sunny")
		})
	}
	t.Run("ConversationBuffer rejects intermediate steps", func(t *testing.T) {
		llm := &scriptedModel{replies: append([]scriptedReply(nil), llm.replies...)}
		exec := agents.NewExecutor(agents.NewConversationalAgent(llm, []tools.Tool{tool}),
			agents.WithMemory(lcmemory.NewConversationBuffer()), agents.WithReturnIntermediateSteps())
		_, err := chains.Call(ctx, exec, map[string]any{"input": "Weather in Paris?"})
		require.ErrorIs(t, err, lcmemory.ErrInvalidInputValues)
	})
}

func TestOpenAIFunctionsAgentExecutor(t *testing.T) {
	ctx := context.Background()
	tool := &fakeTool{name: "lookup", answers: map[string]string{"order 42": "order 42: shipped 2024-05-02 via DHL, tracking DH123"}}
	llm := &scriptedModel{replies: []scriptedReply{
		{toolCalls: []llms.ToolCall{{ID: "call_abc", Type: "function",
			FunctionCall: &llms.FunctionCall{Name: "lookup", Arguments: `{"__arg1":"order 42"}`}}}},
		{content: "Your order 42 has shipped."},
		{content: "It ships with DHL, tracking DH123."},
	}}
	h := store.NewChatHistory()
	mem := New(testCompactor(t, 8000), WithChatHistory(h))
	// In v0.1.14 the OpenAI functions agent ignores agents.WithMemory; the
	// executor loads the memory, and the history reaches the prompt through
	// an extra message that uses {{.history}}.
	agent := agents.NewOpenAIFunctionsAgent(llm, []tools.Tool{tool},
		agents.NewOpenAIOption().WithExtraMessages([]prompts.MessageFormatter{
			prompts.NewHumanMessagePromptTemplate("Conversation so far:\n{{.history}}", []string{"history"}),
		}))
	exec := agents.NewExecutor(agent, agents.WithMemory(mem), agents.WithReturnIntermediateSteps())
	out, err := chains.Call(ctx, exec, map[string]any{"input": "Where is order 42?"})
	require.NoError(t, err)
	assert.Equal(t, "Your order 42 has shipped.", out["output"])
	_, err = chains.Call(ctx, exec, map[string]any{"input": "Which carrier?"})
	require.NoError(t, err)
	req, err := llm.lastRequest()
	require.NoError(t, err)
	prompt := promptText(req)
	assert.Contains(t, prompt, "Human: Where is order 42?")
	assert.Contains(t, prompt, "tool: order 42: shipped 2024-05-02 via DHL, tracking DH123", "the later turn sees the tool output")
	assert.Contains(t, prompt, "AI: Your order 42 has shipped.")

	// The history keeps the call id the model chose.
	msgs, err := h.Messages(ctx)
	require.NoError(t, err)
	require.Len(t, msgs, 4+2)
	ai := msgs[1].(llms.AIChatMessage)
	assert.Equal(t, "call_abc", ai.ToolCalls[0].ID)
	assert.Equal(t, llms.ToolChatMessage{ID: "call_abc", Content: "order 42: shipped 2024-05-02 via DHL, tracking DH123"}, msgs[2])
}

// TestAgentToolRoundsCompacted runs many executor turns with tool rounds in
// a small window: old tool outputs are masked or summarized, the tool pairs
// stay valid, and the context stays within the budget.
func TestAgentToolRoundsCompacted(t *testing.T) {
	ctx := context.Background()
	ins, _ := corpusTexts(t)
	tool := &fakeTool{name: "read_file", answers: map[string]string{}}
	var replies []scriptedReply
	for i := 0; i < 30; i++ {
		path := fmt.Sprintf("src/file%d.py", i)
		tool.answers[path] = ins[i%len(ins)]
		replies = append(replies,
			scriptedReply{toolCalls: []llms.ToolCall{{ID: fmt.Sprintf("call_%d", i), Type: "function",
				FunctionCall: &llms.FunctionCall{Name: "read_file", Arguments: fmt.Sprintf(`{"__arg1":%q}`, path)}}}},
			scriptedReply{content: fmt.Sprintf("Read %s.", path)})
	}
	llm := &scriptedModel{replies: replies}
	c := testCompactor(t, 4000)
	mem := New(c, WithReturnMessages(true))
	agent := agents.NewOpenAIFunctionsAgent(llm, []tools.Tool{tool})
	exec := agents.NewExecutor(agent, agents.WithMemory(New(c)), agents.WithReturnIntermediateSteps())
	for i := 0; i < 30; i++ {
		in := map[string]any{"input": fmt.Sprintf("Read src/file%d.py", i)}
		out, err := chains.Call(ctx, exec, in)
		require.NoError(t, err)
		require.NoError(t, mem.SaveContext(ctx, in, out))
		v, err := mem.LoadMemoryVariables(ctx, nil)
		require.NoError(t, err)
		view := asContent(v["history"].([]llms.ChatMessage))
		require.NoError(t, compact.CheckToolPairs(view), "turn %d", i)
		require.LessOrEqual(t, c.CountTokens(view), c.Budget(), "turn %d", i)
	}
	st, err := mem.Stats(ctx)
	require.NoError(t, err)
	assert.Positive(t, st.Compactions)
	assert.Equal(t, 30*4, st.MessagesTotal)
	assert.Positive(t, st.TokensSaved)
	require.NoError(t, mem.Verify(ctx))
}

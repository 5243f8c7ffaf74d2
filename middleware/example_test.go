package middleware_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/middleware"
	"github.com/tmc/langchaingo/llms"
)

// echoModel stands in for a provider: it reports how much it received.
type echoModel struct{ c *compact.Compactor }

func (e echoModel) GenerateContent(_ context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	reply := fmt.Sprintf("received %d messages", len(msgs))
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: reply}}}, nil
}

func (e echoModel) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, e, prompt, options...)
}

// agentHistory is what a tool-calling agent sends after n file reads.
func agentHistory(n int) []llms.MessageContent {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are a coding agent."),
		llms.TextParts(llms.ChatMessageTypeHuman, "Explain the package."),
	}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("call_%d", i)
		msgs = append(msgs,
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{
				ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: "read_file", Arguments: fmt.Sprintf(`{"path":"f%d.go"}`, i)}}}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{
				ToolCallID: id, Name: "read_file", Content: strings.Repeat(fmt.Sprintf("func F%d() {}\n", i), 150)}}},
		)
	}
	return msgs
}

// Wrap a model; every call, each iteration of an agent's tool loop
// included, is compacted to the compactor's budget.
func ExampleWrap() {
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(8_000))
	if err != nil {
		panic(err)
	}
	var last middleware.CallInfo
	llm := middleware.Wrap(echoModel{c}, c, middleware.WithObserver(func(i middleware.CallInfo) { last = i }))

	ctx := middleware.WithSession(context.Background(), "conversation-42")
	msgs := agentHistory(12)
	resp, err := llm.GenerateContent(ctx, msgs)
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.Choices[0].Content)
	fmt.Println("built more than the budget:", last.InputTokens > last.Budget)
	fmt.Println("sent within the budget:", last.SentTokens <= last.Budget)
	fmt.Println("compaction reason:", last.Compactions[0].Reason)
	// Output:
	// received 9 messages
	// built more than the budget: true
	// sent within the budget: true
	// compaction reason: trigger
}

// Without WithSession, the calls of one agent run share the session keyed
// by their opening (system prompt and task), and the session is reachable
// by the id the observer reports.
func ExampleModel_Session() {
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(8_000))
	if err != nil {
		panic(err)
	}
	var ids []string
	llm := middleware.Wrap(echoModel{c}, c, middleware.WithObserver(func(i middleware.CallInfo) { ids = append(ids, i.SessionID) }))
	for n := 10; n <= 14; n++ { // five iterations of one run
		if _, err := llm.GenerateContent(context.Background(), agentHistory(n)); err != nil {
			panic(err)
		}
	}
	s := llm.Session(ids[0])
	fmt.Println("one session:", ids[0] == ids[4], llm.Sessions())
	fmt.Println("automatic id:", strings.HasPrefix(ids[0], middleware.AutoSessionPrefix))
	fmt.Println("compacted:", s.Stats().Compactions > 0)
	// Output:
	// one session: true 1
	// automatic id: true
	// compacted: true
}

// The prompt tokens providers report, whatever their key.
func ExamplePromptTokens() {
	for _, info := range []map[string]any{
		{"PromptTokens": 1200},                            // openai, ollama, googleai
		{"InputTokens": 900, "CacheReadInputTokens": 300}, // anthropic
		{"input_tokens": 1200},                            // bedrock
		{"usage": map[string]int{"prompt_tokens": 1200}},  // not recognized
	} {
		n, ok := middleware.PromptTokens(&llms.ContentResponse{Choices: []*llms.ContentChoice{{GenerationInfo: info}}})
		fmt.Println(n, ok)
	}
	// Output:
	// 1200 true
	// 1200 true
	// 1200 true
	// 0 false
}

package memory_test

import (
	"context"
	"fmt"
	"strings"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	lcmemory "github.com/tmc/langchaingo/memory"
)

// echoModel is a stand-in for a real model: it answers with the length of
// the prompt it got.
type echoModel struct{}

func (echoModel) GenerateContent(_ context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	n := 0
	for _, m := range msgs {
		for _, p := range m.Parts {
			if t, ok := p.(llms.TextContent); ok {
				n += len(t.Text)
			}
		}
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: fmt.Sprintf("I read %d characters.", n)}}}, nil
}

func (m echoModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}

// Until something is compacted, the Memory loads what a ConversationBuffer
// would.
func Example() {
	ctx := context.Background()
	c, err := compact.New(compact.WithModel("gpt-4o"))
	if err != nil {
		panic(err)
	}
	ours := memory.New(c)
	theirs := lcmemory.NewConversationBuffer()
	for _, mem := range []interface {
		SaveContext(context.Context, map[string]any, map[string]any) error
		LoadMemoryVariables(context.Context, map[string]any) (map[string]any, error)
	}{ours, theirs} {
		_ = mem.SaveContext(ctx, map[string]any{"input": "Hi, I'm Ada."}, map[string]any{"output": "Hello Ada!"})
		vars, _ := mem.LoadMemoryVariables(ctx, nil)
		fmt.Printf("%q\n", vars["history"])
	}
	// Output:
	// "Human: Hi, I'm Ada.\nAI: Hello Ada!"
	// "Human: Hi, I'm Ada.\nAI: Hello Ada!"
}

// A conversation chain keeps working as the conversation outgrows the
// window: the oldest turns are replaced by a summary, the recent ones stay
// verbatim, and the history keeps every original.
func Example_conversationChain() {
	ctx := context.Background()
	c, err := compact.New(compact.WithContextWindow(2000), compact.WithReservedOutput(0))
	if err != nil {
		panic(err)
	}
	mem := memory.New(c)
	chain := chains.NewConversation(echoModel{}, mem)
	for i := 1; i <= 30; i++ {
		question := fmt.Sprintf("Question %d: %s", i, strings.Repeat("tell me more about compaction ", 10))
		if _, err := chains.Run(ctx, chain, question); err != nil {
			panic(err)
		}
	}
	vars, _ := mem.LoadMemoryVariables(ctx, nil)
	history := vars["history"].(string)
	fmt.Println(strings.HasPrefix(history, compact.SummaryPreamble))
	fmt.Println(strings.Contains(history, "Human: Question 30:"))
	msgs, _ := mem.ChatHistory().Messages(ctx)
	fmt.Println(len(msgs), "messages kept in the history")
	st, _ := mem.Stats(ctx)
	fmt.Println(st.TokensActive <= c.Budget(), st.TokensSaved > 0)
	// Output:
	// true
	// true
	// 60 messages kept in the history
	// true true
}

// Compact summarizes on demand, like a "/summarize" command, down to the
// engine's reset ratio; the chain records which originals each summary
// condensed, with their SHA-256.
func ExampleMemory_Compact() {
	ctx := context.Background()
	c, err := compact.New(compact.WithContextWindow(1000), compact.WithReservedOutput(0), compact.WithTrigger(0.95, 0.4))
	if err != nil {
		panic(err)
	}
	mem := memory.New(c, memory.WithReturnMessages(true))
	for i := 1; i <= 6; i++ {
		_ = mem.SaveContext(ctx, map[string]any{"input": fmt.Sprintf("Step %d: %s", i, strings.Repeat("the build fails on arm64 ", 12))},
			map[string]any{"output": fmt.Sprintf("Noted step %d.", i)})
	}
	if err := mem.Compact(ctx); err != nil {
		panic(err)
	}
	records, _ := mem.Records(ctx)
	for _, r := range records {
		fmt.Println("the summary condenses history positions", r.Positions, "sha256", len(r.SHA256)*4, "bits")
	}
	fmt.Println(mem.Verify(ctx))
	vars, _ := mem.LoadMemoryVariables(ctx, nil)
	context := vars["history"].([]llms.ChatMessage)
	fmt.Println(context[0].GetType(), strings.HasPrefix(context[0].GetContent(), compact.SummaryPreamble))
	// Output:
	// the summary condenses history positions [1 2 3 4 5] sha256 256 bits
	// <nil>
	// human true
}

// With WithAsync, compaction runs in the background after SaveContext and a
// load never waits for it; Close waits for the last one.
func ExampleWithAsync() {
	ctx := context.Background()
	c, err := compact.New(compact.WithContextWindow(2000), compact.WithReservedOutput(0))
	if err != nil {
		panic(err)
	}
	mem := memory.New(c, memory.WithAsync(2))
	for i := 1; i <= 30; i++ {
		_ = mem.SaveContext(ctx, map[string]any{"input": fmt.Sprintf("Question %d: %s", i, strings.Repeat("and what about latency? ", 12))},
			map[string]any{"output": "It depends."})
		if _, err := mem.LoadMemoryVariables(ctx, nil); err != nil {
			panic(err)
		}
	}
	if err := mem.Close(); err != nil {
		panic(err)
	}
	sums, _ := mem.Summaries(ctx)
	fmt.Println(len(sums) > 0)
	// Output:
	// true
}

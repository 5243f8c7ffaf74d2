package memory_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/tmc/langchaingo/chains"
	lcmemory "github.com/tmc/langchaingo/memory"
)

// WithWindowTurns(k) shows the last k turns, as langchaingo's
// ConversationWindowBuffer(k) does; the history keeps every message.
func ExampleWithWindowTurns() {
	ctx := context.Background()
	c, err := compact.New(compact.WithModel("gpt-4o"))
	if err != nil {
		panic(err)
	}
	ours := memory.New(c, memory.WithWindowTurns(2))
	theirs := lcmemory.NewConversationWindowBuffer(2)
	for _, mem := range []interface {
		SaveContext(context.Context, map[string]any, map[string]any) error
		LoadMemoryVariables(context.Context, map[string]any) (map[string]any, error)
	}{ours, theirs} {
		for i := 1; i <= 3; i++ {
			_ = mem.SaveContext(ctx, map[string]any{"input": fmt.Sprintf("q%d", i)}, map[string]any{"output": fmt.Sprintf("a%d", i)})
		}
		vars, _ := mem.LoadMemoryVariables(ctx, nil)
		fmt.Printf("%q\n", vars["history"])
	}
	msgs, _ := ours.ChatHistory().Messages(ctx)
	fmt.Println(len(msgs), "messages in the history")
	// Output:
	// "Human: q2\nAI: a2\nHuman: q3\nAI: a3"
	// "Human: q2\nAI: a2\nHuman: q3\nAI: a3"
	// 6 messages in the history
}

// LoadMemoryVariables budgets for the chain's input: an input that cannot
// fit the budget fails the chain before the model is called.
func ExampleErrInputTooLarge() {
	ctx := context.Background()
	c, err := compact.New(compact.WithContextWindow(1000), compact.WithReservedOutput(200))
	if err != nil {
		panic(err)
	}
	mem := memory.New(c)
	chain := chains.NewConversation(echoModel{}, mem)
	_, err = chains.Run(ctx, chain, strings.Repeat("a long question ", 400))
	fmt.Println(errors.Is(err, memory.ErrInputTooLarge))
	fmt.Println(err)
	// Output:
	// true
	// memory: input too large for the budget: 1205 tokens, 1269 with the prompt reserve and the system messages; the budget is 800
}

package main

import (
	"context"
	"fmt"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/memory"
	"github.com/tmc/langchaingo/llms"
)

func TestZZDebug(t *testing.T) {
	convs, _ := loadChats("/work/shared/eval/chats")
	counter, _ := budget.NewCounter("gpt-4o")
	conv := convs[0]
	c, _ := compact.New(compact.WithContextWindow(4000), compact.WithCounter(counter))
	mem := memory.New(c, memory.WithReturnMessages(true))
	ctx := context.Background()
	for _, tr := range conv.turns {
		mem.LoadMemoryVariables(ctx, map[string]any{"input": tr.in})
		mem.SaveContext(ctx, map[string]any{"input": tr.in}, map[string]any{"output": tr.out})
	}
	vars, _ := mem.LoadMemoryVariables(ctx, map[string]any{"input": conv.probes[0].Question})
	msgs := vars["history"].([]llms.ChatMessage)
	h, _ := renderHistory(msgs)
	fmt.Println(len(conv.turns), len(msgs))
	fmt.Println(h)
	fmt.Println("ORPHAN", orphanReply(msgs, map[string]map[string]bool{}))
	for _, m := range msgs { fmt.Printf("%T %q\n", m, m.GetContent()[:min(30,len(m.GetContent()))]) }
}

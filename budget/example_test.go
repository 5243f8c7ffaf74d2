package budget_test

import (
	"fmt"
	"strings"

	"github.com/agentcompact/compact/budget"
	"github.com/tmc/langchaingo/llms"
)

func ExampleNewCounter() {
	counter, err := budget.NewCounter("gpt-4o")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(counter.Encoding(), counter.Exact())
	fmt.Println(counter.Count("hello world"))

	claude, err := budget.NewCounter("claude-sonnet-4")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(claude.Encoding(), claude.Exact())
	// Output:
	// o200k_base true
	// 2
	// estimate false
}

func ExampleTokenCounter_CountMessages() {
	counter, err := budget.NewCounter("gpt-4o")
	if err != nil {
		fmt.Println(err)
		return
	}
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are a helpful assistant."),
		llms.TextParts(llms.ChatMessageTypeHuman, "hello world"),
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{
			ID: "call_1", Type: "function",
			FunctionCall: &llms.FunctionCall{Name: "search", Arguments: `{"query":"weather"}`},
		}}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{
			ToolCallID: "call_1", Name: "search", Content: "Sunny, 21 °C",
		}}},
	}
	for _, m := range msgs {
		fmt.Println(m.Role, counter.CountMessage(m))
	}
	fmt.Println("request", counter.CountMessages(msgs))
	// Output:
	// system 10
	// human 6
	// ai 16
	// tool 17
	// request 52
}

func ExampleNewMessageCounter() {
	// Any tokenizer can be wrapped; here one token per whitespace-separated word.
	words := budget.CounterFunc(func(text string) int { return len(strings.Fields(text)) })
	counter := budget.NewMessageCounter(words, budget.WithCacheSize(1024))
	msg := llms.TextParts(llms.ChatMessageTypeHuman, "count these four words")
	fmt.Println(counter.Encoding(), counter.Count("count these four words"), counter.CountMessage(msg))
	// Output:
	// custom 4 8
}

func ExampleContextWindow() {
	fmt.Println(budget.ContextWindow("gpt-4o-2024-08-06"))
	fmt.Println(budget.ContextWindow("anthropic/claude-sonnet-4"))
	fmt.Println(budget.ContextWindow("gemini-1.5-pro"))
	fmt.Println(budget.ContextWindow("my-local-model"))
	_, ok := budget.LookupContextWindow("my-local-model")
	fmt.Println(ok)
	// Output:
	// 128000
	// 200000
	// 2097152
	// 8192
	// false
}

func ExampleEncodingForModel() {
	for _, model := range []string{"gpt-4o-mini", "openai/o3", "gpt-4-turbo", "claude-3-7-sonnet", "llama3.1:70b"} {
		fmt.Println(model, budget.EncodingForModel(model))
	}
	// Output:
	// gpt-4o-mini o200k_base
	// openai/o3 o200k_base
	// gpt-4-turbo cl100k_base
	// claude-3-7-sonnet estimate
	// llama3.1:70b estimate
}

func ExampleEstimateTokens() {
	text := "The quick brown fox jumps over the lazy dog."
	exact, err := budget.NewEncodingCounter("o200k_base")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(exact.Count(text), budget.EstimateTokens(text))
	// Output:
	// 10 12
}

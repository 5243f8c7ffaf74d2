package store_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// Save is a compare-and-swap on the version: a writer that loaded an older
// version gets ErrConflict, reloads and redoes its change.
func ExampleStore() {
	ctx := context.Background()
	var s store.Store = store.NewMemory()

	a, _ := s.Load(ctx, "conversation-42") // version 0: nothing stored
	b, _ := s.Load(ctx, "conversation-42")

	a.UpTo = 10
	v, err := s.Save(ctx, a, 0)
	fmt.Println(v, err)

	b.UpTo = 12
	_, err = s.Save(ctx, b, 0)
	fmt.Println(errors.Is(err, store.ErrConflict))

	b, _ = s.Load(ctx, "conversation-42") // reload, redo, save again
	b.UpTo = 12
	v, err = s.Save(ctx, b, len(b.Chain))
	fmt.Println(v, err)
	// Output:
	// 1 <nil>
	// true
	// 2 <nil>
}

// A reader of an IncrementalHistory reads only what was appended since its
// last read; the epoch tells it when earlier messages were replaced.
func ExampleIncrementalHistory() {
	ctx := context.Background()
	h := store.NewMemory().History("conversation-42")
	_ = h.AddMessages(ctx, []llms.ChatMessage{
		llms.HumanChatMessage{Content: "What is in main.go?"},
		llms.AIChatMessage{Content: "A main function."},
	})
	msgs, epoch, _ := h.MessagesSince(ctx, 0)
	seen := len(msgs)

	_ = h.AddUserMessage(ctx, "And in util.go?")
	msgs, again, _ := h.MessagesSince(ctx, seen)
	fmt.Println(len(msgs), msgs[0].GetContent(), again == epoch)

	_ = h.Clear(ctx)
	_, cleared, _ := h.MessagesSince(ctx, 0)
	fmt.Println(cleared == epoch)
	// Output:
	// 1 And in util.go? true
	// false
}

// Originals are kept once per ref and found by ref or by a literal,
// case-insensitive search of their text.
func ExampleOriginalStore() {
	ctx := context.Background()
	var s store.OriginalStore = store.NewMemory()
	_ = s.PutOriginals(ctx, "conversation-42", []store.Original{
		{Ref: "m3f2a9", Role: llms.ChatMessageTypeTool, Name: "read_file", Text: "func helper17(x int) int { return x * 100 }"},
		{Ref: "m77c01", Role: llms.ChatMessageTypeTool, Name: "grep", Text: "util.go:3: coverage is 100%"},
	})

	o, _ := s.Original(ctx, "conversation-42", "m3f2a9")
	fmt.Println(o.Name, o.Text)

	found, _ := s.SearchOriginals(ctx, "conversation-42", "HELPER17(", 10)
	fmt.Println(len(found), found[0].Ref)
	found, _ = s.SearchOriginals(ctx, "conversation-42", "100%", 10) // % is a literal
	fmt.Println(len(found), found[0].Ref)

	_, err := s.Original(ctx, "another-conversation", "m3f2a9")
	fmt.Println(errors.Is(err, store.ErrNotFound))
	// Output:
	// read_file func helper17(x int) int { return x * 100 }
	// 1 m3f2a9
	// 1 m77c01
	// true
}

// MarshalMessage keeps every field of a message, tool calls included.
func ExampleMarshalMessage() {
	b, _ := store.MarshalMessage(llms.AIChatMessage{ToolCalls: []llms.ToolCall{{ID: "call_1", Type: "function",
		FunctionCall: &llms.FunctionCall{Name: "weather", Arguments: `{"city":"London"}`}}}})
	fmt.Println(string(b))
	m, _ := store.UnmarshalMessage(b)
	fmt.Println(m.(llms.AIChatMessage).ToolCalls[0].FunctionCall.Name)
	// Output:
	// {"type":"ai","toolCalls":[{"id":"call_1","type":"function","function":{"name":"weather","arguments":"{\"city\":\"London\"}"}}]}
	// weather
}

// FoldCase maps each rune to one representative of its case-folding
// orbit; it is simple folding (rune for rune), so ß does not become SS.
func ExampleFoldCase() {
	fmt.Println(store.FoldCase("Ünïcode straße ΣΑΣ σας"))
	fmt.Println(store.FoldCase("Hello") == store.FoldCase("hELLO"))
	// Output:
	// ÜNÏCODE STRAßE ΣΑΣ ΣΑΣ
	// true
}

package sqlitestore_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/sqlitestore"
	"github.com/tmc/langchaingo/llms"
)

// A Memory on a SQLite store keeps its history and compaction state in one
// file; a later process with the same session id resumes the conversation.
func ExampleOpen() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "sqlitestore-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "memory.db")
	c, err := compact.New(compact.WithModel("gpt-4o"))
	if err != nil {
		panic(err)
	}

	// First process.
	store, err := sqlitestore.Open(path)
	if err != nil {
		panic(err)
	}
	mem := memory.New(c, memory.WithStore(store), memory.WithSessionID("user-42"))
	_ = mem.SaveContext(ctx, map[string]any{"input": "My name is Ada."}, map[string]any{"output": "Nice to meet you, Ada."})
	_ = mem.Close()
	_ = store.Close()

	// A later process.
	store, err = sqlitestore.Open(path)
	if err != nil {
		panic(err)
	}
	defer store.Close()
	mem = memory.New(c, memory.WithStore(store), memory.WithSessionID("user-42"))
	vars, _ := mem.LoadMemoryVariables(ctx, nil)
	fmt.Println(vars["history"])

	// The history keeps tool calls and their ids.
	h := store.History("user-42")
	_ = h.AddMessages(ctx, []llms.ChatMessage{
		llms.AIChatMessage{ToolCalls: []llms.ToolCall{{ID: "call_1", Type: "function",
			FunctionCall: &llms.FunctionCall{Name: "weather", Arguments: `{"city":"London"}`}}}},
		llms.ToolChatMessage{ID: "call_1", Content: "12°C, rain"},
	})
	msgs, _ := h.Messages(ctx)
	call := msgs[2].(llms.AIChatMessage).ToolCalls[0]
	fmt.Println(call.ID, call.FunctionCall.Name, call.FunctionCall.Arguments, msgs[3].(llms.ToolChatMessage).ID)
	// Output:
	// Human: My name is Ada.
	// AI: Nice to meet you, Ada.
	// call_1 weather {"city":"London"} call_1
}

// The originals of compacted messages are kept for recall: by ref, and by a
// literal, case-insensitive search of their text within one session.
func ExampleStore_SearchOriginals() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "sqlitestore-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	s, err := sqlitestore.Open(filepath.Join(dir, "memory.db"))
	if err != nil {
		panic(err)
	}
	defer s.Close()

	_ = s.PutOriginals(ctx, "user-42", []store.Original{
		{Ref: "m3f2a9", Role: llms.ChatMessageTypeTool, Name: "read_file", Text: "func helper17(x int) int { return x * 100 }"},
		{Ref: "m77c01", Role: llms.ChatMessageTypeTool, Name: "grep", Text: "util.go:3: 100% covered"},
	})
	for _, q := range []string{"Helper17(", "100%", "_"} {
		found, _ := s.SearchOriginals(ctx, "user-42", q, 5)
		fmt.Printf("%q: %d", q, len(found))
		for _, o := range found {
			fmt.Print(" ", o.Ref)
		}
		fmt.Println()
	}
	o, _ := s.Original(ctx, "user-42", "m77c01")
	fmt.Println(o.Name, o.Text)
	// Output:
	// "Helper17(": 1 m3f2a9
	// "100%": 1 m77c01
	// "_": 0
	// grep util.go:3: 100% covered
}

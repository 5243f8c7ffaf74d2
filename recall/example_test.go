package recall_test

import (
	"context"
	"fmt"

	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
)

// An adapter keeps the originals of what a compaction took out under
// their refs, and builds the tool with a resolver that finds the session
// of each call; here one session of an in-memory store.
func ExampleNew() {
	ctx := context.Background()
	st := store.NewMemory()
	masked := llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{
		ToolCallID: "call_1", Name: "read_file",
		Content: "package util\n\n// helper17 multiplies by 17.\nfunc helper17(x int) int {\n    return x * 17\n}\n",
	}}}
	_ = st.PutOriginals(ctx, "conversation-42", []store.Original{recall.OriginalOf("k3f2a9qx", "msg-7", masked)})

	tool := recall.New(func(ctx context.Context) (recall.Source, error) {
		return recall.StoreSource(st, "conversation-42"), nil
	})
	for _, input := range []string{"ref:k3f2a9qx lines 3-4", "helper17(", "ref:zzzzzzzz"} {
		out, err := tool.Call(ctx, input)
		fmt.Printf("%s\n%v\n\n", out, err)
	}
	// Output:
	// ref:k3f2a9qx lines 3-4 of 6 (tool read_file):
	// 3: // helper17 multiplies by 17.
	// 4: func helper17(x int) int {
	// ... 2 more lines: call recall with "ref:k3f2a9qx lines 5-6" for more
	// <nil>
	//
	// search for "helper17(": 1 of 1 matching originals, best first:
	// ref:k3f2a9qx lines 3-5 of 6 (tool read_file):
	// 3: // helper17 multiplies by 17.
	// 4: func helper17(x int) int {
	// 5:     return x * 17
	// <nil>
	//
	// recall: no original with ref:zzzzzzzz in this session; give a ref a compaction marker shows, or words to search for.
	// <nil>
}

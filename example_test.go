package compact_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentcompact/compact"
	"github.com/tmc/langchaingo/llms"
)

func Example() {
	c, err := compact.New(
		compact.WithModel("gpt-4o"),
		compact.WithContextWindow(4_000), // small, to show a compaction
		compact.WithReservedOutput(500),
		compact.WithTrigger(0.80, 0.70),
		compact.WithPreserveRecent(4),
	)
	if err != nil {
		panic(err)
	}
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are a coding agent."),
		llms.TextParts(llms.ChatMessageTypeHuman, "Find why the server test fails."),
	}
	for i := 0; i < 12; i++ {
		id := fmt.Sprintf("call_%d", i)
		msgs = append(msgs,
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{
				ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: "read_file", Arguments: fmt.Sprintf(`{"path":"server/f%d.go"}`, i)}}}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{
				ToolCallID: id, Name: "read_file", Content: "package server\n" + strings.Repeat("func Serve() error { return nil }\n", 40)}}},
		)
	}
	session := compact.NewSession("conversation-42")
	res, err := c.Compact(context.Background(), session, msgs)
	if err != nil {
		panic(err)
	}
	fmt.Println("compacted:", res.Compacted, "reason:", res.Event.Reason)
	fmt.Println("within budget:", res.Tokens <= c.Budget())
	fmt.Println("pairs valid:", compact.CheckToolPairs(res.Messages) == nil)
	fmt.Println("tokens reduced:", res.Tokens < res.InputTokens)
	// Output:
	// compacted: true reason: trigger
	// within budget: true
	// pairs valid: true
	// tokens reduced: true
}

func ExampleSession_MarshalJSON() {
	c, _ := compact.New(compact.WithContextWindow(32_000))
	s := compact.NewSession("conversation-42")
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hello")}
	if _, err := c.Compact(context.Background(), s, msgs); err != nil {
		panic(err)
	}
	b, _ := s.MarshalJSON() // persist b anywhere; restore with UnmarshalJSON
	restored := compact.NewSession("")
	if err := restored.UnmarshalJSON(b); err != nil {
		panic(err)
	}
	fmt.Println(restored.ID())
	// Output: conversation-42
}

func ExampleWithEventHandler() {
	c, _ := compact.New(
		compact.WithContextWindow(2_000),
		compact.WithEventHandler(compact.EventHandlerFunc(func(_ context.Context, e compact.Event) {
			fmt.Printf("%s compaction: %d -> %d tokens (budget %d)\n", e.Reason, e.TokensBefore, e.TokensAfter, e.Budget)
		})),
	)
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are terse."),
		llms.TextParts(llms.ChatMessageTypeHuman, strings.Repeat("a long question ", 600)),
	}
	_, _ = c.Compact(context.Background(), compact.NewSession(""), msgs)
	// Output: emergency compaction: 1816 -> 1483 tokens (budget 1500)
}

// A caller that keeps its own history names its messages and leaves out
// what the session has summarized: the output is the one the whole history
// would get.
func ExampleWithOmitted() {
	c, err := compact.New(compact.WithContextWindow(2_000), compact.WithReservedOutput(200), compact.WithMinMessages(0))
	if err != nil {
		panic(err)
	}
	s := compact.NewSession("window")
	history := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are terse.")}
	ids := []string{"sys"}
	window := []int{0} // positions of history given to the engine
	for i := 1; i <= 40; i++ {
		history = append(history, llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprintf("question %d: %s", i, strings.Repeat("why? ", 30))))
		ids = append(ids, fmt.Sprintf("m%d", i))
		window = append(window, i)
		in, inIDs := make([]llms.MessageContent, len(window)), make([]string, len(window))
		for k, p := range window {
			in[k], inIDs[k] = history[p], ids[p]
		}
		res, err := c.Compact(context.Background(), s, in,
			compact.WithMessageIDs(inIDs), compact.WithOmitted(len(history)-len(window)))
		if err != nil {
			panic(err)
		}
		kept := window[:0:0]
		for k, p := range window {
			if !res.States[k].Summarized() {
				kept = append(kept, p)
			}
		}
		window = kept
	}
	fmt.Println(len(history), "messages;", "window under 40:", len(window) < 40, "; summarized:", s.Stats().MessagesSummarized > 0)
	// Output: 41 messages; window under 40: true ; summarized: true
}

// An agent loop that is done with each Result before its next call lets
// the calls fill one Result: its arrays are reused from turn to turn.
func ExampleWithResultInto() {
	c, err := compact.New(compact.WithModel("gpt-4o"))
	if err != nil {
		panic(err)
	}
	session := compact.NewSession("loop")
	var res compact.Result // filled by every call; read before the next one
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are a helpful assistant.")}
	for turn := 1; turn <= 3; turn++ {
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprintf("question %d", turn)))
		out, err := c.Compact(context.Background(), session, msgs, compact.WithResultInto(&res))
		if err != nil {
			panic(err)
		}
		fmt.Println(len(out.Messages), out == &res)
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeAI, fmt.Sprintf("answer %d", turn)))
	}
	// Output:
	// 2 true
	// 4 true
	// 6 true
}

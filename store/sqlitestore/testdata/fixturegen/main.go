// Command fixturegen wrote v1.db and v1.golden.json: a SQLite database
// written by the store code before schema versioning (memory/sqlitestore at
// commit f022501, before package store), and what that code loaded
// back from it. TestOpenVersion1File checks that the current code opens,
// migrates and reads that file the same way.
//
// It builds only against that old tree: in a module of its own, with
//
//	require github.com/agentcompact/compact v0.0.0
//	replace github.com/agentcompact/compact => /path/to/checkout-of-f022501
//
// run "go run . v1.db v1.golden.json". (Under testdata, the go tool ignores it.)
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/agentcompact/compact/memory/sqlitestore"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

func words(i, n int) string {
	vocab := strings.Fields("the parser reads config files and retries failed requests with exponential backoff " +
		"while the cache keeps tokens per message so counting a growing conversation stays cheap")
	var b strings.Builder
	fmt.Fprintf(&b, "turn %d:", i)
	for k := 0; k < n; k++ {
		b.WriteByte(' ')
		b.WriteString(vocab[(i*7+k*3)%len(vocab)])
	}
	return b.String()
}

type golden struct {
	Sessions map[string]session `json:"sessions"`
}

type session struct {
	State    memory.State      `json:"state"`
	Messages []json.RawMessage `json:"messages"`
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: fixturegen DB GOLDEN")
		os.Exit(2)
	}
	ctx := context.Background()
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	s, err := sqlitestore.Open(os.Args[1])
	must(err)
	c, err := compact.New(compact.WithContextWindow(2500), compact.WithReservedOutput(0))
	must(err)

	// Session "chat": plain turns, enough to compact a few times.
	m := memory.New(c, memory.WithStore(s), memory.WithSessionID("chat"))
	for i := 0; i < 24; i++ {
		must(m.SaveContext(ctx, map[string]any{"input": words(i, 120)}, map[string]any{"output": words(i+1000, 150)}))
		_, err := m.LoadMemoryVariables(ctx, nil)
		must(err)
	}
	must(m.Close())

	// Session "agent": tool rounds (full-fidelity history), then a manual compaction.
	a := memory.New(c, memory.WithStore(s), memory.WithSessionID("agent's \"session\" 100%"))
	for i := 0; i < 6; i++ {
		call := llms.ToolCall{ID: fmt.Sprintf("call_%d", i), Type: "function",
			FunctionCall: &llms.FunctionCall{Name: "read_file", Arguments: fmt.Sprintf(`{"path":"f%d.go"}`, i)}}
		steps := []schema.AgentStep{{Action: schema.AgentAction{Tool: "read_file", ToolInput: call.FunctionCall.Arguments, ToolID: call.ID},
			Observation: words(i+2000, 200)}}
		must(a.SaveContext(ctx, map[string]any{"input": words(i+3000, 40)},
			map[string]any{"output": words(i+4000, 60), "intermediateSteps": steps}))
		_, err := a.LoadMemoryVariables(ctx, nil)
		must(err)
	}
	must(a.Compact(ctx))
	must(a.Close())

	// A history with every kind of message and no compaction state.
	h := s.History("kinds")
	must(h.AddMessages(ctx, []llms.ChatMessage{
		llms.SystemChatMessage{Content: "rules"},
		llms.HumanChatMessage{Content: "find the bug, café ✓"},
		llms.AIChatMessage{Content: "searching", ReasoningContent: "hmm", ToolCalls: []llms.ToolCall{
			{ID: "call_1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "grep", Arguments: `{"q":"panic"}`}}}},
		llms.ToolChatMessage{ID: "call_1", Content: "main.go:12: panic(err)"},
		llms.AIChatMessage{FunctionCall: &llms.FunctionCall{Name: "legacy", Arguments: "{}"}},
		llms.FunctionChatMessage{Name: "legacy", Content: "ok"},
		llms.GenericChatMessage{Role: "critic", Name: "c", Content: "fine"},
	}))

	g := golden{Sessions: map[string]session{}}
	for _, id := range []string{"chat", "agent's \"session\" 100%", "kinds"} {
		st, err := s.Load(ctx, id)
		must(err)
		msgs, err := s.History(id).Messages(ctx)
		must(err)
		var raw []json.RawMessage
		for _, msg := range msgs {
			b, err := memory.MarshalMessage(msg)
			must(err)
			raw = append(raw, b)
		}
		g.Sessions[id] = session{State: st, Messages: raw}
		fmt.Fprintf(os.Stderr, "%s: version %d, chain %d, upTo %d, messages %d\n", id, st.Version, len(st.Chain), st.UpTo, len(msgs))
	}
	must(s.Close())
	b, err := json.MarshalIndent(g, "", "\t")
	must(err)
	must(os.WriteFile(os.Args[2], append(b, '\n'), 0o644))
}

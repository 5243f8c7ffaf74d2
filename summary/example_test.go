package summary_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/summary"
	"github.com/tmc/langchaingo/llms"
)

// A summarizer of your own: it reports its model calls (here, a pretend
// one) through the request, and the engine puts them on its event.
func ExampleFunc() {
	mine := summary.Func(func(ctx context.Context, req summary.Request) (summary.Record, error) {
		start := time.Now()
		// ... call a model with summary.MarkSummarizerCall(ctx) here ...
		req.Report(ctx, summary.Call{Model: "my-model", Attempt: 1, InputTokens: 1200, OutputTokens: 80,
			Start: start, Duration: time.Since(start)})
		return summary.Record{
			Summary: fmt.Sprintf("%d earlier messages about the server tests.", len(req.Messages)),
			Mode:    summary.ModeLLM,
		}, nil
	})
	c, err := compact.New(compact.WithContextWindow(4_000), compact.WithReservedOutput(500),
		compact.WithCustomSummarizer(mine))
	if err != nil {
		fmt.Println(err)
		return
	}
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are a coding agent.")}
	for i := 0; i < 14; i++ {
		msgs = append(msgs,
			llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprintf("step %d: %s", i, strings.Repeat("why does the server test fail? ", 40))),
			llms.TextParts(llms.ChatMessageTypeAI, "Looking."))
	}
	res, err := c.Compact(context.Background(), compact.NewSession("s"), msgs)
	if err != nil {
		fmt.Println(err)
		return
	}
	e := res.Event
	if e == nil {
		fmt.Println("no compaction")
		return
	}
	fmt.Println("mode:", e.Mode, "summarizer calls:", e.SummarizerCalls)
	for _, call := range e.Calls {
		fmt.Printf("%s attempt %d: %d tokens in, %d out, error %q\n", call.Model, call.Attempt, call.InputTokens, call.OutputTokens, call.ErrText)
	}
	// Output:
	// mode: llm summarizer calls: 1
	// my-model attempt 1: 1200 tokens in, 80 out, error ""
}

// A summary a model wrote from the conversation, redacted as the engine
// redacts every summary: the secrets it repeats, in a known form or bare.
func ExampleRedact() {
	req := summary.Request{Messages: []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeTool, "DB_PASSWORD=CorrectHorseBattery9"),
	}}
	rec := summary.Record{Summary: "Connected with CorrectHorseBattery9; curl -u bob:pa55w0rd worked."}
	fmt.Println(summary.Redact(rec, req.SecretValues()).Summary)
	// Output:
	// Connected with [REDACTED:secret]; curl -u bob:[REDACTED:password] worked.
}

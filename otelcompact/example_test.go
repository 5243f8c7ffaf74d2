package otelcompact_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/tmc/langchaingo/llms"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/otelcompact"
)

// Wire the engine's events into OpenTelemetry: here a span recorder stands
// in for the program's exporter.
func Example() {
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	tel, err := otelcompact.New(otelcompact.WithTracerProvider(tp))
	if err != nil {
		panic(err)
	}
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(2_000),
		compact.WithEventHandler(tel.EventHandler()))
	if err != nil {
		panic(err)
	}
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are terse."),
		llms.TextParts(llms.ChatMessageTypeHuman, strings.Repeat("a long question ", 600)),
	}
	ctx, parent := tp.Tracer("agent").Start(context.Background(), "agent call")
	if _, err := c.Compact(ctx, compact.NewSession(""), msgs); err != nil {
		panic(err)
	}
	parent.End()
	for _, s := range spans.Ended() {
		for _, kv := range s.Attributes() {
			if kv.Key == otelcompact.AttrReason {
				fmt.Println(s.Name(), kv.Value.AsString(), "child of", s.Parent().SpanID() == parent.SpanContext().SpanID())
			}
		}
	}
	// Output: compact.compaction emergency child of true
}

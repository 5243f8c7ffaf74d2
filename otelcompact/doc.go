// Package otelcompact turns compact's events into OpenTelemetry traces and
// metrics. It is the only package of the module that imports
// go.opentelemetry.io/otel: the engine and the adapters report through
// their own hooks, and programs that do not want OpenTelemetry do not link
// it.
//
// Wire it in with the engine's event handler and the recall tool's
// observer:
//
//	tel, err := otelcompact.New() // the global tracer and meter providers
//	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithEventHandler(tel.EventHandler()))
//	llm := middleware.Wrap(model, c, middleware.WithRecallOptions(recall.WithObserver(tel.RecallObserver())))
//
// # Spans
//
// Each compaction is a span named "compact.compaction", a child of the span
// in the context of the call that compacted (the agent's model call through
// the middleware, or LoadMemoryVariables of the memory), timed from the
// engine's Event.Start for Event.Duration. Its attributes are the
// compact.* attributes listed by the constants of this package: reason,
// mode, depth, tokens before and after, budget, ratios, messages masked,
// summarized and cut, fallback, and error.type when the summarizer failed
// over to the rule-based digest.
//
// Each summarizer model call of a compaction is a child span following the
// OpenTelemetry GenAI semantic conventions, version 1.39.0 (package
// go.opentelemetry.io/otel/semconv/v1.39.0, which this package pins): named
// "chat {model}", kind client, with gen_ai.operation.name "chat",
// gen_ai.request.model, gen_ai.usage.input_tokens,
// gen_ai.usage.output_tokens, gen_ai.provider.name when set with
// [WithProviderName], and error.type with an error status when the call
// failed.
//
// Each call of the recall tool is a span named "execute_tool recall"
// (gen_ai.operation.name "execute_tool", gen_ai.tool.name "recall") with its
// mode and outcome.
//
// # Metrics
//
// Counters compact.compactions, compact.tokens.saved, compact.fallbacks,
// compact.summarizer.calls, compact.summarizer.failures and compact.recalls;
// histograms compact.compaction.duration (seconds) and compact.context.ratio
// (tokens over budget, before and after); and the GenAI conventions'
// gen_ai.client.token.usage and gen_ai.client.operation.duration for the
// summarizer calls. Their attribute values come from closed sets (reasons,
// modes, outcomes, error types) plus the summarizer model names the
// program configured, so their cardinality is bounded: no session id and
// no content is ever a metric attribute.
//
// # Content
//
// No message content, tool output, recall query or error message is
// recorded by default: errors are recorded by type ([ErrorType]). Options
// opt in: [WithSessionID] puts the session id on spans (never on metrics),
// [WithErrorMessages] puts summarizer error messages on spans (a provider's
// error can echo part of a request).
package otelcompact

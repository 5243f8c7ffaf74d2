package otelcompact

import (
	"context"

	"github.com/agentcompact/compact/summary"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.39.0"
	"go.opentelemetry.io/otel/trace"
)

// operationChat is gen_ai.operation.name of a summarizer call.
const operationChat = "chat"

// summarizerCall records one summarizer model call as a child span of the
// compaction in ctx, and its metrics.
func (t *Telemetry) summarizerCall(ctx context.Context, c summary.Call) {
	name := operationChat
	if c.Model != "" {
		name += " " + c.Model
	}
	start, end := interval(c.Start, c.Duration)
	common := t.genAIAttrs(c)
	attrs := append(common,
		semconv.GenAIUsageInputTokens(c.InputTokens),
		semconv.GenAIUsageOutputTokens(c.OutputTokens),
		AttrAttempt.Int(c.Attempt))
	et := errorTypeText(c.Err, c.ErrText)
	if et != "" {
		attrs = append(attrs, semconv.ErrorTypeKey.String(et))
	}
	_, span := t.tracer.Start(ctx, name, trace.WithTimestamp(start),
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	if et != "" {
		desc := et
		if t.errText {
			desc = errMessage(c)
		}
		span.SetStatus(codes.Error, desc)
	}
	span.End(trace.WithTimestamp(end))
	t.summarizerMetrics(ctx, c, common, et)
}

// genAIAttrs are the attributes a summarizer call's span and metrics share.
func (t *Telemetry) genAIAttrs(c summary.Call) []attribute.KeyValue {
	attrs := []attribute.KeyValue{semconv.GenAIOperationNameKey.String(operationChat)}
	if c.Model != "" {
		attrs = append(attrs, semconv.GenAIRequestModel(c.Model))
	}
	if t.provider != "" {
		attrs = append(attrs, semconv.GenAIProviderNameKey.String(t.provider))
	}
	return attrs
}

// errMessage is the call's error message.
func errMessage(c summary.Call) string {
	if c.Err != nil {
		return c.Err.Error()
	}
	return c.ErrText
}

// summarizerMetrics records one summarizer call's metrics.
func (t *Telemetry) summarizerMetrics(ctx context.Context, c summary.Call, common []attribute.KeyValue, et string) {
	withErr := common
	if et != "" {
		withErr = append(append([]attribute.KeyValue(nil), common...), semconv.ErrorTypeKey.String(et))
		t.inst.failures.Add(ctx, 1, metric.WithAttributes(withErr...))
	}
	t.inst.calls.Add(ctx, 1, metric.WithAttributes(withErr...))
	t.inst.opDuration.Record(ctx, max(c.Duration, 0).Seconds(), metric.WithAttributes(withErr...))
	in := append(append([]attribute.KeyValue(nil), common...), semconv.GenAITokenTypeInput)
	t.inst.tokenUsage.Record(ctx, int64(max(c.InputTokens, 0)), metric.WithAttributes(in...))
	if c.OutputTokens > 0 {
		out := append(append([]attribute.KeyValue(nil), common...), semconv.GenAITokenTypeOutput)
		t.inst.tokenUsage.Record(ctx, int64(c.OutputTokens), metric.WithAttributes(out...))
	}
}

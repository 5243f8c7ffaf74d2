package otelcompact

import (
	"context"

	"github.com/agentcompact/compact/recall"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.39.0"
	"go.opentelemetry.io/otel/trace"
)

// RecallObserver returns the observer to give the recall tool
// (recall.WithObserver, through middleware.WithRecallOptions or
// memory.WithRecallOptions): each call becomes an "execute_tool recall"
// span, a child of the span in the tool call's context, and is counted in
// compact.recalls by mode and outcome. Neither the query nor the recalled
// text is recorded.
func (t *Telemetry) RecallObserver() recall.Observer {
	return recall.ObserverFunc(t.observeRecall)
}

// observeRecall records one recall call.
func (t *Telemetry) observeRecall(ctx context.Context, o recall.Observation) {
	mode := o.Mode
	if mode != "" {
		mode = bounded(mode, recallModes)
	}
	outcome := bounded(o.Outcome, outcomes)
	attrs := []attribute.KeyValue{
		semconv.GenAIOperationNameExecuteTool,
		semconv.GenAIToolName(recall.Name),
		AttrRecallMode.String(mode),
		AttrRecallOutcome.String(outcome),
		AttrRecallAnswerTokens.Int(o.AnswerTokens),
	}
	et := ErrorType(o.Err)
	if et != "" {
		attrs = append(attrs, semconv.ErrorTypeKey.String(et))
	}
	start, end := interval(o.Start, o.Duration)
	_, span := t.tracer.Start(ctx, SpanRecall, trace.WithTimestamp(start),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	if et != "" {
		span.SetStatus(codes.Error, et)
	}
	span.End(trace.WithTimestamp(end))
	t.inst.recalls.Add(ctx, 1, metric.WithAttributeSet(attribute.NewSet(
		AttrRecallMode.String(mode), AttrRecallOutcome.String(outcome))))
}

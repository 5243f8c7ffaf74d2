package otelcompact

import (
	"context"
	"time"

	"github.com/agentcompact/compact"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.39.0"
	"go.opentelemetry.io/otel/trace"
)

// EventHandler returns the handler to give the engine
// (compact.WithEventHandler): each event becomes a compaction span with a
// child span per summarizer call, and the compaction metrics.
func (t *Telemetry) EventHandler() compact.EventHandler {
	return compact.EventHandlerFunc(t.handleEvent)
}

// handleEvent records one compaction.
func (t *Telemetry) handleEvent(ctx context.Context, e compact.Event) {
	start, end := interval(e.Start, e.Duration)
	ctx, span := t.tracer.Start(ctx, SpanCompaction, trace.WithTimestamp(start),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(t.compactionAttrs(e)...))
	for _, c := range e.Calls {
		t.summarizerCall(ctx, c)
	}
	span.End(trace.WithTimestamp(end))
	t.compactionMetrics(ctx, e)
}

// interval returns the span's start and end: from start for d, or ending
// now when start is unknown.
func interval(start time.Time, d time.Duration) (time.Time, time.Time) {
	d = max(d, 0)
	if start.IsZero() {
		end := time.Now()
		return end.Add(-d), end
	}
	return start, start.Add(d)
}

// compactionAttrs are the compaction span's attributes.
func (t *Telemetry) compactionAttrs(e compact.Event) []attribute.KeyValue {
	attrs := []attribute.KeyValue{
		AttrReason.String(bounded(e.Reason, reasons)),
		AttrMode.String(bounded(e.Mode, modes)),
		AttrDepth.Int(e.Depth),
		AttrTokensBefore.Int(e.TokensBefore),
		AttrTokensAfter.Int(e.TokensAfter),
		AttrBudget.Int(e.Budget),
		AttrRatioBefore.Float64(e.RatioBefore),
		AttrRatioAfter.Float64(e.RatioAfter),
		AttrMessagesBefore.Int(e.MessagesBefore),
		AttrMessagesAfter.Int(e.MessagesAfter),
		AttrMasked.Int(e.Masked),
		AttrSummarized.Int(e.Dropped),
		AttrCut.Int(e.Truncated),
		AttrFallback.Bool(e.Mode == compact.ModeFallback),
		AttrSummarizerCalls.Int(e.SummarizerCalls),
	}
	if et := errorTypeText(e.Err, e.ErrText); et != "" {
		attrs = append(attrs, semconv.ErrorTypeKey.String(et))
		if t.errText {
			attrs = append(attrs, AttrErrorMessage.String(e.ErrText))
		}
	}
	if t.sessionID && e.SessionID != "" {
		attrs = append(attrs, AttrSessionID.String(e.SessionID))
	}
	return attrs
}

// compactionMetrics records one compaction's metrics.
func (t *Telemetry) compactionMetrics(ctx context.Context, e compact.Event) {
	set := metric.WithAttributeSet(attribute.NewSet(
		AttrReason.String(bounded(e.Reason, reasons)),
		AttrMode.String(bounded(e.Mode, modes))))
	t.inst.compactions.Add(ctx, 1, set)
	t.inst.saved.Add(ctx, int64(max(e.TokensBefore-e.TokensAfter, 0)), set)
	if e.Mode == compact.ModeFallback {
		t.inst.fallbacks.Add(ctx, 1, set)
	}
	t.inst.duration.Record(ctx, max(e.Duration, 0).Seconds(), set)
	t.inst.ratio.Record(ctx, e.RatioBefore, metric.WithAttributes(AttrRatioStage.String("before")))
	t.inst.ratio.Record(ctx, e.RatioAfter, metric.WithAttributes(AttrRatioStage.String("after")))
}

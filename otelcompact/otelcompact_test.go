package otelcompact_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/scripted"
	"github.com/agentcompact/compact/otelcompact"
)

// Content that must never reach telemetry.
const (
	secret  = "sk-proj-Zx9Telemetry0Leak1Canary2Key3Q4"
	content = "PURPLE-OCTOPUS-CONTENT-MARKER"
)

// rig is a Telemetry on in-memory exporters.
type rig struct {
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	tp     *sdktrace.TracerProvider
	tel    *otelcompact.Telemetry
}

func newRig(t *testing.T, opts ...otelcompact.Option) *rig {
	t.Helper()
	r := &rig{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	r.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(r.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.reader))
	tel, err := otelcompact.New(append([]otelcompact.Option{
		otelcompact.WithTracerProvider(r.tp), otelcompact.WithMeterProvider(mp)}, opts...)...)
	require.NoError(t, err)
	r.tel = tel
	return r
}

// metrics collects the metrics recorded so far, by name.
func (r *rig) metrics(t *testing.T) map[string]metricdata.Metrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, r.reader.Collect(context.Background(), &rm))
	out := map[string]metricdata.Metrics{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			out[m.Name] = m
		}
	}
	return out
}

// failingModel fails every call with an HTTP-status error.
type failingModel struct{}

type statusError struct{ code int }

func (e statusError) Error() string   { return fmt.Sprintf("provider said %d: %s", e.code, secret) }
func (e statusError) StatusCode() int { return e.code }

func (failingModel) GenerateContent(context.Context, []llms.MessageContent, ...llms.CallOption) (*llms.ContentResponse, error) {
	return nil, statusError{code: 503}
}

func (m failingModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}

// conversation is a chat long enough to be summarized, carrying the
// secret and the content marker in every turn.
func conversation() []llms.MessageContent {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are a support agent."),
	}
	for i := 0; i < 30; i++ {
		msgs = append(msgs,
			llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprintf("Question %d about %s: my key is %s, why does order %d fail?", i, content, secret, 1000+i)),
			llms.TextParts(llms.ChatMessageTypeAI, fmt.Sprintf("Answer %d: %s", i, strings.Repeat("the order service retried the payment and logged "+content+" ", 6))))
	}
	return msgs
}

// compactWith runs one compaction of conversation() under a parent span
// and returns the parent's span context.
func compactWith(t *testing.T, r *rig, summarizer compact.Summarizer, sessionID string) trace.SpanContext {
	t.Helper()
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(3_000), compact.WithReservedOutput(500),
		compact.WithCustomSummarizer(summarizer), compact.WithEventHandler(r.tel.EventHandler()))
	require.NoError(t, err)
	ctx, parent := r.tp.Tracer("test").Start(context.Background(), "agent call")
	res, err := c.Compact(ctx, compact.NewSession(sessionID), conversation())
	parent.End()
	require.NoError(t, err)
	require.True(t, res.Compacted)
	require.Positive(t, res.Event.Dropped, "the conversation is summarized, not only masked")
	return parent.SpanContext()
}

// byName returns the ended spans named name.
func byName(r *rig, name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range r.spans.Ended() {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

func attrsOf(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	out := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		out[kv.Key] = kv.Value
	}
	return out
}

func TestSpanTree(t *testing.T) {
	r := newRig(t)
	parent := compactWith(t, r, scripted.NewSummarizer(failingModel{}, scripted.Model{}), "conversation-1")

	comps := byName(r, otelcompact.SpanCompaction)
	require.Len(t, comps, 1)
	comp := comps[0]
	assert.Equal(t, parent.SpanID(), comp.Parent().SpanID(), "the compaction is a child of the caller's span")
	assert.Equal(t, parent.TraceID(), comp.SpanContext().TraceID())
	a := attrsOf(comp)
	assert.Equal(t, compact.ModeLLM, a[otelcompact.AttrMode].AsString())
	assert.Contains(t, []string{compact.ReasonTrigger, compact.ReasonEmergency}, a[otelcompact.AttrReason].AsString())
	assert.Equal(t, int64(1), a[otelcompact.AttrDepth].AsInt64())
	assert.Greater(t, a[otelcompact.AttrTokensBefore].AsInt64(), a[otelcompact.AttrTokensAfter].AsInt64())
	assert.Equal(t, int64(2_500), a[otelcompact.AttrBudget].AsInt64())
	assert.Positive(t, a[otelcompact.AttrSummarized].AsInt64())
	assert.False(t, a[otelcompact.AttrFallback].AsBool())
	assert.Equal(t, int64(3), a[otelcompact.AttrSummarizerCalls].AsInt64(), "two failed attempts on the first model, one success")
	assert.NotContains(t, a, otelcompact.AttrSessionID, "no session id by default")
	assert.True(t, comp.EndTime().After(comp.StartTime()) || comp.EndTime().Equal(comp.StartTime()))

	var calls []sdktrace.ReadOnlySpan
	for _, s := range r.spans.Ended() {
		if strings.HasPrefix(s.Name(), "chat") {
			calls = append(calls, s)
		}
	}
	require.Len(t, calls, 3)
	for i, s := range calls {
		assert.Equal(t, comp.SpanContext().SpanID(), s.Parent().SpanID(), "summarizer call %d is a child of the compaction", i)
		assert.Equal(t, trace.SpanKindClient, s.SpanKind())
		ca := attrsOf(s)
		assert.Equal(t, "chat", ca["gen_ai.operation.name"].AsString())
		assert.NotEmpty(t, ca["gen_ai.request.model"].AsString())
		assert.Equal(t, "chat "+ca["gen_ai.request.model"].AsString(), s.Name())
		assert.Positive(t, ca["gen_ai.usage.input_tokens"].AsInt64())
		assert.False(t, s.StartTime().Before(comp.StartTime()), "a call starts within its compaction")
	}
	for _, s := range calls[:2] {
		assert.Equal(t, "503", attrsOf(s)["error.type"].AsString())
		assert.Equal(t, codes.Error, s.Status().Code)
		assert.Equal(t, "503", s.Status().Description, "the status says the type, not the message")
		assert.Zero(t, attrsOf(s)["gen_ai.usage.output_tokens"].AsInt64())
	}
	ok := attrsOf(calls[2])
	assert.NotContains(t, ok, attribute.Key("error.type"))
	assert.Positive(t, ok["gen_ai.usage.output_tokens"].AsInt64())
	assert.Equal(t, codes.Unset, calls[2].Status().Code)
}

func TestFallbackAndMetrics(t *testing.T) {
	r := newRig(t)
	compactWith(t, r, scripted.NewSummarizer(failingModel{}), "conversation-1")
	comp := byName(r, otelcompact.SpanCompaction)[0]
	a := attrsOf(comp)
	assert.Equal(t, compact.ModeFallback, a[otelcompact.AttrMode].AsString())
	assert.True(t, a[otelcompact.AttrFallback].AsBool())
	assert.Equal(t, "503", a["error.type"].AsString(), "the fallback's error wraps the model's status")

	m := r.metrics(t)
	assert.Equal(t, int64(1), sumOf(t, m[otelcompact.MetricCompactions]))
	assert.Equal(t, int64(1), sumOf(t, m[otelcompact.MetricFallbacks]))
	assert.Equal(t, int64(2), sumOf(t, m[otelcompact.MetricSummarizerCalls]))
	assert.Equal(t, int64(2), sumOf(t, m[otelcompact.MetricSummarizerFailures]))
	saved := a[otelcompact.AttrTokensBefore].AsInt64() - a[otelcompact.AttrTokensAfter].AsInt64()
	assert.Equal(t, saved, sumOf(t, m[otelcompact.MetricTokensSaved]))
	for _, name := range []string{otelcompact.MetricCompactionDuration, otelcompact.MetricContextRatio,
		otelcompact.MetricGenAITokenUsage, otelcompact.MetricGenAIOperationDuration} {
		assert.Contains(t, m, name)
	}
	ratio := m[otelcompact.MetricContextRatio].Data.(metricdata.Histogram[float64])
	require.Len(t, ratio.DataPoints, 2, "before and after")
}

func sumOf(t *testing.T, m metricdata.Metrics) int64 {
	t.Helper()
	sum, ok := m.Data.(metricdata.Sum[int64])
	require.True(t, ok, "%s is an int64 sum", m.Name)
	var n int64
	for _, dp := range sum.DataPoints {
		n += dp.Value
	}
	return n
}

// TestCardinality: many sessions leave the metrics' attribute sets as few
// as the closed sets allow, with no session id among them.
func TestCardinality(t *testing.T) {
	r := newRig(t)
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			compactWith(t, r, scripted.NewSummarizer(scripted.Model{}), fmt.Sprintf("session-%d", i))
		}(i)
	}
	wg.Wait()
	for name, m := range r.metrics(t) {
		sets := attributeSets(m)
		assert.LessOrEqual(t, len(sets), 2, "%s has %d attribute sets for 40 sessions", name, len(sets))
		for _, s := range sets {
			assert.NotContains(t, s, "session-", "%s carries a session id", name)
		}
	}
}

// attributeSets returns the encoded attribute sets of m's data points.
func attributeSets(m metricdata.Metrics) []string {
	var out []string
	add := func(s attribute.Set) { out = append(out, s.Encoded(attribute.DefaultEncoder())) }
	switch d := m.Data.(type) {
	case metricdata.Sum[int64]:
		for _, dp := range d.DataPoints {
			add(dp.Attributes)
		}
	case metricdata.Histogram[float64]:
		for _, dp := range d.DataPoints {
			add(dp.Attributes)
		}
	case metricdata.Histogram[int64]:
		for _, dp := range d.DataPoints {
			add(dp.Attributes)
		}
	}
	return out
}

// TestNoContent: neither the messages' text, the secret they carry, nor
// the error message that echoes it appears in any span or metric.
func TestNoContent(t *testing.T) {
	r := newRig(t)
	compactWith(t, r, scripted.NewSummarizer(failingModel{}, scripted.Model{}), "conversation-1")
	compactWith(t, r, scripted.NewSummarizer(failingModel{}), "conversation-2")
	var dump strings.Builder
	for _, s := range r.spans.Ended() {
		fmt.Fprintf(&dump, "%s %v %v %v\n", s.Name(), s.Attributes(), s.Events(), s.Status())
	}
	for name, m := range r.metrics(t) {
		fmt.Fprintf(&dump, "%s %v\n", name, attributeSets(m))
	}
	require.Contains(t, dump.String(), otelcompact.SpanCompaction, "the dump holds the spans")
	for _, leak := range []string{secret, content, "Question", "order service", "conversation-"} {
		assert.NotContains(t, dump.String(), leak)
	}
}

func TestOptIns(t *testing.T) {
	r := newRig(t, otelcompact.WithSessionID(true), otelcompact.WithErrorMessages(true), otelcompact.WithProviderName("openai"))
	compactWith(t, r, scripted.NewSummarizer(failingModel{}), "conversation-7")
	comp := byName(r, otelcompact.SpanCompaction)[0]
	a := attrsOf(comp)
	assert.Equal(t, "conversation-7", a[otelcompact.AttrSessionID].AsString())
	assert.Contains(t, a[otelcompact.AttrErrorMessage].AsString(), "503")
	for _, s := range r.spans.Ended() {
		if strings.HasPrefix(s.Name(), "chat") {
			assert.Equal(t, "openai", attrsOf(s)["gen_ai.provider.name"].AsString())
			assert.Contains(t, s.Status().Description, "provider said 503")
		}
	}
	for name, m := range r.metrics(t) {
		for _, s := range attributeSets(m) {
			assert.NotContains(t, s, "conversation-7", "%s: session ids never go on metrics", name)
		}
	}
}

func TestErrorType(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{nil, ""},
		{context.Canceled, otelcompact.ErrorTypeCanceled},
		{fmt.Errorf("call: %w", context.DeadlineExceeded), otelcompact.ErrorTypeTimeout},
		{fmt.Errorf("wrapped: %w", statusError{code: 429}), "429"},
		{statusError{code: 42}, otelcompact.ErrorTypeOther},
		{errors.New("boom " + secret), otelcompact.ErrorTypeOther},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, otelcompact.ErrorType(tt.err), "%v", tt.err)
	}
}

// TestBoundedValues: an event with values outside the closed sets is
// recorded as "other".
func TestBoundedValues(t *testing.T) {
	r := newRig(t)
	r.tel.EventHandler().HandleEvent(context.Background(), compact.Event{Reason: content, Mode: secret, TokensBefore: 10, TokensAfter: 4})
	a := attrsOf(byName(r, otelcompact.SpanCompaction)[0])
	assert.Equal(t, "other", a[otelcompact.AttrReason].AsString())
	assert.Equal(t, "other", a[otelcompact.AttrMode].AsString())
	assert.Equal(t, int64(6), sumOf(t, r.metrics(t)[otelcompact.MetricTokensSaved]))
}

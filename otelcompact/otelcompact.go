package otelcompact

import (
	"fmt"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/agentcompact/compact/otelcompact"

// Telemetry turns compact's events into spans and metrics. Build it with
// [New]; it is immutable and safe for concurrent use, and its hooks may be
// given to any number of engines and tools.
type Telemetry struct {
	tracer    trace.Tracer
	inst      instruments
	provider  string
	sessionID bool
	errText   bool
}

// Option configures [New].
type Option func(*config)

type config struct {
	tp        trace.TracerProvider
	mp        metric.MeterProvider
	provider  string
	sessionID bool
	errText   bool
}

// WithTracerProvider sets where spans go. Default: otel.GetTracerProvider()
// at the time of New. A nil tp leaves the default.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) {
		if tp != nil {
			c.tp = tp
		}
	}
}

// WithMeterProvider sets where metrics go. Default: otel.GetMeterProvider()
// at the time of New. A nil mp leaves the default.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) {
		if mp != nil {
			c.mp = mp
		}
	}
}

// WithProviderName sets gen_ai.provider.name of the summarizer call spans
// and metrics (such as "openai" or "anthropic"). Default: none, since the
// engine knows the summarizer's model name but not who serves it.
func WithProviderName(name string) Option { return func(c *config) { c.provider = name } }

// WithSessionID puts the session id (compact.session.id) on compaction
// spans. Default false. It is never a metric attribute.
func WithSessionID(on bool) Option { return func(c *config) { c.sessionID = on } }

// WithErrorMessages puts the summarizer's error messages on its spans
// (the span status description and the compaction span's
// compact.error.message). Default false: errors are recorded by type only,
// since a provider's error message can echo part of a request.
func WithErrorMessages(on bool) Option { return func(c *config) { c.errText = on } }

// New returns a Telemetry whose instruments are created on the configured
// meter provider. It fails only when an instrument cannot be created.
func New(opts ...Option) (*Telemetry, error) {
	c := config{}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.tp == nil {
		c.tp = otel.GetTracerProvider()
	}
	if c.mp == nil {
		c.mp = otel.GetMeterProvider()
	}
	inst, err := newInstruments(c.mp.Meter(ScopeName))
	if err != nil {
		return nil, fmt.Errorf("otelcompact: create metric instruments: %w", err)
	}
	return &Telemetry{
		tracer:    c.tp.Tracer(ScopeName),
		inst:      inst,
		provider:  c.provider,
		sessionID: c.sessionID,
		errText:   c.errText,
	}, nil
}

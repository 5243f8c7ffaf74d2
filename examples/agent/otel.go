package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"go.opentelemetry.io/otel/exporters/stdout/stdoutmetric"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentcompact/compact/otelcompact"
)

// telemetry is the -otel setup: otelcompact on the stdout exporters,
// whose output is kept until the end of the run and printed after the
// report.
type telemetry struct {
	tel    *otelcompact.Telemetry
	tracer trace.Tracer
	tp     *sdktrace.TracerProvider
	mp     *sdkmetric.MeterProvider
	buf    bytes.Buffer
}

// newTelemetry sets up the stdout exporters and otelcompact over them.
func newTelemetry() (*telemetry, error) {
	t := &telemetry{}
	texp, err := stdouttrace.New(stdouttrace.WithWriter(&t.buf), stdouttrace.WithPrettyPrint())
	if err != nil {
		return nil, fmt.Errorf("stdout trace exporter: %w", err)
	}
	mexp, err := stdoutmetric.New(stdoutmetric.WithWriter(&t.buf), stdoutmetric.WithPrettyPrint())
	if err != nil {
		return nil, fmt.Errorf("stdout metric exporter: %w", err)
	}
	t.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(texp))
	t.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(mexp)))
	t.tel, err = otelcompact.New(otelcompact.WithTracerProvider(t.tp), otelcompact.WithMeterProvider(t.mp))
	if err != nil {
		return nil, err
	}
	t.tracer = t.tp.Tracer("examples/agent")
	return t, nil
}

// flush ends the providers (exporting the metrics) and prints what the
// exporters wrote.
func (t *telemetry) flush(ctx context.Context, out io.Writer) error {
	err := errors.Join(t.tp.Shutdown(ctx), t.mp.Shutdown(ctx))
	fmt.Fprintf(out, "\nOpenTelemetry (otelcompact on the stdout exporters: spans as they ended, then the metrics):\n%s", t.buf.String())
	return err
}

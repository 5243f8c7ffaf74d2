package otelcompact

import (
	"errors"

	"go.opentelemetry.io/otel/metric"
)

// Metric instrument names.
const (
	MetricCompactions        = "compact.compactions"
	MetricTokensSaved        = "compact.tokens.saved"
	MetricFallbacks          = "compact.fallbacks"
	MetricCompactionDuration = "compact.compaction.duration"
	MetricContextRatio       = "compact.context.ratio"
	MetricSummarizerCalls    = "compact.summarizer.calls"
	MetricSummarizerFailures = "compact.summarizer.failures"
	MetricRecalls            = "compact.recalls"
	// The GenAI semantic conventions' client metrics, for summarizer calls.
	MetricGenAITokenUsage        = "gen_ai.client.token.usage"
	MetricGenAIOperationDuration = "gen_ai.client.operation.duration"
)

// instruments are the metric instruments of a Telemetry.
type instruments struct {
	compactions, saved, fallbacks metric.Int64Counter
	duration, ratio               metric.Float64Histogram
	calls, failures, recalls      metric.Int64Counter
	tokenUsage                    metric.Int64Histogram
	opDuration                    metric.Float64Histogram
}

// The GenAI conventions' bucket boundaries.
var (
	tokenBuckets    = []float64{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864}
	durationBuckets = []float64{0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92}
	ratioBuckets    = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 2, 4}
)

// newInstruments creates the instruments on m.
func newInstruments(m metric.Meter) (instruments, error) {
	var in instruments
	var errs []error
	counter := func(name, unit, desc string) metric.Int64Counter {
		c, err := m.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		errs = append(errs, err)
		return c
	}
	in.compactions = counter(MetricCompactions, "{compaction}", "Compactions run, by reason and mode.")
	in.saved = counter(MetricTokensSaved, "{token}", "Tokens removed from the context by compactions (before minus after).")
	in.fallbacks = counter(MetricFallbacks, "{compaction}", "Compactions whose summarizer failed and the rule-based digest stood in.")
	in.calls = counter(MetricSummarizerCalls, "{call}", "Summarizer model calls.")
	in.failures = counter(MetricSummarizerFailures, "{call}", "Summarizer model calls that failed, by error type.")
	in.recalls = counter(MetricRecalls, "{call}", "Calls of the recall tool, by mode and outcome.")
	var err error
	in.duration, err = m.Float64Histogram(MetricCompactionDuration, metric.WithUnit("s"),
		metric.WithDescription("Duration of compactions."), metric.WithExplicitBucketBoundaries(durationBuckets...))
	errs = append(errs, err)
	in.ratio, err = m.Float64Histogram(MetricContextRatio, metric.WithUnit("1"),
		metric.WithDescription("Context tokens over the budget, before and after compactions."), metric.WithExplicitBucketBoundaries(ratioBuckets...))
	errs = append(errs, err)
	in.tokenUsage, err = m.Int64Histogram(MetricGenAITokenUsage, metric.WithUnit("{token}"),
		metric.WithDescription("Number of input and output tokens used."), metric.WithExplicitBucketBoundaries(tokenBuckets...))
	errs = append(errs, err)
	in.opDuration, err = m.Float64Histogram(MetricGenAIOperationDuration, metric.WithUnit("s"),
		metric.WithDescription("GenAI operation duration."), metric.WithExplicitBucketBoundaries(durationBuckets...))
	errs = append(errs, err)
	return in, errors.Join(errs...)
}

package recall

import (
	"context"
	"strings"
	"time"

	"github.com/agentcompact/compact/extractors"
)

// Modes of an [Observation].
const (
	ModeRef    = "ref"    // the input named a ref
	ModeSearch = "search" // the input was words to search for
)

// Outcomes of an [Observation]: a closed set, so that they can be metric
// attribute values.
const (
	OutcomeFound            = "found"             // an original's page, or search hits
	OutcomeNotFound         = "not_found"         // unknown ref, no longer held, lines out of range, no match
	OutcomeInvalidInput     = "invalid_input"     // empty or malformed input
	OutcomeNoSession        = "no_session"        // no session for the call
	OutcomeNothingCompacted = "nothing_compacted" // the session has compacted nothing yet
	OutcomeSourceFailed     = "source_failed"     // the resolver or the source failed
	OutcomeCancelled        = "cancelled"         // the call's context was done
)

// Observation describes one call of the tool, for tracing and metrics. It
// carries neither the query nor recalled text: only what the call was and
// how it ended.
type Observation struct {
	// Mode is [ModeRef] or [ModeSearch], or "" when the input was not
	// understood (Outcome [OutcomeInvalidInput]).
	Mode string
	// Outcome is one of the Outcome constants.
	Outcome string
	// Start is when the call began; Duration how long it took.
	Start    time.Time
	Duration time.Duration
	// AnswerTokens is the answer's size in the tool's tokens (0 on error).
	AnswerTokens int
	// Err is the error of the resolver or the source (the answer then says
	// the originals could not be read) or the call's error; nil otherwise.
	Err error
}

// An Observer is told of every call of the tool, after it ended, with the
// call's context. Implementations must be safe for concurrent use and
// return quickly: they run inside the tool's Call.
type Observer interface {
	ObserveRecall(ctx context.Context, o Observation)
}

// ObserverFunc adapts an ordinary function to [Observer].
type ObserverFunc func(ctx context.Context, o Observation)

// ObserveRecall calls f(ctx, o).
func (f ObserverFunc) ObserveRecall(ctx context.Context, o Observation) { f(ctx, o) }

// WithObserver sets the observer told of every call of the tool (see
// [Observation]): the recall tool's own events, as compact.WithObserver
// and compact.WithEventHandler observe the engine's compactions and
// middleware.WithObserver a wrapped model's calls. Default: none; a nil o
// leaves it off. otelcompact's RecallObserver turns the observations into
// OpenTelemetry spans and metrics.
func WithObserver(o Observer) Option {
	return func(t *Tool) { t.observer = o }
}

// observe tells the observer, if any, how a call ended.
func (t *Tool) observe(ctx context.Context, start time.Time, req request, answer, outcome string, err error) {
	if t.observer == nil {
		return
	}
	o := Observation{Outcome: outcome, Start: start, Duration: time.Since(start), Err: err}
	switch {
	case req.note != "":
		o.Outcome = OutcomeInvalidInput
	case req.ref != "":
		o.Mode = ModeRef
	default:
		o.Mode = ModeSearch
	}
	if o.Outcome == "" {
		o.Outcome = OutcomeFound
		if strings.HasPrefix(answer, extractors.RecallNotePrefix) {
			o.Outcome = OutcomeNotFound
		}
	}
	if answer != "" {
		o.AnswerTokens = t.tokens(answer)
	}
	t.observer.ObserveRecall(ctx, o)
}

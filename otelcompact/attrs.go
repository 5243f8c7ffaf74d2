package otelcompact

import (
	"slices"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/recall"
	"go.opentelemetry.io/otel/attribute"
)

// Span names.
const (
	SpanCompaction = "compact.compaction"
	SpanRecall     = "execute_tool " + recall.Name
)

// Attributes of the compaction span (and, for reason and mode, of the
// compaction metrics) and of the recall span.
const (
	AttrReason             = attribute.Key("compact.reason")
	AttrMode               = attribute.Key("compact.mode")
	AttrDepth              = attribute.Key("compact.depth")
	AttrTokensBefore       = attribute.Key("compact.tokens.before")
	AttrTokensAfter        = attribute.Key("compact.tokens.after")
	AttrBudget             = attribute.Key("compact.budget")
	AttrRatioBefore        = attribute.Key("compact.ratio.before")
	AttrRatioAfter         = attribute.Key("compact.ratio.after")
	AttrMessagesBefore     = attribute.Key("compact.messages.before")
	AttrMessagesAfter      = attribute.Key("compact.messages.after")
	AttrMasked             = attribute.Key("compact.messages.masked")
	AttrSummarized         = attribute.Key("compact.messages.summarized")
	AttrCut                = attribute.Key("compact.messages.cut")
	AttrFallback           = attribute.Key("compact.fallback")
	AttrSummarizerCalls    = attribute.Key("compact.summarizer.calls")
	AttrSessionID          = attribute.Key("compact.session.id")
	AttrErrorMessage       = attribute.Key("compact.error.message")
	AttrAttempt            = attribute.Key("compact.summarizer.attempt")
	AttrRatioStage         = attribute.Key("compact.ratio.stage")
	AttrRecallMode         = attribute.Key("compact.recall.mode")
	AttrRecallOutcome      = attribute.Key("compact.recall.outcome")
	AttrRecallAnswerTokens = attribute.Key("compact.recall.answer_tokens")
)

// Values outside the closed sets below are recorded as valueOther.
const valueOther = "other"

var (
	reasons  = []string{compact.ReasonTrigger, compact.ReasonEmergency, compact.ReasonManual, compact.ReasonOverflow}
	modes    = []string{compact.ModeMask, compact.ModeRule, compact.ModeLLM, compact.ModeFallback, compact.ModeTruncate}
	outcomes = []string{recall.OutcomeFound, recall.OutcomeNotFound, recall.OutcomeInvalidInput, recall.OutcomeNoSession,
		recall.OutcomeNothingCompacted, recall.OutcomeSourceFailed, recall.OutcomeCancelled}
	recallModes = []string{recall.ModeRef, recall.ModeSearch}
)

// bounded returns v when it is one of set, else valueOther: attribute
// values stay a closed set whatever an event carries.
func bounded(v string, set []string) string {
	if slices.Contains(set, v) {
		return v
	}
	return valueOther
}

// Package summary is the summarizer contract of compact: the records a
// summary chain is made of ([Record], [Context], [ActionItem], the Mode
// constants), what the engine asks a summarizer ([Request]), the
// [Summarizer] interface with its [Func] adapter, and the per-call report
// ([Call]) a summarizer gives for each model call it makes.
//
// It imports, of this module, internal/redact (the redaction [Redact]
// applies, which the extractors use too) and summary/record, and
// langchaingo; not the extractors (a [Request] carries them as the
// [Extractors] interface) and not the engine, so a summarizer can be
// written, tested and shipped without them. The record types themselves (Record, Context,
// ActionItem, the Mode constants) are aliases of those of package record,
// which imports nothing of this module: the store contract depends on that
// package alone. The engine (package compact) keeps its historical names as type aliases (compact.SummaryRecord = Record,
// compact.Summarizer = Summarizer, compact.SummarizeRequest = Request,
// compact.SummarizerFunc = Func, ...), so code written against them keeps
// compiling and the JSON form of persisted records is unchanged.
//
// The LLM summarizer lives in package llmsummary; the rule-based one in
// package compact (compact.RuleSummarizer).
//
// A summarizer that calls a model reports each call through
// [Request.Report] (the engine puts them on its compaction event), and marks
// the call's context with [MarkSummarizerCall] so that a model wrapper that
// compacts its input (package middleware) passes the call through
// untouched:
//
//	func (s *mySummarizer) Summarize(ctx context.Context, req summary.Request) (summary.Record, error) {
//		start := time.Now()
//		resp, err := s.model.GenerateContent(summary.MarkSummarizerCall(ctx), s.prompt(req))
//		req.Report(ctx, summary.Call{Model: "my-model", Attempt: 1, Start: start, Duration: time.Since(start), Err: err})
//		...
//	}
package summary

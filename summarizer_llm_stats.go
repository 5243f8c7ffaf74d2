package compact

import "context"

// SummarizerStats counts the work of the LLM summarizer. [LLMSummarizer.Stats]
// returns cumulative figures; [ContextWithSummarizerStats] collects the
// figures of one Summarize call. Token figures are counted with the
// request's Count function (the engine's tokenizer), not taken from the
// provider's usage report.
type SummarizerStats struct {
	// Calls is the number of Summarize calls.
	Calls int `json:"calls"`
	// Attempts is the number of model calls (GenerateContent), retries and
	// next models included.
	Attempts int `json:"attempts"`
	// Retries is the number of retries on the same model after a transport
	// error.
	Retries int `json:"retries"`
	// TransportErrors is the number of model calls that failed (network,
	// timeout, HTTP status, ...).
	TransportErrors int `json:"transportErrors"`
	// ValidationErrors is the number of replies rejected by
	// prompts.ParseSummary.
	ValidationErrors int `json:"validationErrors"`
	// ModelFallbacks is the number of Summarize calls answered by a model
	// other than the first.
	ModelFallbacks int `json:"modelFallbacks"`
	// Failures is the number of Summarize calls that returned an error (the
	// engine then falls back to the rule-based digest, or aborts).
	Failures int `json:"failures"`
	// Shrunk is the number of summaries shrunk by rules to fit MaxTokens.
	Shrunk int `json:"shrunk"`
	// TrimmedMessages is the number of messages left out of transcripts,
	// oldest first, to fit the input cap.
	TrimmedMessages int `json:"trimmedMessages"`
	// CutMessages is the number of huge messages cut head+tail.
	CutMessages int `json:"cutMessages"`
	// InputTokens is the number of prompt tokens sent, summed over attempts.
	InputTokens int `json:"inputTokens"`
	// OutputTokens is the number of reply tokens received, summed over
	// attempts that returned a reply. A reply rejected for its size (see
	// [NewLLMSummarizer]) is counted by estimate, at 4 bytes per token.
	OutputTokens int `json:"outputTokens"`
}

func (s *SummarizerStats) add(o SummarizerStats) {
	s.Calls += o.Calls
	s.Attempts += o.Attempts
	s.Retries += o.Retries
	s.TransportErrors += o.TransportErrors
	s.ValidationErrors += o.ValidationErrors
	s.ModelFallbacks += o.ModelFallbacks
	s.Failures += o.Failures
	s.Shrunk += o.Shrunk
	s.TrimmedMessages += o.TrimmedMessages
	s.CutMessages += o.CutMessages
	s.InputTokens += o.InputTokens
	s.OutputTokens += o.OutputTokens
}

type summarizerStatsKey struct{}

// ContextWithSummarizerStats returns ctx carrying st: an LLM summarizer
// called with the returned context adds the figures of that call to *st
// just before Summarize returns, on success and on failure. The engine uses
// it to fill [Event].SummarizerCalls from st.Attempts. *st belongs to the
// caller: read it after Summarize returns, and give each concurrent call its
// own st. A nil st returns ctx unchanged.
func ContextWithSummarizerStats(ctx context.Context, st *SummarizerStats) context.Context {
	if st == nil {
		return ctx
	}
	return context.WithValue(ctx, summarizerStatsKey{}, st)
}

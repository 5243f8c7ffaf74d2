package llmsummary

// Stats counts the work of a [Summarizer] since it was built
// ([Summarizer.Stats]). The figures of one Summarize call are its
// [summary.Call] reports (the request's OnCall); Stats adds what the
// reports do not say (retries, fallbacks, shrinking, trimming).
type Stats struct {
	// Calls is the number of Summarize calls.
	Calls int `json:"calls"`
	// Attempts is the number of model calls (GenerateContent), retries and
	// next models included: one [summary.Call] report each.
	Attempts int `json:"attempts"`
	// Retries is the number of retries on the same model after a transport
	// error.
	Retries int `json:"retries"`
	// TransportErrors is the number of model calls that failed (network,
	// timeout, HTTP status, a reply without any choice, ...).
	TransportErrors int `json:"transportErrors"`
	// ValidationErrors is the number of replies rejected as invalid (too
	// large, or refused by prompts.ParseSummary).
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
	// InputTokens is the sum of the reports' InputTokens: prompt tokens
	// sent, summed over attempts (the provider's count when it reports one,
	// else counted with the request's Count).
	InputTokens int `json:"inputTokens"`
	// OutputTokens is the sum of the reports' OutputTokens: reply tokens
	// received, summed over attempts that returned a reply (the provider's
	// count when it reports one, else counted; a reply rejected for its
	// size, see [New], by estimate at 4 bytes per token).
	OutputTokens int `json:"outputTokens"`
}

func (s *Stats) add(o Stats) {
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

// Package llmsummary is the LLM summarizer of compact: a
// [summary.Summarizer] that asks language models (langchaingo llms.Model)
// for the structured summary of the messages the engine drops, validates
// the reply, and fits it to the summary cap.
//
// The engine builds one with its defaults from
// compact.WithSummarizer(models...). To set options, build it with [New]
// and hand it to compact.WithCustomSummarizer:
//
//	s := llmsummary.New([]llms.Model{light, heavy}, // preference order
//		llmsummary.WithRetryPolicy(p),                 // default: one retry of transport errors
//		llmsummary.WithModelNames("gpt-4o-mini", "gpt-4o"),
//		llmsummary.WithLogger(logger))
//	c, err := compact.New(compact.WithCustomSummarizer(s))
//
// What it guarantees (invariant I6 of the design): the transcript it sends
// is capped (the request's MaxInputTokens, and the summarizer model's
// window when [WithWindow] gives it; oldest messages trimmed first, one
// huge message cut head and tail), secrets are redacted before anything is
// sent, and the summary it returns fits the request's MaxTokens. Transport
// errors are retried per the [RetryPolicy]; an invalid reply is not
// retried, the next model is tried instead; when every model fails,
// Summarize returns an error saying what was attempted and the engine falls
// back to its rule-based digest.
//
// Every model call is reported, as it ends, to the request's OnCall
// ([summary.Call]: model, attempt, tokens in and out, start, duration,
// error); the engine puts these reports on its compaction event.
// [Summarizer.Stats] keeps cumulative figures.
//
// Calls are made with a context marked by [summary.MarkSummarizerCall], so
// that a summarizer model wrapped by the middleware is not compacted in
// turn. [NewRetryAfterTransport] lets clients that drop response headers
// (langchaingo's OpenAI client) pass a server's Retry-After to the retry.
package llmsummary

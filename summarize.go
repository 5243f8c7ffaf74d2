package compact

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentcompact/compact/internal/guard"

	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/internal/toolfacts"
	"github.com/agentcompact/compact/summary"
	"github.com/google/uuid"
	"github.com/tmc/langchaingo/llms"
)

// summarize condenses the messages at idx, folding in prev. It never fails
// without a usable record: on a summarizer error, an invalid summary or the
// summarizer's deadline it returns the rule-based record (Mode fallback)
// together with the error. Whoever wrote it, the record passes the one
// redaction point (summary.Redact) before it is returned. It also
// returns how many model calls the summarizer made (at least 1 when there
// is a summarizer) and the reports of those calls.
func (c *Compactor) summarize(ctx context.Context, w *work, prev *SummaryRecord, idx []int, skip bool) (SummaryRecord, int, []summary.Call, error) {
	req := c.summaryRequest(w, prev, idx)
	var rec SummaryRecord
	var err error
	calls := 0
	var reports []summary.Call
	useSummarizer := c.summarizer != nil && !skip // the gate may say: the rule-based digest
	if useSummarizer {
		rec, reports, err = c.callSummarizer(ctx, req)
		calls = max(len(reports), 1) // a custom summarizer that does not report its calls counts as 1
		if err == nil {
			rec, err = c.checkSummary(rec, req)
		}
	}
	if !useSummarizer || err != nil {
		var rerr error
		rec, rerr = c.rule.Summarize(ctx, req)
		if rerr != nil {
			return SummaryRecord{}, calls, reports, errors.Join(err, rerr)
		}
		rec = redactRecord(sanitizeRecord(rec), req, false)
		if err != nil {
			rec.Mode = ModeFallback
		}
	}
	if rec.Mode == "" {
		rec.Mode = ModeLLM
	}
	rec.ID = uuid.NewString()
	rec.Depth = req.Depth
	rec.ParentID = ""
	if prev != nil {
		rec.ParentID = prev.ID
	}
	rec.Timestamp = time.Now().UTC()
	rec.OriginalMessageIDs = req.MessageIDs
	rec.TokenEstimate = c.counter.Count(SummaryPreamble + rec.Summary + w.recallHint())
	return rec, calls, reports, err
}

// summaryRequest builds the request for the messages at idx: clones, so
// that a summarizer still running after its deadline shares nothing the
// engine or the caller changes.
func (c *Compactor) summaryRequest(w *work, prev *SummaryRecord, idx []int) SummarizeRequest {
	req := SummarizeRequest{
		Messages:       make([]llms.MessageContent, len(idx)),
		MessageIDs:     make([]string, len(idx)),
		Refs:           make([]string, len(idx)),
		Depth:          1,
		MaxTokens:      c.SummaryCap(),
		MaxInputTokens: c.o.summaryInputCap,
		Count:          c.counter.Count,
		Extractors:     toolfacts.Registry{Reg: c.registry},
	}
	if prev != nil {
		p := prev.Clone()
		req.Previous = &p
		req.Depth = min(prev.Depth+1, c.o.maxDepth)
	}
	if w.sent != nil {
		req.Sent, req.SentTo, req.SentWindow = slices.Clone(w.sent), w.sentTo, c.window
	}
	for k, i := range idx {
		req.Messages[k] = msg.Clone(w.msgs[i])
		req.MessageIDs[k] = w.ids[i]
		req.Refs[k] = w.ref(i)
	}
	return req
}

// callSummarizer runs the summarizer under the engine's deadline
// (WithSummarizerTimeout, and the caller's when sooner). It returns when
// the summarizer does or when the deadline passes, whichever is first: a
// summarizer that ignores its context is left running and its result
// dropped, as are its reports after that.
func (c *Compactor) callSummarizer(ctx context.Context, req SummarizeRequest) (SummaryRecord, []summary.Call, error) {
	sctx, cancel := context.WithTimeoutCause(ctx, c.o.summarizerTimeout, ErrSummarizerTimeout)
	defer cancel()
	var mu sync.Mutex
	var reports []summary.Call
	done := false
	req.OnCall = func(_ context.Context, call summary.Call) {
		if call.Err != nil && call.ErrText == "" {
			call.ErrText = call.Err.Error()
		}
		call.ErrText = extractors.Redact(call.ErrText) // a provider error may quote the request
		mu.Lock()
		defer mu.Unlock()
		if !done { // a report after the engine stopped waiting is dropped
			reports = append(reports, call)
		}
	}
	rec, answered, err := guard.Call(sctx, "summarizer", func(ctx context.Context) (SummaryRecord, error) {
		return c.summarizer.Summarize(ctx, req)
	})
	if !answered {
		err = errors.New("no answer")
	}
	mu.Lock()
	done = true
	mu.Unlock()
	if err != nil && sctx.Err() != nil {
		err = fmt.Errorf("summarizer stopped at its deadline (%v, or the caller's): %w: %w", c.o.summarizerTimeout, context.Cause(sctx), err)
	}
	return rec, reports, err
}

// checkSummary validates a summarizer's record and passes it through the
// redaction point: every text valid UTF-8 without NUL, a non-empty summary
// within the request's cap once redacted. An error means: use the
// rule-based digest instead.
func (c *Compactor) checkSummary(rec SummaryRecord, req SummarizeRequest) (SummaryRecord, error) {
	if err := validRecordText(rec); err != nil {
		return SummaryRecord{}, err
	}
	rec = redactRecord(rec, req, true)
	if strings.TrimSpace(rec.Summary) == "" {
		return SummaryRecord{}, errors.New("summarizer returned an empty summary")
	}
	if n := c.counter.Count(rec.Summary); n > req.MaxTokens {
		return SummaryRecord{}, fmt.Errorf("summarizer returned %d tokens, cap %d", n, req.MaxTokens)
	}
	return rec, nil
}

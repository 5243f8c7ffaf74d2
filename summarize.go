package compact

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/summary"
	"github.com/google/uuid"
	"github.com/tmc/langchaingo/llms"
)

// summarize condenses the messages at idx, folding in prev. It never fails
// without a usable record: on a summarizer error it returns the rule-based
// record (Mode fallback) together with the error. It also returns how many
// model calls the summarizer made (at least 1 when there is a summarizer)
// and the reports of those calls.
func (c *Compactor) summarize(ctx context.Context, w *work, prev *SummaryRecord, idx []int, skip bool) (SummaryRecord, int, []summary.Call, error) {
	summarizer := c.summarizer
	if skip {
		summarizer = nil // the gate said: the rule-based digest
	}
	req := SummarizeRequest{
		Messages:       make([]llms.MessageContent, len(idx)),
		MessageIDs:     make([]string, len(idx)),
		Refs:           make([]string, len(idx)),
		Previous:       prev,
		Depth:          1,
		MaxTokens:      c.SummaryCap(),
		MaxInputTokens: c.o.summaryInputCap,
		Count:          c.counter.Count,
		Extractors:     c.registry,
	}
	if w.sent != nil {
		req.Sent, req.SentTo, req.SentWindow = w.sent, w.sentTo, c.window
	}
	for k, i := range idx {
		req.Messages[k] = msg.Clone(w.msgs[i])
		req.MessageIDs[k] = w.ids[i]
		req.Refs[k] = w.ref(i)
	}
	if prev != nil {
		req.Depth = min(prev.Depth+1, c.o.maxDepth)
	}
	var rec SummaryRecord
	var err error
	calls := 0
	var reports []summary.Call
	if summarizer != nil {
		var mu sync.Mutex
		done := false
		req.OnCall = func(_ context.Context, call summary.Call) {
			if call.Err != nil && call.ErrText == "" {
				call.ErrText = call.Err.Error()
			}
			mu.Lock()
			defer mu.Unlock()
			if !done { // a report after Summarize returned is dropped
				reports = append(reports, call)
			}
		}
		rec, err = summarizer.Summarize(ctx, req)
		mu.Lock()
		done = true
		mu.Unlock()
		calls = max(len(reports), 1) // a custom summarizer that does not report its calls counts as 1
		if err == nil && strings.TrimSpace(rec.Summary) == "" {
			err = errors.New("summarizer returned an empty summary")
		}
		if err == nil && c.counter.Count(rec.Summary) > req.MaxTokens {
			err = fmt.Errorf("summarizer returned %d tokens, cap %d", c.counter.Count(rec.Summary), req.MaxTokens)
		}
	}
	if summarizer == nil || err != nil {
		var rerr error
		rec, rerr = c.rule.Summarize(ctx, req)
		if rerr != nil {
			return SummaryRecord{}, calls, reports, errors.Join(err, rerr)
		}
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
	rec.TokenEstimate = c.counter.Count(SummaryPreamble + rec.Summary + RecallHint)
	return rec, calls, reports, err
}

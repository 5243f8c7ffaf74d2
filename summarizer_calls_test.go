package compact

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/agentcompact/compact/summary"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms/fake"
)

// TestSummarizerCallReports checks that the engine collects the summarizer's
// per-call reports on its event and counts them.
func TestSummarizerCallReports(t *testing.T) {
	msgs := conversation(30, 300)
	failed := errors.New("API returned unexpected status code: 503")
	tests := []struct {
		name      string
		report    []summary.Call
		err       error
		wantCalls int
		wantMode  string
	}{
		{name: "a custom summarizer that reports nothing counts as one call", wantCalls: 1, wantMode: ModeLLM},
		{name: "retries and a next model", report: []summary.Call{
			{Model: "light", Attempt: 1, InputTokens: 900, Err: failed},
			{Model: "light", Attempt: 2, InputTokens: 900, Err: failed, ErrText: "kept as given"},
			{Model: "heavy", Attempt: 1, InputTokens: 900, OutputTokens: 60},
		}, wantCalls: 3, wantMode: ModeLLM},
		{name: "every call failed", report: []summary.Call{{Model: "light", Attempt: 1, Err: failed}},
			err: failed, wantCalls: 1, wantMode: ModeFallback},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum := SummarizerFunc(func(ctx context.Context, req SummarizeRequest) (SummaryRecord, error) {
				require.NotNil(t, req.OnCall, "the engine always collects reports")
				for _, c := range tt.report {
					req.Report(ctx, c)
				}
				if tt.err != nil {
					return SummaryRecord{}, tt.err
				}
				return SummaryRecord{Summary: "Earlier work on the server tests."}, nil
			})
			var observed []Event
			c, err := New(WithContextWindow(4_000), WithReservedOutput(500), WithCustomSummarizer(sum),
				WithObserver(func(e Event) { observed = append(observed, e) }))
			require.NoError(t, err)
			s := NewSession("reports")
			res, err := c.Compact(context.Background(), s, msgs)
			require.NoError(t, err)
			require.NotNil(t, res.Event)
			ev := res.Event
			assert.Equal(t, tt.wantMode, ev.Mode)
			assert.Equal(t, tt.wantCalls, ev.SummarizerCalls)
			assert.Equal(t, tt.wantCalls, s.Stats().SummarizerCalls)
			require.Len(t, ev.Calls, len(tt.report))
			for i, want := range tt.report {
				got := ev.Calls[i]
				assert.Equal(t, want.Model, got.Model)
				assert.Equal(t, want.Attempt, got.Attempt)
				assert.Equal(t, want.Err, got.Err)
				switch {
				case want.ErrText != "":
					assert.Equal(t, want.ErrText, got.ErrText, "a summarizer's own text is kept")
				case want.Err != nil:
					assert.Equal(t, want.Err.Error(), got.ErrText, "the engine fills the text")
				default:
					assert.Empty(t, got.ErrText)
				}
			}
			require.Len(t, observed, 1)
			assert.Equal(t, ev.Calls, observed[0].Calls)

			b, err := json.Marshal(ev)
			require.NoError(t, err)
			if len(tt.report) == 0 {
				assert.NotContains(t, string(b), `"calls"`)
				return
			}
			var back struct {
				Calls []map[string]any `json:"calls"`
			}
			require.NoError(t, json.Unmarshal(b, &back))
			require.Len(t, back.Calls, len(tt.report))
			assert.Equal(t, "light", back.Calls[0]["model"])
			assert.Equal(t, failed.Error(), back.Calls[0]["error"])
		})
	}
}

// TestSummarizerLateReport checks that a report made after Summarize
// returned (a summarizer that leaks a goroutine) is dropped, without a race.
func TestSummarizerLateReport(t *testing.T) {
	var wg sync.WaitGroup
	release := make(chan struct{})
	sum := SummarizerFunc(func(ctx context.Context, req SummarizeRequest) (SummaryRecord, error) {
		req.Report(ctx, summary.Call{Model: "m", Attempt: 1})
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-release
			req.Report(ctx, summary.Call{Model: "m", Attempt: 2})
		}()
		return SummaryRecord{Summary: "Earlier work."}, nil
	})
	c, err := New(WithContextWindow(4_000), WithReservedOutput(500), WithCustomSummarizer(sum))
	require.NoError(t, err)
	res, err := c.Compact(context.Background(), NewSession("late"), conversation(30, 300))
	require.NoError(t, err)
	close(release)
	wg.Wait()
	require.NotNil(t, res.Event)
	assert.Len(t, res.Event.Calls, 1)
	assert.Equal(t, 1, res.Event.SummarizerCalls)
}

// TestWithSummarizerReportsModelCalls checks that WithSummarizer builds the
// LLM summarizer of package llmsummary, whose calls reach the event.
func TestWithSummarizerReportsModelCalls(t *testing.T) {
	model := fake.NewFakeLLM([]string{`{"summary":"The agent read the server files."}`})
	c, err := New(WithContextWindow(4_000), WithReservedOutput(500), WithSummarizer(model))
	require.NoError(t, err)
	res, err := c.Compact(context.Background(), NewSession("llm"), conversation(30, 300))
	require.NoError(t, err)
	require.NotNil(t, res.Event)
	assert.Equal(t, ModeLLM, res.Event.Mode)
	assert.Equal(t, 1, res.Event.SummarizerCalls)
	require.Len(t, res.Event.Calls, 1)
	call := res.Event.Calls[0]
	assert.Equal(t, "*fake.LLM", call.Model)
	assert.Equal(t, 1, call.Attempt)
	assert.Positive(t, call.InputTokens)
	assert.Positive(t, call.OutputTokens)
	assert.NoError(t, call.Err)
}

// TestSummarizeRequestRefs: the request names each message's ref, the one
// a masked or cut rendering of it shows.
func TestSummarizeRequestRefs(t *testing.T) {
	var got SummarizeRequest
	sum := SummarizerFunc(func(_ context.Context, req SummarizeRequest) (SummaryRecord, error) {
		got = req
		return SummaryRecord{Summary: "Earlier work."}, nil
	})
	c, err := New(WithContextWindow(4_000), WithReservedOutput(500), WithCustomSummarizer(sum))
	require.NoError(t, err)
	res, err := c.Compact(context.Background(), NewSession("refs"), conversation(30, 300))
	require.NoError(t, err)
	require.True(t, res.Compacted)
	require.NotEmpty(t, got.Messages)
	require.Len(t, got.Refs, len(got.Messages))
	require.Len(t, got.MessageIDs, len(got.Messages))
	for i, id := range got.MessageIDs {
		assert.Equal(t, Ref("refs", id), got.Refs[i], "message %d", i)
	}
	for i, r := range res.Refs { // the result shows the same refs
		if r != "" && res.States[i] == StateSummarized {
			assert.Contains(t, got.Refs, r)
		}
	}
}

package llmsummary

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// hungModel never answers; it honours its context.
type hungModel struct{ calls atomic.Int32 }

func (m *hungModel) GenerateContent(ctx context.Context, _ []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	m.calls.Add(1)
	<-ctx.Done()
	return nil, errors.New("request timeout: API call exceeded deadline")
}

func (m *hungModel) Call(ctx context.Context, p string, o ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, p, o...)
}

// TestRetriesFitTheDeadline checks that the default policy's retry fits
// inside the caller's deadline (issue 24, item 5): on a hung model, each
// attempt gets its share of the time left, so the retry is made and the
// summarizer returns by the deadline.
func TestRetriesFitTheDeadline(t *testing.T) {
	m := &hungModel{}
	ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	defer cancel()
	noWait := func(ctx context.Context, d time.Duration) error { return ctx.Err() }
	done := make(chan error, 1)
	go func() {
		_, err := New([]llms.Model{m}, WithSleep(noWait)).Summarize(ctx, baseRequest(sampleMessages()))
		done <- err
	}()
	select {
	case err := <-done:
		require.Error(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("Summarize held its caller 30 s past a 600 ms deadline")
	}
	assert.EqualValues(t, DefaultMaxRetries+1, m.calls.Load(), "the retry fits inside the deadline")
}

// TestDefaultsBoundAHungModel checks that the default policy, without a
// caller deadline, spends at most 45 s on a hung model (every attempt
// timing out, the backoff between): far less than the 2 minutes of the
// former 60 s attempts.
func TestDefaultsBoundAHungModel(t *testing.T) {
	p := DefaultRetryPolicy()
	worst := time.Duration(p.MaxRetries+1) * p.AttemptTimeout
	for i := 0; i < p.MaxRetries; i++ {
		worst += p.DefaultBackoff(i, context.DeadlineExceeded)
	}
	assert.LessOrEqual(t, worst, 45*time.Second)
}

package recall_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentcompact/compact/recall"
)

// observations collects what an observer is told.
type observations struct {
	mu   sync.Mutex
	list []recall.Observation
}

func (o *observations) ObserveRecall(_ context.Context, obs recall.Observation) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.list = append(o.list, obs)
}

func (o *observations) last(t *testing.T) recall.Observation {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	require.NotEmpty(t, o.list)
	return o.list[len(o.list)-1]
}

func TestObserverOutcomes(t *testing.T) {
	st := newFixture(t)
	failing := errors.New("database is down")
	resolvers := map[string]recall.Resolver{
		"fixture": func(context.Context) (recall.Source, error) { return recall.StoreSource(st, sessionA), nil },
		"none":    func(context.Context) (recall.Source, error) { return nil, recall.ErrNoSession },
		"empty":   func(context.Context) (recall.Source, error) { return nil, recall.ErrNothingCompacted },
		"failing": func(context.Context) (recall.Source, error) { return nil, failing },
	}
	tests := []struct {
		resolver, input, mode, outcome string
		err                            error
	}{
		{"fixture", "ref:" + refSmall, recall.ModeRef, recall.OutcomeFound, nil},
		{"fixture", "ref:" + refSmall + " lines 40-50", recall.ModeRef, recall.OutcomeNotFound, nil},
		{"fixture", "ref:zzzzzzzz", recall.ModeRef, recall.OutcomeNotFound, nil},
		{"fixture", "helper17(", recall.ModeSearch, recall.OutcomeFound, nil},
		{"fixture", "no-such-words-anywhere", recall.ModeSearch, recall.OutcomeNotFound, nil},
		{"fixture", "   ", "", recall.OutcomeInvalidInput, nil},
		{"fixture", "ref:", "", recall.OutcomeInvalidInput, nil},
		{"none", "helper17(", recall.ModeSearch, recall.OutcomeNoSession, nil},
		{"empty", "ref:" + refSmall, recall.ModeRef, recall.OutcomeNothingCompacted, nil},
		{"failing", "helper17(", recall.ModeSearch, recall.OutcomeSourceFailed, failing},
	}
	for _, tt := range tests {
		t.Run(tt.resolver+"/"+tt.input, func(t *testing.T) {
			obs := &observations{}
			tool := recall.New(resolvers[tt.resolver], recall.WithObserver(obs))
			out, err := tool.Call(context.Background(), tt.input)
			require.NoError(t, err)
			o := obs.last(t)
			assert.Equal(t, tt.mode, o.Mode)
			assert.Equal(t, tt.outcome, o.Outcome)
			assert.Positive(t, o.AnswerTokens, "answer %q", out)
			assert.False(t, o.Start.IsZero())
			assert.GreaterOrEqual(t, int64(o.Duration), int64(0))
			if tt.err != nil {
				assert.ErrorIs(t, o.Err, tt.err)
			} else {
				assert.NoError(t, o.Err)
			}
		})
	}
}

func TestObserverCancelled(t *testing.T) {
	obs := &observations{}
	tool := toolFor(newFixture(t), sessionA, recall.WithObserver(recall.ObserverFunc(obs.ObserveRecall)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := tool.Call(ctx, "ref:"+refSmall)
	require.ErrorIs(t, err, context.Canceled)
	o := obs.last(t)
	assert.Equal(t, recall.OutcomeCancelled, o.Outcome)
	assert.ErrorIs(t, o.Err, context.Canceled)
	assert.Zero(t, o.AnswerTokens)
}

func TestNoObserverByDefault(t *testing.T) {
	tool := toolFor(newFixture(t), sessionA, recall.WithObserver(nil))
	assert.NotEmpty(t, call(t, tool, "ref:"+refSmall))
}

package compact_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/summary"
)

// chatToSummarize is a chat that a 3k window must summarize.
func chatToSummarize() []llms.MessageContent {
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are a support agent.")}
	for i := 0; i < 30; i++ {
		msgs = append(msgs,
			llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprintf("Question %d: why does order %d fail?", i, 1000+i)),
			llms.TextParts(llms.ChatMessageTypeAI, fmt.Sprintf("Answer %d: %s", i, strings.Repeat("the payment service retried ", 12))))
	}
	return msgs
}

func TestSummarizeGate(t *testing.T) {
	stop := errors.New("another replica is compacting")
	tests := []struct {
		name      string
		gate      error
		wantMode  string
		wantCalls int32
		wantErr   error
	}{
		{"pass", nil, compact.ModeLLM, 1, nil},
		{"skip", fmt.Errorf("lease held: %w", compact.ErrSkipSummarizer), compact.ModeRule, 0, nil},
		{"stop", stop, "", 0, stop},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls, asked atomic.Int32
			sum := summary.Func(func(ctx context.Context, req summary.Request) (summary.Record, error) {
				calls.Add(1)
				return summary.Record{Summary: "the customer asked about failing orders"}, nil
			})
			c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(3_000), compact.WithReservedOutput(500),
				compact.WithCustomSummarizer(sum))
			require.NoError(t, err)
			s := compact.NewSession("conversation-1")
			before, err := s.MarshalJSON()
			require.NoError(t, err)
			gate := func(ctx context.Context, reason string) error {
				asked.Add(1)
				assert.Contains(t, []string{compact.ReasonTrigger, compact.ReasonEmergency}, reason)
				return tt.gate
			}
			res, err := c.Compact(context.Background(), s, chatToSummarize(), compact.WithSummarizeGate(gate))
			assert.Equal(t, int32(1), asked.Load(), "the gate is asked once")
			assert.Equal(t, tt.wantCalls, calls.Load())
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				after, merr := s.MarshalJSON()
				require.NoError(t, merr)
				assert.JSONEq(t, string(before), string(after), "an abandoned compaction leaves the session as it was")
				return
			}
			require.NoError(t, err)
			require.True(t, res.Compacted)
			assert.Equal(t, tt.wantMode, res.Event.Mode)
			assert.Equal(t, tt.wantMode, res.Summary.Mode)
		})
	}
}

func TestSummarizeGateNotAskedWithoutSummarizer(t *testing.T) {
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(3_000), compact.WithReservedOutput(500))
	require.NoError(t, err)
	res, err := c.Compact(context.Background(), compact.NewSession(""), chatToSummarize(),
		compact.WithSummarizeGate(func(context.Context, string) error {
			t.Error("the gate was asked though there is no summarizer")
			return nil
		}))
	require.NoError(t, err)
	assert.Equal(t, compact.ModeRule, res.Event.Mode)
}

package mocks_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/mocks"
	"github.com/agentcompact/compact/mocks/enginemock"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	"go.uber.org/mock/gomock"
)

// TestMockSummarizerFallback uses the generated mock to check that the
// engine calls a custom summarizer once per compaction and falls back to
// the rule-based digest when it fails.
func TestMockSummarizerFallback(t *testing.T) {
	ctrl := gomock.NewController(t)
	sum := enginemock.NewMockSummarizer(ctrl)
	sum.EXPECT().Summarize(gomock.Any(), gomock.Any()).Times(1).
		DoAndReturn(func(ctx context.Context, req compact.SummarizeRequest) (compact.SummaryRecord, error) {
			require.NotEmpty(t, req.Messages)
			require.Equal(t, len(req.Messages), len(req.MessageIDs))
			require.Positive(t, req.MaxTokens)
			return compact.SummaryRecord{}, errors.New("boom")
		})
	c, err := compact.New(compact.WithContextWindow(3_000), compact.WithCustomSummarizer(sum))
	require.NoError(t, err)
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "sys")}
	for i := 0; i < 20; i++ {
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, strings.Repeat("question ", 60)),
			llms.TextParts(llms.ChatMessageTypeAI, strings.Repeat("answer ", 60)))
	}
	res, err := c.Compact(context.Background(), compact.NewSession(""), msgs)
	require.NoError(t, err)
	require.True(t, res.Compacted)
	require.Equal(t, compact.ModeFallback, res.Event.Mode)
}

func TestMockCounterDrivesBudget(t *testing.T) {
	ctrl := gomock.NewController(t)
	counter := mocks.NewMockCounter(ctrl)
	counter.EXPECT().Count(gomock.Any()).AnyTimes().DoAndReturn(func(s string) int { return len(s) })
	c, err := compact.New(compact.WithContextWindow(1_000), compact.WithCounter(counter))
	require.NoError(t, err)
	res, err := c.Compact(context.Background(), compact.NewSession(""), []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, strings.Repeat("x", 2_000))})
	require.NoError(t, err)
	require.LessOrEqual(t, res.Tokens, c.Budget())
}

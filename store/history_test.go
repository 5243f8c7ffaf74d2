package store

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

func TestChatHistory(t *testing.T) {
	ctx := context.Background()
	h := NewChatHistory(llms.SystemChatMessage{Content: "s"}, nil)
	msgs, err := h.Messages(ctx)
	require.NoError(t, err)
	require.Len(t, msgs, 1)
	require.NoError(t, h.AddUserMessage(ctx, "u"))
	require.NoError(t, h.AddAIMessage(ctx, "a"))
	require.NoError(t, h.AddMessage(ctx, nil))
	require.NoError(t, h.AddMessages(ctx, []llms.ChatMessage{llms.ToolChatMessage{ID: "1"}, nil}))
	since, e0, err := h.MessagesSince(ctx, 2)
	require.NoError(t, err)
	assert.Equal(t, []llms.ChatMessage{llms.AIChatMessage{Content: "a"}, llms.ToolChatMessage{ID: "1"}}, since)
	since, e1, err := h.MessagesSince(ctx, 99)
	require.NoError(t, err)
	assert.Empty(t, since)
	assert.Equal(t, e0, e1, "appends keep the epoch")

	// A slice returned earlier does not see later appends.
	require.NoError(t, h.AddUserMessage(ctx, "later"))
	assert.Len(t, msgs, 1)

	require.NoError(t, h.Clear(ctx))
	msgs, err = h.Messages(ctx)
	require.NoError(t, err)
	assert.NotNil(t, msgs)
	assert.Empty(t, msgs)
	_, e2, err := h.MessagesSince(ctx, 0)
	require.NoError(t, err)
	assert.NotEqual(t, e1, e2, "Clear starts a new epoch")
	require.NoError(t, h.SetMessages(ctx, []llms.ChatMessage{nil, llms.HumanChatMessage{Content: "x"}}))
	msgs, _ = h.Messages(ctx)
	assert.Equal(t, []llms.ChatMessage{llms.HumanChatMessage{Content: "x"}}, msgs)
	_, e3, _ := h.MessagesSince(ctx, 0)
	assert.NotEqual(t, e2, e3, "SetMessages starts a new epoch")

	var zero ChatHistory
	msgs, err = zero.Messages(ctx)
	require.NoError(t, err)
	assert.NotNil(t, msgs)
}

func TestChatHistoryConcurrent(t *testing.T) {
	ctx := context.Background()
	h := NewChatHistory()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				assert.NoError(t, h.AddUserMessage(ctx, fmt.Sprint(g, i)))
				_, err := h.Messages(ctx)
				assert.NoError(t, err)
				_, _, err = h.MessagesSince(ctx, i)
				assert.NoError(t, err)
			}
		}()
	}
	wg.Wait()
	msgs, err := h.Messages(ctx)
	require.NoError(t, err)
	assert.Len(t, msgs, 400)
}

package middleware

import (
	"context"
	"testing"

	"github.com/agentcompact/compact/mocks"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	"go.uber.org/mock/gomock"
)

// TestCallRoutesThroughGenerateContent: Call must go through
// GenerateContent (so it is compacted), never to next.Call; gomock fails
// on the unexpected call.
func TestCallRoutesThroughGenerateContent(t *testing.T) {
	ctrl := gomock.NewController(t)
	next := mocks.NewMockModel(ctrl)
	want := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "ping")}
	next.EXPECT().GenerateContent(gomock.Any(), want, gomock.Any()).Return(textResponse("pong"), nil).Times(1)
	out, err := Wrap(next, newCompactor(t, 128_000)).Call(context.Background(), "ping")
	require.NoError(t, err)
	assert.Equal(t, "pong", out)
}

func TestErrorsPassThrough(t *testing.T) {
	ctrl := gomock.NewController(t)
	next := mocks.NewMockModel(ctrl)
	auth := llms.NewError(llms.ErrCodeAuthentication, "openai", "bad key")
	next.EXPECT().GenerateContent(gomock.Any(), gomock.Any(), gomock.Any()).Return(nil, auth).Times(1)
	_, err := Wrap(next, newCompactor(t, 128_000)).GenerateContent(context.Background(), run("e", 2, 100))
	assert.Same(t, auth, err, "returned unchanged, not retried")

	next.EXPECT().GenerateContent(gomock.Any(), gomock.Any(), gomock.Any()).Return(&llms.ContentResponse{}, nil).Times(1)
	_, err = Wrap(next, newCompactor(t, 128_000)).Call(context.Background(), "x")
	require.Error(t, err, "an empty response is Call's error, as in llms.GenerateFromSinglePrompt")
}

// TestRetrySequence: the retry sends a smaller context, in order.
func TestRetrySequence(t *testing.T) {
	ctrl := gomock.NewController(t)
	next := mocks.NewMockModel(ctrl)
	c := newCompactor(t, 16_000)
	msgs := run("r", 16, 1500)
	full := c.CountTokens(msgs)
	smaller := gomock.Cond(func(x any) bool {
		sent, ok := x.([]llms.MessageContent)
		return ok && c.CountTokens(sent) < full/2
	})
	gomock.InOrder(
		next.EXPECT().GenerateContent(gomock.Any(), msgs, gomock.Any()).Return(nil, overflowErr()),
		next.EXPECT().GenerateContent(gomock.Any(), smaller, gomock.Any()).Return(textResponse("ok"), nil),
	)
	resp, err := Wrap(next, c).GenerateContent(context.Background(), msgs, llms.WithTemperature(0))
	require.NoError(t, err)
	assert.Equal(t, "ok", resp.Choices[0].Content)
}

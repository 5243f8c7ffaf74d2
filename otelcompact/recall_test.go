package otelcompact_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/middleware"
	"github.com/agentcompact/compact/otelcompact"
	"github.com/agentcompact/compact/recall"
)

// okModel answers every call with "ok".
type okModel struct{}

func (okModel) GenerateContent(context.Context, []llms.MessageContent, ...llms.CallOption) (*llms.ContentResponse, error) {
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: "ok"}}}, nil
}

func (m okModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}

// TestRecallSpans runs the recall tool of a wrapped model, wired as the
// package documentation shows, after the middleware compacted a session.
func TestRecallSpans(t *testing.T) {
	r := newRig(t)
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(3_000), compact.WithReservedOutput(500),
		compact.WithEventHandler(r.tel.EventHandler()))
	require.NoError(t, err)
	llm := middleware.Wrap(okModel{}, c, middleware.WithRecallOptions(recall.WithObserver(r.tel.RecallObserver())))
	ctx := middleware.WithSession(context.Background(), "conversation-1")
	msgs := conversation()
	_, err = llm.GenerateContent(ctx, msgs)
	require.NoError(t, err)
	res, err := c.View(ctx, llm.Session("conversation-1"), msgs)
	require.NoError(t, err)
	var ref string
	for _, x := range res.Refs {
		if x != "" {
			ref = x
		}
	}
	require.NotEmpty(t, ref, "the middleware compacted something")

	ctx, parent := r.tp.Tracer("test").Start(ctx, "agent step")
	tool := llm.RecallTool()
	for _, in := range []string{"ref:" + ref, content, "ref:zzzzzzzz", ""} {
		_, err := tool.Call(ctx, in)
		require.NoError(t, err)
	}
	parent.End()

	spans := byName(r, otelcompact.SpanRecall)
	require.Len(t, spans, 4)
	want := []struct{ mode, outcome string }{
		{recall.ModeRef, recall.OutcomeFound}, {recall.ModeSearch, recall.OutcomeFound},
		{recall.ModeRef, recall.OutcomeNotFound}, {"", recall.OutcomeInvalidInput},
	}
	for i, s := range spans {
		a := attrsOf(s)
		assert.Equal(t, parent.SpanContext().SpanID(), s.Parent().SpanID())
		assert.Equal(t, "execute_tool", a["gen_ai.operation.name"].AsString())
		assert.Equal(t, "recall", a["gen_ai.tool.name"].AsString())
		assert.Equal(t, want[i].mode, a[otelcompact.AttrRecallMode].AsString(), "call %d", i)
		assert.Equal(t, want[i].outcome, a[otelcompact.AttrRecallOutcome].AsString(), "call %d", i)
		assert.Positive(t, a[otelcompact.AttrRecallAnswerTokens].AsInt64())
		for _, kv := range s.Attributes() {
			assert.NotContains(t, kv.Value.Emit(), content, "no query or recalled text in %s", kv.Key)
			assert.NotContains(t, kv.Value.Emit(), secret)
		}
	}
	assert.Equal(t, int64(4), sumOf(t, r.metrics(t)[otelcompact.MetricRecalls]))
	assert.NotEmpty(t, byName(r, otelcompact.SpanCompaction), "the middleware's compaction was traced too")
	assert.False(t, strings.Contains(r.spans.Ended()[0].Name(), content))
}

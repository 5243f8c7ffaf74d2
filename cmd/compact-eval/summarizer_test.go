package main

import (
	"context"
	"strings"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/prompts"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

func TestScriptedSummarizer(t *testing.T) {
	c := testCounter(t)
	f, desc, err := newSummarizerFactory(llmScripted, "", c)
	require.NoError(t, err)
	assert.Contains(t, desc, "scripted")
	s, err := f()
	require.NoError(t, err)
	msgs := conversation()[1:]
	req := compact.SummarizeRequest{Messages: msgs, MessageIDs: compact.MessageIDs(msgs), Depth: 1, MaxTokens: 200,
		MaxInputTokens: 8000, Count: c.Count}
	meter := &sumMeter{}
	rec, err := s.Summarize(withMeter(context.Background(), meter), req)
	require.NoError(t, err)
	assert.Equal(t, compact.ModeLLM, rec.Mode)
	assert.LessOrEqual(t, c.Count(rec.Summary), 200)
	for _, want := range []string{"src/parser.py", "ParseError"} {
		assert.Contains(t, rec.Summary+strings.Join(rec.Context.DomainEntities, " "), want)
	}
	calls, in, out := meter.snapshot()
	assert.Equal(t, 1, calls)
	assert.Positive(t, in)
	assert.Positive(t, out)
}

func TestScriptedModelReply(t *testing.T) {
	c := testCounter(t)
	m := scriptedModel{counter: c}
	_, err := m.GenerateContent(context.Background(), nil)
	assert.Error(t, err, "no request in the context")

	msgs := conversation()[1:]
	req := &compact.SummarizeRequest{Messages: msgs, MaxTokens: 100}
	ctx := context.WithValue(context.Background(), requestKey{}, req)
	// The transcript shows messages 5 to 7 only: the first four were trimmed.
	prompt := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman,
		"<transcript>\n<message index=5 role=tool>\n</message>\n<message index=6 role=assistant>\n</message>\n</transcript>")}
	resp, err := m.GenerateContent(ctx, prompt, llms.WithMaxTokens(157))
	require.NoError(t, err)
	reply := resp.Choices[0].Content
	assert.LessOrEqual(t, c.Count(reply), 157)
	sum, err := prompts.ParseSummary(reply)
	require.NoError(t, err)
	assert.NotContains(t, reply, "src/parser.py", "a message the transcript does not show")
	assert.NotContains(t, sum.Context.Participants, "user", "the user message was trimmed")

	_, err = m.GenerateContent(ctx, prompt, llms.WithMaxTokens(5))
	assert.Error(t, err, "no reply fits 5 tokens")

	ctx = context.WithValue(context.Background(), requestKey{}, &compact.SummarizeRequest{Messages: msgs, MaxTokens: 400})
	out, err := m.Call(ctx, "<message index=1 role=user>", llms.WithMaxTokens(532))
	require.NoError(t, err)
	assert.Contains(t, out, "src/parser.py")
}

func TestSummarizerFactoryModes(t *testing.T) {
	c := testCounter(t)
	t.Setenv("OPENAI_API_KEY", "")
	_, desc, err := newSummarizerFactory(llmAuto, "", c)
	require.NoError(t, err)
	assert.Contains(t, desc, "scripted", "auto without a key is scripted")
	_, _, err = newSummarizerFactory(llmOpenAI, "gpt-4o-mini", c)
	assert.Error(t, err, "openai needs a key")
	_, _, err = newSummarizerFactory("other", "", c)
	assert.Error(t, err)

	t.Setenv("OPENAI_API_KEY", "sk-test")
	f, desc, err := newSummarizerFactory(llmAuto, "gpt-4o-mini", c)
	require.NoError(t, err)
	assert.Contains(t, desc, "OpenAI gpt-4o-mini")
	s, err := f()
	require.NoError(t, err, "building the client needs no network")
	assert.NotNil(t, s)
}

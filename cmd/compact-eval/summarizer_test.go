package main

import (
	"context"
	"strings"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/llmsummary"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	calls, in, out, cached := meter.snapshot()
	assert.Equal(t, 1, calls)
	assert.Positive(t, in)
	assert.Positive(t, out)
	assert.Zero(t, cached, "a transcript request repeats nothing the agent sent")
}

// TestSummarizerCachedPrefix: a cache-safe request (the agent's last
// request plus an instruction) is metered as served by the cache for the
// repeated part.
func TestSummarizerCachedPrefix(t *testing.T) {
	c := testCounter(t)
	f, _, err := newSummarizerFactory(llmScripted, "", c)
	require.NoError(t, err)
	s, err := f(llmsummary.WithCacheSafe(llmsummary.CacheSafeOn))
	require.NoError(t, err)
	msgs := conversation()
	meter := &sumMeter{}
	meter.setLastSent(msgs)
	req := compact.SummarizeRequest{Messages: msgs[1:5], MessageIDs: compact.MessageIDs(msgs[1:5]), Depth: 1, MaxTokens: 200,
		MaxInputTokens: 8000, Count: c.Count, Sent: msgs, SentWindow: 32_000}
	rec, err := s.Summarize(withMeter(context.Background(), meter), req)
	require.NoError(t, err)
	assert.Equal(t, compact.ModeLLM, rec.Mode)
	_, in, _, cached := meter.snapshot()
	assert.Equal(t, c.CountMessages(msgs), cached, "the whole conversation as sent is a cache hit")
	assert.Greater(t, in, cached, "the instruction is not")
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

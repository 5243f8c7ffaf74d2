package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOpenAICached(t *testing.T) {
	tests := []struct{ sent, shared, want int }{
		{900, 900, 0},      // prompt under 1,024 tokens: no caching
		{5000, 1000, 0},    // shared prefix under 1,024
		{5000, 1024, 1024}, // exactly the minimum
		{5000, 1200, 1152}, // 128-token steps, rounded down
		{5000, 4999, 4992}, //
		{3000, 4000, 2944}, // never more than sent
		{100_000, 0, 0},    // a compaction's first call: nothing shared
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, openAICached(tt.sent, tt.shared), "sent %d shared %d", tt.sent, tt.shared)
	}
}

func TestCallCosts(t *testing.T) {
	p := prices{input: 1e6, output: 4e6} // $1 per token, so costs read as tokens
	// A call sharing 2,048 of its 4,096 tokens with the previous one.
	c := callRecord{sent: 4096, cached: 2048}
	assert.InDelta(t, 2048+0.1*2048, openAICallCost(c, p), 1e-6)
	assert.InDelta(t, 0.1*2048+1.25*2048, anthropicCallCost(c, p), 1e-6)
	// A small prompt is not cached by either.
	small := callRecord{sent: 800, cached: 800}
	assert.InDelta(t, 800, openAICallCost(small, p), 1e-6)
	assert.InDelta(t, 800, anthropicCallCost(small, p), 1e-6)
	// Nothing shared: OpenAI bills it plainly, Anthropic writes it.
	fresh := callRecord{sent: 10_000}
	assert.InDelta(t, 10_000, openAICallCost(fresh, p), 1e-6)
	assert.InDelta(t, 12_500, anthropicCallCost(fresh, p), 1e-6)
	// Summarizer calls: the cached part of the prompt at the cached rate,
	// replies at the output price.
	assert.InDelta(t, (1000-600)+0.1*600+4*50, summarizerCost(1000, 600, 50, 0.1, p), 1e-6)
}

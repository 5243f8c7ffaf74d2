package budget

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

func TestCountKnown(t *testing.T) {
	tests := []struct {
		encoding, text string
		want           int
	}{
		{EncodingO200k, "", 0},
		{EncodingO200k, "hello world", 2},
		{EncodingCL100k, "hello world", 2},
		{EncodingO200k, "Hello, world!", 4},
		{EncodingCL100k, "Hello, world!", 4},
		{EncodingCL100k, "tiktoken is great!", 6},
		{EncodingO200k, "tiktoken is great!", 6},
	}
	for _, tt := range tests {
		t.Run(tt.encoding+"/"+tt.text, func(t *testing.T) {
			c, err := NewEncodingCounter(tt.encoding)
			require.NoError(t, err)
			assert.Equal(t, tt.want, c.Count(tt.text))
		})
	}
}

func TestCountSpecialTokenTextDoesNotPanic(t *testing.T) {
	for _, name := range []string{EncodingO200k, EncodingCL100k, EncodingEstimate} {
		c, err := NewEncodingCounter(name)
		require.NoError(t, err)
		assert.Greater(t, c.Count("<|endoftext|>"), 1, name) // ordinary text, several tokens
	}
}

func TestNewEncodingCounter(t *testing.T) {
	tests := []struct {
		name    string
		exact   bool
		wantErr bool
	}{
		{EncodingO200k, true, false},
		{EncodingCL100k, true, false},
		{EncodingEstimate, false, false},
		{"p50k_base", false, true},
		{"", false, true},
		{"O200K_BASE", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewEncodingCounter(tt.name)
			if tt.wantErr {
				assert.Error(t, err)
				assert.Nil(t, c)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.name, c.Encoding())
			assert.Equal(t, tt.exact, c.Exact())
		})
	}
}

func TestNewCounter(t *testing.T) {
	tests := []struct {
		model, encoding string
		exact           bool
	}{
		{"gpt-4o", EncodingO200k, true},
		{"gpt-4", EncodingCL100k, true},
		{"claude-sonnet-4", EncodingEstimate, false},
		{"", EncodingEstimate, false},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			c, err := NewCounter(tt.model)
			require.NoError(t, err)
			assert.Equal(t, tt.encoding, c.Encoding())
			assert.Equal(t, tt.exact, c.Exact())
		})
	}
}

func TestNewMessageCounter(t *testing.T) {
	words := CounterFunc(func(s string) int { return len(s) })
	c := NewMessageCounter(words)
	assert.Equal(t, EncodingCustom, c.Encoding())
	assert.False(t, c.Exact())
	assert.Equal(t, 5, c.Count("hello"))
	assert.Equal(t, MessageOverhead+5, c.CountMessage(llms.TextParts(llms.ChatMessageTypeHuman, "hello")))

	negative := NewMessageCounter(CounterFunc(func(string) int { return -7 }))
	assert.Equal(t, 0, negative.Count("x"), "negative counts clamp to 0")

	est := NewMessageCounter(nil)
	assert.Equal(t, EncodingEstimate, est.Encoding())
	assert.Equal(t, EstimateTokens("hello world"), est.Count("hello world"))

	var nilCounter *TokenCounter
	assert.Equal(t, EncodingEstimate, NewMessageCounter(nilCounter).Encoding())

	o, err := NewEncodingCounter(EncodingO200k)
	require.NoError(t, err)
	wrapped := NewMessageCounter(o, WithMessageOverhead(10))
	assert.Equal(t, EncodingO200k, wrapped.Encoding())
	assert.True(t, wrapped.Exact())
	assert.Equal(t, 10+2, wrapped.CountMessage(llms.TextParts(llms.ChatMessageTypeHuman, "hello world")))

	var nilFunc CounterFunc
	assert.Equal(t, 0, nilFunc.Count("abc"))
}

func TestNilAndZeroCounter(t *testing.T) {
	msg := llms.TextParts(llms.ChatMessageTypeHuman, "hello world")
	for name, c := range map[string]*TokenCounter{"nil": nil, "zero": {}} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, EstimateTokens("hello world"), c.Count("hello world"))
			assert.Equal(t, EncodingEstimate, c.Encoding())
			assert.False(t, c.Exact())
			want := c.messageOverhead() + EstimateTokens("hello world")
			assert.Equal(t, want, c.CountMessage(msg))
			assert.Equal(t, want+ReplyPriming, c.CountMessages([]llms.MessageContent{msg}))
		})
	}
}

func TestOptions(t *testing.T) {
	c, err := NewEncodingCounter(EncodingO200k, WithMessageOverhead(-3), nil, WithCacheSize(0))
	require.NoError(t, err)
	assert.Nil(t, c.cache)
	assert.Equal(t, 2, c.CountMessage(llms.TextParts(llms.ChatMessageTypeHuman, "hello world")))

	d, err := NewCounter("gpt-4o")
	require.NoError(t, err)
	require.NotNil(t, d.cache)
	assert.Equal(t, MessageOverhead, d.overhead)
}

// TestConcurrentCounting runs many goroutines over shared and distinct
// messages; run with -race. Every goroutine must see the sequential counts.
func TestConcurrentCounting(t *testing.T) {
	var msgs []llms.MessageContent
	for _, ms := range loadDir(t, "testdata") {
		msgs = append(msgs, ms...)
	}
	for _, name := range []string{EncodingO200k, EncodingEstimate} {
		ref, err := NewEncodingCounter(name, WithCacheSize(0))
		require.NoError(t, err)
		want := make([]int, len(msgs))
		for i, m := range msgs {
			want[i] = ref.CountMessage(m)
		}
		c, err := NewEncodingCounter(name, WithCacheSize(64)) // small: evicts while racing
		require.NoError(t, err)
		var wg sync.WaitGroup
		var mismatches atomic.Int64
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for round := 0; round < 3; round++ {
					for i := range msgs {
						j := (i*7 + g + round) % len(msgs)
						if c.CountMessage(msgs[j]) != want[j] {
							mismatches.Add(1)
						}
					}
				}
			}()
		}
		wg.Wait()
		assert.Zero(t, mismatches.Load(), name)
		assert.LessOrEqual(t, c.cache.len(), 64)
	}
}

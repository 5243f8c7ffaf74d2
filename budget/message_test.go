package budget

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// otherPart is a part type the counter does not know; it counts as
// fmt.Sprint of itself (the embedded TextContent's String method).
type otherPart struct{ llms.TextContent }

// lenCounter counts one token per byte, so expected values are obvious.
var lenCounter = CounterFunc(func(s string) int { return len(s) })

func TestCountMessageParts(t *testing.T) {
	c := NewMessageCounter(lenCounter)
	const o = MessageOverhead
	tests := []struct {
		name  string
		parts []llms.ContentPart
		want  int
	}{
		{"empty", nil, o},
		{"text", []llms.ContentPart{llms.TextPart("hello")}, o + 5},
		{"two texts", []llms.ContentPart{llms.TextPart("ab"), llms.TextPart("cde")}, o + 5},
		{"text pointer", []llms.ContentPart{&llms.TextContent{Text: "hello"}}, o + 5},
		{"nil text pointer", []llms.ContentPart{(*llms.TextContent)(nil)}, o},
		{"nil part", []llms.ContentPart{nil, llms.TextPart("ab")}, o + 2},
		{"tool call", []llms.ContentPart{llms.ToolCall{ID: "id1", Type: "function",
			FunctionCall: &llms.FunctionCall{Name: "read", Arguments: `{"p":1}`}}}, o + ToolCallOverhead + 3 + 4 + 7},
		{"tool call without function", []llms.ContentPart{llms.ToolCall{ID: "id1"}}, o + ToolCallOverhead + 3},
		{"tool call pointer", []llms.ContentPart{&llms.ToolCall{ID: "ab"}}, o + ToolCallOverhead + 2},
		{"nil tool call pointer", []llms.ContentPart{(*llms.ToolCall)(nil)}, o},
		{"tool result", []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "id1", Name: "read", Content: "output"}},
			o + ToolCallOverhead + 3 + 4 + 6},
		{"nil tool result pointer", []llms.ContentPart{(*llms.ToolCallResponse)(nil)}, o},
		{"image", []llms.ContentPart{llms.ImageURLPart("https://example.com/a.png")}, o + ImageTokens},
		{"image high", []llms.ContentPart{llms.ImageURLWithDetailPart("https://x/a.png", "high")}, o + ImageTokens},
		{"image low", []llms.ContentPart{llms.ImageURLWithDetailPart("https://x/a.png", " LOW ")}, o + LowDetailImageTokens},
		{"image data URL", []llms.ContentPart{llms.ImageURLPart("data:image/png;base64," + strings.Repeat("A", 100000))}, o + ImageTokens},
		{"nil image pointer", []llms.ContentPart{(*llms.ImageURLContent)(nil)}, o},
		{"binary image", []llms.ContentPart{llms.BinaryPart("image/PNG", make([]byte, 50000))}, o + ImageTokens},
		{"binary text", []llms.ContentPart{llms.BinaryPart("text/plain; charset=utf-8", []byte("hello"))}, o + 5},
		{"binary json", []llms.ContentPart{llms.BinaryPart("application/json", []byte(`{"a":1}`))}, o + 7},
		{"binary vendor json", []llms.ContentPart{llms.BinaryPart("application/vnd.api+json", []byte(`{}`))}, o + 2},
		{"binary pdf", []llms.ContentPart{llms.BinaryPart("application/pdf", make([]byte, 300))}, o + 100},
		{"binary empty", []llms.ContentPart{llms.BinaryPart("application/octet-stream", nil)}, o},
		{"nil binary pointer", []llms.ContentPart{(*llms.BinaryContent)(nil)}, o},
		{"cached text", []llms.ContentPart{llms.WithCacheControl(llms.TextPart("hello"), &llms.CacheControl{Type: "ephemeral"})}, o + 5},
		{"cached nil", []llms.ContentPart{llms.CachedContent{}}, o},
		{"nil cached pointer", []llms.ContentPart{(*llms.CachedContent)(nil)}, o},
		{"unknown part", []llms.ContentPart{otherPart{llms.TextContent{Text: "custom"}}}, o + 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: tt.parts}
			assert.Equal(t, tt.want, c.CountMessage(m))
			assert.Equal(t, tt.want, c.CountMessage(m), "second call (cached)")
		})
	}
}

func TestUnknownPartUsesSprint(t *testing.T) {
	p := otherPart{llms.TextContent{Text: "some custom text"}}
	c, err := NewEncodingCounter(EncodingO200k)
	require.NoError(t, err)
	m := llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{p}}
	assert.Equal(t, MessageOverhead+c.Count(fmt.Sprint(p)), c.CountMessage(m))
}

func TestBinaryTokens(t *testing.T) {
	for n, want := range map[int]int{-1: 0, 0: 0, 1: 1, 3: 1, 4: 2, 300: 100, 301: 101} {
		assert.Equal(t, want, BinaryTokens(n), "n=%d", n)
	}
}

func TestCountMessages(t *testing.T) {
	c := NewMessageCounter(lenCounter)
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "sys"),
		llms.TextParts(llms.ChatMessageTypeHuman, "hello"),
	}
	snapshot := fmt.Sprintf("%#v", msgs)
	assert.Equal(t, 2*MessageOverhead+3+5+ReplyPriming, c.CountMessages(msgs))
	assert.Equal(t, snapshot, fmt.Sprintf("%#v", msgs), "msgs must not be modified")
	assert.Zero(t, c.CountMessages(nil))
	assert.Zero(t, c.CountMessages([]llms.MessageContent{}))
}

func TestCountMessageExact(t *testing.T) {
	c, err := NewCounter("gpt-4o")
	require.NoError(t, err)
	m := llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
		llms.TextPart("hello world"),
		llms.ToolCall{ID: "call_1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "bash", Arguments: `{"command":"ls"}`}},
	}}
	want := MessageOverhead + 2 + ToolCallOverhead + c.Count("call_1") + c.Count("bash") + c.Count(`{"command":"ls"}`)
	assert.Equal(t, want, c.CountMessage(m))
}

// TestCacheHitSkipsCounting checks that a repeated message is answered from
// the cache, and that every content change is a miss.
func TestCacheHitSkipsCounting(t *testing.T) {
	var calls atomic.Int64
	counting := CounterFunc(func(s string) int { calls.Add(1); return len(s) })
	c := NewMessageCounter(counting)
	m := llms.TextParts(llms.ChatMessageTypeHuman, "hello")
	c.CountMessage(m)
	require.Equal(t, int64(1), calls.Load())
	c.CountMessage(llms.TextParts(llms.ChatMessageTypeHuman, "hello")) // equal content, new value
	assert.Equal(t, int64(1), calls.Load(), "equal content must hit")

	variants := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeAI, "hello"),
		llms.TextParts(llms.ChatMessageTypeHuman, "hellO"),
		llms.TextParts(llms.ChatMessageTypeHuman, "hel", "lo"),
		{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.ToolCallResponse{Content: "hello"}}},
		{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.TextPart("hello"), nil}},
	}
	for i, v := range variants {
		before := calls.Load()
		c.CountMessage(v)
		assert.Greater(t, calls.Load(), before, "variant %d must miss", i)
	}

	uncached := NewMessageCounter(counting, WithCacheSize(0))
	before := calls.Load()
	uncached.CountMessage(m)
	uncached.CountMessage(m)
	assert.Equal(t, before+2, calls.Load(), "without a cache every call counts")
}

func TestHashDistinguishesParts(t *testing.T) {
	c := NewMessageCounter(lenCounter)
	call := func(id, name, args string) llms.ContentPart {
		return llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: name, Arguments: args}}
	}
	msgs := [][]llms.ContentPart{
		{llms.TextPart("ab")},
		{llms.TextPart("a"), llms.TextPart("b")},
		{llms.ToolCallResponse{Content: "ab"}},
		{llms.ToolCallResponse{Name: "ab"}},
		{llms.ToolCallResponse{ToolCallID: "ab"}},
		{call("a", "b", "")},
		{call("", "a", "b")},
		{call("ab", "", "")},
		{llms.ToolCall{ID: "ab"}},
		{llms.ImageURLPart("ab")},
		{llms.ImageURLWithDetailPart("a", "b")},
		{llms.BinaryPart("ab", nil)},
		{llms.BinaryPart("", []byte("ab"))},
		{llms.WithCacheControl(llms.TextPart("ab"), nil)},
		{otherPart{llms.TextContent{Text: "ab"}}},
		{nil},
		{},
	}
	seen := map[msgKey]int{}
	for i, parts := range msgs {
		k := c.hashMessage(llms.MessageContent{Role: "x", Parts: parts})
		if j, dup := seen[k]; dup {
			t.Errorf("messages %d and %d hash equal", j, i)
		}
		seen[k] = i
	}
	// Pointer and value forms of the same part have the same content.
	assert.Equal(t,
		c.hashMessage(llms.MessageContent{Parts: []llms.ContentPart{llms.TextPart("ab")}}),
		c.hashMessage(llms.MessageContent{Parts: []llms.ContentPart{&llms.TextContent{Text: "ab"}}}))
}

func TestMessageTokens(t *testing.T) {
	for _, overhead := range []int{MessageOverhead, 0, 7} {
		c, err := NewCounter("gpt-4o", WithMessageOverhead(overhead))
		require.NoError(t, err)
		assert.Equal(t, overhead, c.MessageTokens())
		assert.Equal(t, c.MessageTokens(), c.CountMessage(llms.TextParts(llms.ChatMessageTypeSystem, "")))
	}
}

// TestCountCachesText checks that Count answers a repeated text of 32
// bytes or more from the cache, counts shorter ones every time, and that
// a message's parts do not enter the cache beside the message.
func TestCountCachesText(t *testing.T) {
	var calls atomic.Int64
	c := NewMessageCounter(CounterFunc(func(s string) int { calls.Add(1); return len(s) }))
	long := strings.Repeat("a fact the summary keeps ", 2)
	assert.Equal(t, len(long), c.Count(long))
	assert.Equal(t, len(long), c.Count(long))
	assert.Equal(t, int64(1), calls.Load(), "a repeated long text must hit")
	c.Count("short")
	c.Count("short")
	assert.Equal(t, int64(3), calls.Load(), "short texts are not cached")
	n := c.cache.len()
	c.CountMessage(llms.TextParts(llms.ChatMessageTypeHuman, long+"!"))
	assert.Equal(t, n+1, c.cache.len(), "the message only")
	assert.Equal(t, int64(4), calls.Load())
	c.CountMessage(llms.TextParts(llms.ChatMessageTypeHuman, long))
	assert.Equal(t, int64(5), calls.Load(), "a message is counted on its own key, not its text's")
}

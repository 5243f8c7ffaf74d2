package budget

import (
	"fmt"
	"hash/maphash"

	"github.com/agentcompact/compact/internal/idtext"
)

// Counter counts the tokens of a text. Implementations must be safe for
// concurrent use and must return 0 or more for every input, including
// invalid UTF-8.
type Counter interface {
	Count(text string) int
}

// CounterFunc adapts an ordinary function to the Counter interface.
type CounterFunc func(text string) int

// Count calls f(text). A nil CounterFunc counts 0.
func (f CounterFunc) Count(text string) int {
	if f == nil {
		return 0
	}
	return f(text)
}

// Per-message constants of the OpenAI chat format, used for every encoding.
const (
	// MessageOverhead is the number of tokens added per message for the
	// chat framing: "<|start|>", the role, a separator and "<|end|>" (OpenAI
	// counts 3 framing tokens plus the role name, which is one token).
	MessageOverhead = 4
	// ReplyPriming is the number of tokens added once per request for the
	// "<|start|>assistant<|message|>" that primes the reply.
	ReplyPriming = 3
	// ToolCallOverhead is the number of tokens added per tool call and per
	// tool result part, on top of its id, name and content, for the JSON
	// framing the provider wraps around them.
	ToolCallOverhead = 3
)

// DefaultCacheSize is the default number of counts, of messages and of
// texts of 32 bytes or more, a TokenCounter remembers (see WithCacheSize).
const DefaultCacheSize = 16_384

// counterOptions holds what the Option functions set.
type counterOptions struct {
	cacheSize       int
	messageOverhead int
}

// Option configures a TokenCounter.
type Option func(*counterOptions)

// WithCacheSize sets how many counts the TokenCounter caches, of messages
// (CountMessage) and of texts of 32 bytes or more (Count); default
// DefaultCacheSize. The cache never holds more than n entries
// (evicting the least recently used generation first); n <= 0 disables it.
func WithCacheSize(n int) Option {
	return func(o *counterOptions) { o.cacheSize = n }
}

// WithMessageOverhead sets the tokens added per message (default
// MessageOverhead). Negative values are treated as 0.
func WithMessageOverhead(n int) Option {
	return func(o *counterOptions) { o.messageOverhead = max(n, 0) }
}

// TokenCounter counts the tokens of texts and of langchaingo messages. It
// adds MessageOverhead per message and ReplyPriming per request, and caches
// each message's count by a hash of its content (role and all parts), so
// counting a growing conversation again costs one hash per message; and
// the count of each text of 32 bytes or more, by a hash of the text.
//
// A TokenCounter is safe for concurrent use. Its methods never panic; a nil
// or zero TokenCounter counts with EstimateTokens and caches nothing.
type TokenCounter struct {
	text     Counter
	encoding string
	exact    bool
	overhead int
	seed     maphash.Seed
	cache    *msgCache
}

func newTokenCounter(text Counter, encoding string, exact bool, opts []Option) *TokenCounter {
	o := counterOptions{cacheSize: DefaultCacheSize, messageOverhead: MessageOverhead}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return &TokenCounter{
		text:     text,
		encoding: encoding,
		exact:    exact,
		overhead: o.messageOverhead,
		seed:     maphash.MakeSeed(),
		cache:    newMsgCache(o.cacheSize),
	}
}

// NewCounter returns a TokenCounter for model: the exact tiktoken encoding
// for OpenAI models and the conservative estimate (EstimateTokens) for
// models without a public tokenizer and unknown models; see
// EncodingForModel. Encodings load from data embedded in the binary, once
// per process, without network access. The error is non-nil only if an
// embedded encoding fails to load.
func NewCounter(model string, opts ...Option) (*TokenCounter, error) {
	c, err := NewEncodingCounter(EncodingForModel(model), opts...)
	if err != nil {
		return nil, fmt.Errorf("budget: counter for model %s: %w", idtext.Quote(model), err)
	}
	return c, nil
}

// NewEncodingCounter returns a TokenCounter for the named encoding:
// EncodingO200k ("o200k_base"), EncodingCL100k ("cl100k_base") or
// EncodingEstimate ("estimate"). Any other name is an error.
func NewEncodingCounter(encoding string, opts ...Option) (*TokenCounter, error) {
	if encoding == EncodingEstimate {
		return newTokenCounter(CounterFunc(EstimateTokens), EncodingEstimate, false, opts), nil
	}
	enc, err := loadEncoder(encoding)
	if err != nil {
		return nil, fmt.Errorf("budget: load encoding %s: %w", idtext.Quote(encoding), err)
	}
	return newTokenCounter(CounterFunc(enc.count), enc.name, true, opts), nil
}

// NewMessageCounter wraps any Counter (for example the caller's own
// tokenizer) with the per-message overhead and the message cache. c must be
// safe for concurrent use if the TokenCounter is used concurrently. The
// result reports Encoding "custom" and Exact false; when c is itself a
// *TokenCounter its text counting, encoding and exactness are reused. A nil
// c counts with EstimateTokens.
func NewMessageCounter(c Counter, opts ...Option) *TokenCounter {
	switch t := c.(type) {
	case nil:
		return newTokenCounter(CounterFunc(EstimateTokens), EncodingEstimate, false, opts)
	case *TokenCounter:
		if t == nil {
			return newTokenCounter(CounterFunc(EstimateTokens), EncodingEstimate, false, opts)
		}
		return newTokenCounter(t.text, t.encoding, t.exact, opts)
	}
	return newTokenCounter(c, EncodingCustom, false, opts)
}

// Count returns the number of tokens of text, without any message overhead.
// Special-token strings such as "<|endoftext|>" count as ordinary text.
// Texts of 32 bytes or more are cached as messages are (CountMessage), in
// the same bounded cache: a summary's lines, counted again at every
// compaction that folds them in, cost one hash after the first time.
func (c *TokenCounter) Count(text string) int {
	if c == nil || c.cache == nil || len(text) < minCachedText {
		return c.countText(text)
	}
	return c.cached(c.hashText(text), func() int { return c.countText(text) })
}

// countText is Count without the cache: a message's parts are counted
// through it, the message being cached whole.
func (c *TokenCounter) countText(text string) int {
	if text == "" {
		return 0
	}
	if c == nil || c.text == nil {
		return EstimateTokens(text)
	}
	return max(c.text.Count(text), 0)
}

// minCachedText is the shortest text Count caches: shorter ones count
// about as fast as they hash.
const minCachedText = 32

// Encoding returns the name of the encoding counting the text:
// "o200k_base", "cl100k_base", "estimate", or "custom" for a counter built
// by NewMessageCounter around a caller's Counter.
func (c *TokenCounter) Encoding() string {
	if c == nil || c.text == nil {
		return EncodingEstimate
	}
	return c.encoding
}

// Exact reports whether text is counted by a real tokenizer (o200k_base or
// cl100k_base) rather than an estimate or a caller's Counter.
func (c *TokenCounter) Exact() bool {
	return c != nil && c.exact
}

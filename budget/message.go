package budget

import (
	"fmt"
	"hash/maphash"
	"math"
	"strings"

	"github.com/tmc/langchaingo/llms"
)

// Image and binary estimates. Providers bill images by their pixels, which
// a message does not carry (an ImageURLContent holds a URL), so images get a
// fixed documented estimate.
const (
	// ImageTokens is counted for each image part (ImageURLContent, or a
	// BinaryContent with an image/* MIME type) unless its detail is "low":
	// 765 tokens is what OpenAI bills a 1024x1024 image at high detail
	// (85 base + 170 per 512-pixel tile, 4 tiles). Anthropic bills about
	// width*height/750, 1,398 tokens for 1024x1024 but at most ~1,600 per
	// image after its own downscaling, so for Claude this undercounts large
	// images.
	ImageTokens = 765
	// LowDetailImageTokens is counted for an ImageURLContent whose Detail is
	// "low": OpenAI's fixed price of a low-detail image.
	LowDetailImageTokens = 85
)

// BinaryTokens returns the estimate counted for a BinaryContent part of n
// bytes whose MIME type is neither an image nor text: ceil(n/3) tokens, one
// token per 3 bytes. Providers that accept such parts (PDF, audio) send them
// base64-encoded (4 characters per 3 bytes) or bill them by their extracted
// content; base64 text costs about one o200k token per 2.5-3 characters, so
// n/3 tokens does not undercount the base64 form of random data by more
// than a few percent and overcounts the extracted text of a typical PDF.
func BinaryTokens(n int) int {
	if n <= 0 {
		return 0
	}
	return (n + 2) / 3
}

// CountMessage returns the tokens of one message: MessageOverhead plus
// its parts. Text counts its text; a tool call ToolCallOverhead plus its
// id, function name and JSON arguments; a tool result ToolCallOverhead plus
// its call id, name and content; an image ImageTokens (LowDetailImageTokens
// at detail "low"); a binary part ImageTokens for image/* MIME types, its
// data counted as text for textual MIME types (text/*, JSON, XML, YAML),
// BinaryTokens otherwise. A CachedContent counts its wrapped part; pointer
// parts count as their value; nil parts count 0; any other part type counts
// the text of fmt.Sprint(part).
//
// The result is cached by a hash of the role and all parts, so counting the
// same message again costs one hash and one map lookup. It never panics.
func (c *TokenCounter) CountMessage(m llms.MessageContent) int {
	if c == nil || c.cache == nil {
		return c.countMessage(m)
	}
	return c.cached(c.hashMessage(m), func() int { return c.countMessage(m) })
}

// cached returns the count the cache holds under k, else count's, which
// it caches. Requires c.cache.
func (c *TokenCounter) cached(k msgKey, count func() int) int {
	if n, ok := c.cache.get(k); ok {
		return n
	}
	n := count()
	c.cache.put(k, n)
	return n
}

// CountMessages returns the tokens of a request made of msgs: the sum of
// CountMessage over msgs plus ReplyPriming, or 0 for an empty slice. It does
// not modify msgs.
func (c *TokenCounter) CountMessages(msgs []llms.MessageContent) int {
	if len(msgs) == 0 {
		return 0
	}
	total := ReplyPriming
	for _, m := range msgs {
		total += c.CountMessage(m)
	}
	return total
}

// MessageTokens returns the tokens every message adds to its parts (its
// role and framing): MessageOverhead unless the counter was built with
// another (WithMessageOverhead). CountMessage of a message with one empty
// text part returns exactly this.
func (c *TokenCounter) MessageTokens() int { return c.messageOverhead() }

func (c *TokenCounter) messageOverhead() int {
	if c == nil {
		return MessageOverhead
	}
	return c.overhead
}

func (c *TokenCounter) countMessage(m llms.MessageContent) int {
	n := c.messageOverhead()
	for _, p := range m.Parts {
		n += c.countPart(p)
	}
	return n
}

func (c *TokenCounter) countPart(p llms.ContentPart) int {
	switch v := p.(type) {
	case nil:
		return 0
	case llms.TextContent:
		return c.countText(v.Text)
	case *llms.TextContent:
		if v == nil {
			return 0
		}
		return c.countText(v.Text)
	case llms.ToolCall:
		return c.countToolCall(v)
	case *llms.ToolCall:
		if v == nil {
			return 0
		}
		return c.countToolCall(*v)
	case llms.ToolCallResponse:
		return c.countToolResponse(v)
	case *llms.ToolCallResponse:
		if v == nil {
			return 0
		}
		return c.countToolResponse(*v)
	case llms.ImageURLContent:
		return imageTokens(v.Detail)
	case *llms.ImageURLContent:
		if v == nil {
			return 0
		}
		return imageTokens(v.Detail)
	case llms.BinaryContent:
		return c.countBinary(v)
	case *llms.BinaryContent:
		if v == nil {
			return 0
		}
		return c.countBinary(*v)
	case llms.CachedContent:
		return c.countPart(v.ContentPart)
	case *llms.CachedContent:
		if v == nil {
			return 0
		}
		return c.countPart(v.ContentPart)
	default:
		return c.countText(fmt.Sprint(p))
	}
}

func (c *TokenCounter) countToolCall(t llms.ToolCall) int {
	n := ToolCallOverhead + c.countText(t.ID)
	if t.FunctionCall != nil {
		n += c.countText(t.FunctionCall.Name) + c.countText(t.FunctionCall.Arguments)
	}
	return n
}

func (c *TokenCounter) countToolResponse(r llms.ToolCallResponse) int {
	return ToolCallOverhead + c.countText(r.ToolCallID) + c.countText(r.Name) + c.countText(r.Content)
}

func (c *TokenCounter) countBinary(b llms.BinaryContent) int {
	mime := strings.ToLower(strings.TrimSpace(b.MIMEType))
	switch {
	case strings.HasPrefix(mime, "image/"):
		return ImageTokens
	case isTextMIME(mime):
		return c.countText(string(b.Data))
	default:
		return BinaryTokens(len(b.Data))
	}
}

func imageTokens(detail string) int {
	if strings.EqualFold(strings.TrimSpace(detail), "low") {
		return LowDetailImageTokens
	}
	return ImageTokens
}

// isTextMIME reports whether a lowercased MIME type carries text.
func isTextMIME(mime string) bool {
	if i := strings.IndexByte(mime, ';'); i >= 0 {
		mime = strings.TrimSpace(mime[:i])
	}
	switch {
	case strings.HasPrefix(mime, "text/"):
		return true
	case strings.HasSuffix(mime, "+json"), strings.HasSuffix(mime, "+xml"):
		return true
	}
	switch mime {
	case "application/json", "application/xml", "application/yaml",
		"application/x-yaml", "application/javascript", "application/x-ndjson":
		return true
	}
	return false
}

// msgKey identifies a message's content in the cache: a 64-bit seeded hash
// plus the total content length as a cheap collision guard.
type msgKey struct {
	hash uint64
	size uint64
}

// Part tags written into the hash so that different part types with equal
// strings hash differently.
const (
	tagText byte = iota + 1
	tagImage
	tagBinary
	tagToolCall
	tagToolResponse
	tagCached
	tagOther
	tagNil
)

// hasher feeds length-prefixed fields into a maphash.Hash.
type hasher struct {
	h    maphash.Hash
	size uint64
}

func (h *hasher) tag(t byte) { _ = h.h.WriteByte(t) }

func (h *hasher) str(s string) {
	h.num(uint64(len(s)))
	_, _ = h.h.WriteString(s)
	h.size += uint64(len(s))
}

func (h *hasher) num(n uint64) {
	var b [8]byte
	for i := range b {
		b[i] = byte(n >> (8 * i))
	}
	_, _ = h.h.Write(b[:])
}

// hashMessage hashes the role and every part of m with the counter's seed.
func (c *TokenCounter) hashMessage(m llms.MessageContent) msgKey {
	var h hasher
	h.h.SetSeed(c.seed)
	h.str(string(m.Role))
	h.num(uint64(len(m.Parts)))
	for _, p := range m.Parts {
		h.part(p)
	}
	return msgKey{hash: h.h.Sum64(), size: h.size}
}

// hashText hashes a text Count caches, in a domain of its own: a
// message's hash starts with its role's length, never 2^64-1.
func (c *TokenCounter) hashText(s string) msgKey {
	var h hasher
	h.h.SetSeed(c.seed)
	h.num(math.MaxUint64)
	h.str(s)
	return msgKey{hash: h.h.Sum64(), size: h.size}
}

func (h *hasher) part(p llms.ContentPart) {
	switch v := p.(type) {
	case nil:
		h.tag(tagNil)
	case llms.TextContent:
		h.tag(tagText)
		h.str(v.Text)
	case *llms.TextContent:
		if v == nil {
			h.tag(tagNil)
			return
		}
		h.part(*v)
	case llms.ToolCall:
		h.tag(tagToolCall)
		h.str(v.ID)
		h.str(v.Type)
		if v.FunctionCall != nil {
			h.tag(1)
			h.str(v.FunctionCall.Name)
			h.str(v.FunctionCall.Arguments)
		} else {
			h.tag(0)
		}
	case *llms.ToolCall:
		if v == nil {
			h.tag(tagNil)
			return
		}
		h.part(*v)
	case llms.ToolCallResponse:
		h.tag(tagToolResponse)
		h.str(v.ToolCallID)
		h.str(v.Name)
		h.str(v.Content)
	case *llms.ToolCallResponse:
		if v == nil {
			h.tag(tagNil)
			return
		}
		h.part(*v)
	case llms.ImageURLContent:
		h.tag(tagImage)
		h.str(v.URL)
		h.str(v.Detail)
	case *llms.ImageURLContent:
		if v == nil {
			h.tag(tagNil)
			return
		}
		h.part(*v)
	case llms.BinaryContent:
		h.tag(tagBinary)
		h.str(v.MIMEType)
		h.num(uint64(len(v.Data)))
		_, _ = h.h.Write(v.Data)
		h.size += uint64(len(v.Data))
	case *llms.BinaryContent:
		if v == nil {
			h.tag(tagNil)
			return
		}
		h.part(*v)
	case llms.CachedContent:
		h.tag(tagCached)
		h.part(v.ContentPart)
	case *llms.CachedContent:
		if v == nil {
			h.tag(tagNil)
			return
		}
		h.part(*v)
	default:
		h.tag(tagOther)
		h.str(fmt.Sprintf("%T", p))
		h.str(fmt.Sprint(p))
	}
}

// Package usage reads the token usage a langchaingo provider reports in the
// GenerationInfo of a response. It is shared by the middleware (prompt
// tokens, for calibration) and the LLM summarizer (prompt and reply tokens
// of each call). It imports nothing of the module.
package usage

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/tmc/langchaingo/llms"
)

// PromptTokens returns the prompt tokens the provider reported in the
// GenerationInfo of resp's first choice that has one, and whether it
// reported any. The providers of langchaingo v0.1.14 use different keys:
//
//   - "PromptTokens": openai, ollama, googleai (cached tokens included), maritaca;
//   - "InputTokens" plus "CacheCreationInputTokens" and "CacheReadInputTokens":
//     anthropic, whose input tokens exclude the cached ones;
//   - "input_tokens": bedrock; "prompt_tokens": raw OpenAI-style usage maps.
//
// Values of any integer or float type, json.Number or decimal strings are
// accepted; zero and negative counts are "not reported". Providers that
// report no usage (mistral keeps a struct under "usage", fake models
// nothing) yield false.
func PromptTokens(resp *llms.ContentResponse) (int, bool) {
	gi := info(resp)
	if gi == nil {
		return 0, false
	}
	if n, ok := number(gi["PromptTokens"]); ok && n > 0 {
		return n, true
	}
	if n, ok := number(gi["InputTokens"]); ok && n > 0 {
		c1, _ := number(gi["CacheCreationInputTokens"])
		c2, _ := number(gi["CacheReadInputTokens"])
		return n + max(c1, 0) + max(c2, 0), true
	}
	return first(gi, "input_tokens", "prompt_tokens")
}

// CompletionTokens returns the reply tokens the provider reported in the
// GenerationInfo of resp's first choice that has one, and whether it
// reported any: "CompletionTokens" (openai, ollama, googleai, maritaca), "OutputTokens"
// (anthropic), "output_tokens" (bedrock, googleai) or "completion_tokens"
// (raw OpenAI-style usage maps). Values are read as by [PromptTokens].
func CompletionTokens(resp *llms.ContentResponse) (int, bool) {
	gi := info(resp)
	if gi == nil {
		return 0, false
	}
	return first(gi, "CompletionTokens", "OutputTokens", "output_tokens", "completion_tokens")
}

// info returns the first GenerationInfo of resp's choices, or nil.
func info(resp *llms.ContentResponse) map[string]any {
	if resp == nil {
		return nil
	}
	for _, ch := range resp.Choices {
		if ch != nil && ch.GenerationInfo != nil {
			return ch.GenerationInfo
		}
	}
	return nil
}

// first returns the first positive count under keys.
func first(gi map[string]any, keys ...string) (int, bool) {
	for _, k := range keys {
		if n, ok := number(gi[k]); ok && n > 0 {
			return n, true
		}
	}
	return 0, false
}

func number(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case int8:
		return int(x), true
	case int16:
		return int(x), true
	case int32:
		return int(x), true
	case int64:
		return clampInt64(x), true
	case uint:
		return clampUint64(uint64(x)), true
	case uint8:
		return int(x), true
	case uint16:
		return int(x), true
	case uint32:
		return clampUint64(uint64(x)), true
	case uint64:
		return clampUint64(x), true
	case float32:
		return floatInt(float64(x))
	case float64:
		return floatInt(x)
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return clampInt64(n), true
		}
		if f, err := x.Float64(); err == nil {
			return floatInt(f)
		}
	case string:
		if n, err := strconv.Atoi(x); err == nil {
			return n, true
		}
	}
	return 0, false
}

func clampInt64(x int64) int {
	if x > math.MaxInt32 {
		return math.MaxInt32
	}
	if x < math.MinInt32 {
		return math.MinInt32
	}
	return int(x)
}

func clampUint64(x uint64) int {
	if x > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(x)
}

func floatInt(f float64) (int, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return clampInt64(int64(math.Max(math.Min(f, math.MaxInt32), math.MinInt32))), true
}

package middleware

import (
	"encoding/json"
	"math"
	"strconv"
	"sync"

	"github.com/agentcompact/compact"
	"github.com/tmc/langchaingo/llms"
)

// PromptTokens returns the prompt tokens the provider reported in the
// GenerationInfo of resp's first choice, and whether it reported any. The
// providers of langchaingo v0.1.14 use different keys:
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
	if resp == nil {
		return 0, false
	}
	for _, ch := range resp.Choices {
		if ch == nil || ch.GenerationInfo == nil {
			continue
		}
		gi := ch.GenerationInfo
		if n, ok := number(gi["PromptTokens"]); ok && n > 0 {
			return n, true
		}
		if n, ok := number(gi["InputTokens"]); ok && n > 0 {
			c1, _ := number(gi["CacheCreationInputTokens"])
			c2, _ := number(gi["CacheReadInputTokens"])
			return n + max(c1, 0) + max(c2, 0), true
		}
		for _, k := range []string{"input_tokens", "prompt_tokens"} {
			if n, ok := number(gi[k]); ok && n > 0 {
				return n, true
			}
		}
		return 0, false
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

// calibrationFactor returns the factor by which the engine's budget must
// shrink so that the provider's count of the next prompt fits: the provider
// counted provider tokens for a prompt whose messages the engine counted as
// counted tokens, plus tool definitions the engine counts as tools tokens
// but does not see in the messages. With the tokenizer ratio
// r = (provider - tools) / counted, a prompt of T engine tokens costs about
// r*(T + tools) provider tokens, so it fits the budget B when
// T <= B/r - tools, a factor f = B*r / (B - r*tools). It returns false when
// the figures say nothing (too small, or tools alone exceed the report).
func calibrationFactor(provider, counted, tools, budget int) (float64, bool) {
	if provider <= 0 || counted < MinCalibrationTokens || budget <= 0 {
		return 0, false
	}
	rest := provider - tools
	if rest <= 0 {
		return 0, false
	}
	r := float64(rest) / float64(counted)
	room := float64(budget) - r*float64(tools)
	if room <= 0 {
		return compact.MaxCalibration, true
	}
	return min(compact.MaxCalibration, float64(budget)*r/room), true
}

// toolCounter counts the tokens of the tool and function definitions of a
// call, memoized by their JSON (agents send the same definitions on every
// iteration).
type toolCounter struct {
	mu sync.Mutex
	m  map[string]int
}

const toolCounterMax = 256

func (tc *toolCounter) count(c *compact.Compactor, o *llms.CallOptions) int {
	if len(o.Tools) == 0 && len(o.Functions) == 0 {
		return 0
	}
	b, err := json.Marshal(struct {
		T []llms.Tool               `json:"t,omitempty"`
		F []llms.FunctionDefinition `json:"f,omitempty"`
	}{o.Tools, o.Functions})
	if err != nil {
		return 0
	}
	key := string(b)
	tc.mu.Lock()
	n, ok := tc.m[key]
	tc.mu.Unlock()
	if ok {
		return n
	}
	n = c.Counter().Count(key)
	tc.mu.Lock()
	if tc.m == nil || len(tc.m) >= toolCounterMax {
		tc.m = make(map[string]int)
	}
	tc.m[key] = n
	tc.mu.Unlock()
	return n
}

package middleware

import (
	"encoding/json"
	"sync"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/usage"
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
func PromptTokens(resp *llms.ContentResponse) (int, bool) { return usage.PromptTokens(resp) }

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

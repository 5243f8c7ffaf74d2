package main

import (
	"fmt"
	"math"
)

// Prompt caching as providers bill it. The replay records, per call, the
// tokens sent and the tokens of its leading messages shared with the
// previous call's (callRecord.cached): the prefix a provider's cache can
// serve.
const (
	// openAIMinCached is the shortest prompt OpenAI caches automatically;
	// cached tokens are counted in openAICacheStep increments.
	openAIMinCached = 1024
	openAICacheStep = 128
	// openAICachedFraction is the price of a cached input token as a
	// fraction of the input price in the report's OpenAI-style column.
	openAICachedFraction = 0.10
	// Anthropic-style prompt caching: a cache breakpoint at the end of
	// every request writes its prompt to the cache at 1.25x the input
	// price; the next request reads the prefix it shares at 0.1x. Prompts
	// under anthropicMinCached tokens are not cached.
	anthropicWrite     = 1.25
	anthropicRead      = 0.10
	anthropicMinCached = 1024
)

// openAICached is the part of a call's prompt an OpenAI-style automatic
// prefix cache bills as cached: the shared prefix, in whole 128-token
// steps, when the prompt is at least 1,024 tokens.
func openAICached(sent, shared int) int {
	if sent < openAIMinCached || shared < openAIMinCached {
		return 0
	}
	return min(shared, sent) / openAICacheStep * openAICacheStep
}

// openAICallCost is the input cost of one agent call, OpenAI-style, in
// dollars.
func openAICallCost(c callRecord, p prices) float64 {
	cached := openAICached(c.sent, c.cached)
	return (float64(c.sent-cached) + openAICachedFraction*float64(cached)) * p.input / 1e6
}

// anthropicCallCost is the input cost of one agent call with a cache
// breakpoint at the end of every request, Anthropic-style, in dollars:
// the prefix shared with the previous request is read from the cache, the
// rest is written to it.
func anthropicCallCost(c callRecord, p prices) float64 {
	if c.sent < anthropicMinCached {
		return float64(c.sent) * p.input / 1e6
	}
	read := min(c.cached, c.sent)
	if read < anthropicMinCached {
		read = 0
	}
	return (anthropicRead*float64(read) + anthropicWrite*float64(c.sent-read)) * p.input / 1e6
}

// summarizerCost is what a row's summarizer calls cost: their replies at
// the output price, their prompts at the input price except the tokens a
// prefix cache serves (sumCached: the agent's own last request repeated by
// a cache-safe summarizer request), billed at cachedFraction.
func summarizerCost(sumIn, sumCached, sumOut int64, cachedFraction float64, p prices) float64 {
	in := float64(sumIn-sumCached) + cachedFraction*float64(sumCached)
	return (in*p.input + float64(sumOut)*p.output) / 1e6
}

// tableCost returns the header and rows of the provider-style cost table
// of one window: each strategy's cost with OpenAI-style and
// Anthropic-style prompt caching, as a fraction of no compaction and of
// oldest-first, beside its mean retention.
func tableCost(rows []row, w int) ([]string, [][]string) {
	head := []string{"strategy", "OpenAI-style (cached at 10%)", "vs none", "vs oldest-first",
		"Anthropic-style (write 1.25x, read 0.1x)", "vs none", "vs oldest-first", "mean retention", "min category", "prefix-stable"}
	none, _ := findRow(rows, w, stratNone)
	oldest, _ := findRow(rows, w, stratOldest)
	ratio := func(a, b float64) string {
		if b <= 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.2f", a/b)
	}
	var out [][]string
	for _, r := range rows {
		if r.window != w {
			continue
		}
		out = append(out, []string{r.strategy,
			dollars(r.costOpenAI), ratio(r.costOpenAI, none.costOpenAI), ratio(r.costOpenAI, oldest.costOpenAI),
			dollars(r.costAnthropic), ratio(r.costAnthropic, none.costAnthropic), ratio(r.costAnthropic, oldest.costAnthropic),
			pct(r.meanRetention()), pct(r.minRetention()), pct(r.stableShare())})
	}
	return head, out
}

// minRetention is the lowest category retention that is defined.
func (r row) minRetention() float64 {
	m := math.NaN()
	for _, v := range r.retention {
		if !math.IsNaN(v) && (math.IsNaN(m) || v < m) {
			m = v
		}
	}
	return m
}

// pricingMethod explains the pricing models in the report.
const pricingMethod = "Prompt caching is priced two ways, as providers bill it (`pricing.go`). **OpenAI-style**: the prefix a call shares with the previous call (whole leading messages) is served from an automatic cache at 10% of the input price, counted in 128-token steps and only for prompts of at least 1,024 tokens. **Anthropic-style**: a cache breakpoint at the end of every request: what the previous request wrote is read at 0.1x, the rest of the prompt is written at 1.25x; prompts under 1,024 tokens are not cached. Summarizer calls are billed too: their replies at the output price, their prompts at the input price, except the part that repeats the agent's own last request (a cache-safe summarizer request), billed as cached. The simple columns above (\"cached at 10/25/50%\") bill the shared prefix at that fraction with no minimum, steps or writes.\n\n"

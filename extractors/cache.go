package extractors

import (
	"hash/maphash"
	"maps"
	"slices"
	"sync"
)

// resultCacheSize bounds the extraction results a Registry remembers: two
// generations of up to this many entries each.
const resultCacheSize = 4096

// resultCache remembers recent extraction results, so that the engine's
// masking, its rule-based digest and the LLM summarizer's transcript do not
// run the same extractor on the same output two or three times. It is keyed
// by a hash of the tool name, arguments and output; safe for concurrent use.
type resultCache struct {
	mu       sync.Mutex
	seed     maphash.Seed
	cur, old map[resultKey]ToolSummary
}

type resultKey struct {
	h    uint64
	size int
}

func newResultCache() *resultCache {
	return &resultCache{seed: maphash.MakeSeed()}
}

func (c *resultCache) key(call Call, output string) resultKey {
	var h maphash.Hash
	h.SetSeed(c.seed)
	h.WriteString(call.Name)
	h.WriteByte(0)
	h.WriteString(call.Arguments)
	h.WriteByte(0)
	h.WriteString(output)
	return resultKey{h: h.Sum64(), size: len(call.Name) + len(call.Arguments) + len(output)}
}

func (c *resultCache) get(k resultKey) (ToolSummary, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.cur[k]
	if !ok {
		if s, ok = c.old[k]; ok {
			c.putLocked(k, s)
		}
	}
	if !ok {
		return ToolSummary{}, false
	}
	return cloneSummary(s), true
}

func (c *resultCache) put(k resultKey, s ToolSummary) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(k, cloneSummary(s))
}

func (c *resultCache) putLocked(k resultKey, s ToolSummary) {
	if c.cur == nil || len(c.cur) >= resultCacheSize {
		c.old, c.cur = c.cur, make(map[resultKey]ToolSummary, 64)
	}
	c.cur[k] = s
}

func (c *resultCache) reset() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cur, c.old = nil, nil
}

// cloneSummary copies the slice and map of s, so that callers may modify
// what they get.
func cloneSummary(s ToolSummary) ToolSummary {
	s.KeyFacts = slices.Clone(s.KeyFacts)
	s.Metadata = maps.Clone(s.Metadata)
	return s
}

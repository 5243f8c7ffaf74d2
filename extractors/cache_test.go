package extractors

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExtractCache(t *testing.T) {
	calls := 0
	r := NewRegistry()
	r.Register("count", Func(func(call Call, output string) ToolSummary {
		calls++
		return ToolSummary{Tool: call.Name, Status: StatusSuccess, KeyFacts: []string{"n=" + output}, Metadata: map[string]string{"k": "v"}}
	}))
	a := r.Extract(Call{Name: "count", Arguments: "{}"}, "1")
	b := r.Extract(Call{Name: "count", Arguments: "{}"}, "1")
	require.Equal(t, 1, calls, "the second extraction of the same output is cached")
	assert.Equal(t, a, b)
	b.KeyFacts[0], b.Metadata["k"] = "changed", "changed"
	c := r.Extract(Call{Name: "count", Arguments: "{}"}, "1")
	assert.Equal(t, a, c, "callers own what they get: changing it does not change the cache")
	r.Extract(Call{Name: "count", Arguments: `{"x":1}`}, "1")
	r.Extract(Call{Name: "count", Arguments: "{}"}, "2")
	assert.Equal(t, 3, calls, "other arguments or outputs are extracted")
	r.Register("count", Func(func(call Call, output string) ToolSummary {
		return ToolSummary{Tool: call.Name, KeyFacts: []string{"new"}}
	}))
	assert.Equal(t, []string{"new"}, r.Extract(Call{Name: "count", Arguments: "{}"}, "1").KeyFacts, "Register clears the cache")
	for i := 0; i < 3*resultCacheSize; i++ {
		r.Extract(Call{Name: "count"}, strings.Repeat("x", i%50)+string(rune('a'+i%26))+itoa(i))
	}
	r.results.mu.Lock()
	n := len(r.results.cur) + len(r.results.old)
	r.results.mu.Unlock()
	assert.LessOrEqual(t, n, 2*resultCacheSize, "bounded")
	var zero Registry
	zero.Register("x", Fallback()) // a zero Registry has no cache; no panic
}

package extractortest_test

import (
	"strings"
	"testing"

	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/extractors/extractortest"
	"github.com/stretchr/testify/assert"
)

func TestBuiltins(t *testing.T) {
	for _, fam := range extractors.BuiltinFamilies() {
		e, ok := extractors.Builtin(fam)
		assert.True(t, ok)
		t.Run(fam, func(t *testing.T) {
			extractortest.RunWith(t, e, extractortest.Options{Tools: []string{"tool", fam}, SkipHuge: testing.Short()})
		})
	}
}

func TestFallback(t *testing.T) {
	extractortest.RunWith(t, extractors.Fallback(), extractortest.Options{SkipHuge: testing.Short()})
}

func TestRegistry(t *testing.T) {
	// A Registry is an Extractor too; it redacts whatever its extractors do.
	reg := extractors.Default()
	reg.Register("leaky", extractors.Func(func(c extractors.Call, out string) extractors.ToolSummary {
		return extractors.ToolSummary{Tool: c.Name, KeyFacts: []string{out}}
	}))
	reg.Register("panicky", extractors.Func(func(extractors.Call, string) extractors.ToolSummary { panic("boom") }))
	extractortest.RunWith(t, reg, extractortest.Options{Tools: []string{"leaky", "panicky", "BASH", "unknown"}, SkipHuge: testing.Short()})
}

func TestCheckCatchesProblems(t *testing.T) {
	tests := []struct {
		name string
		s    extractors.ToolSummary
		want string
	}{
		{"secret", extractors.ToolSummary{KeyFacts: []string{"key " + extractortest.Secrets[0]}}, "not redacted"},
		{"status", extractors.ToolSummary{Status: "weird"}, "unknown status"},
		{"secret in metadata", extractors.ToolSummary{Metadata: map[string]string{"x": extractortest.Secrets[4]}}, "not redacted"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			probs := extractortest.Check(tc.s, true)
			assert.NotEmpty(t, probs)
			assert.Contains(t, strings.Join(probs, "\n"), tc.want)
		})
	}
	assert.Empty(t, extractortest.Check(extractors.ToolSummary{Tool: "x", KeyFacts: []string{"ok"}}, true))
}

func TestCasesCoverHostileInputs(t *testing.T) {
	cases := extractortest.Cases("bash")
	names := map[string]bool{}
	for _, c := range cases {
		names[c.Name] = true
	}
	for _, want := range []string{"bash/empty", "bash/binary", "bash/invalid-utf8", "bash/ten-mb", "bash/one-mb-line", "bash/args-invalid-json"} {
		assert.True(t, names[want], want)
	}
	for _, c := range cases {
		if c.Name == "bash/ten-mb" {
			assert.GreaterOrEqual(t, len(c.Output), 10<<20-64)
		}
	}
}

// A user's own business tool, unregistered: the default registry's generic
// JSON extractor keeps its identifiers; a sample's Keep catches a summary
// that drops one.
func TestSamples(t *testing.T) {
	order := extractortest.Sample{
		Name:   "get_order",
		Call:   extractors.Call{ID: "c1", Name: "get_order", Arguments: `{"order_id": "ord_8812"}`},
		Output: `{"order_id": "ord_8812", "customer_id": "cus_19", "status": "shipped", "tracking_number": "1Z999AA10123456784", "items": [` + strings.Repeat(`{"sku_code": "SKU-1", "qty": 2, "note": "gift wrap, leave at the door"}, `, 12) + `{"sku_code": "SKU-9", "qty": 1}]}`,
		Keep:   []string{"ord_8812", "cus_19", "shipped", "1Z999AA10123456784", "SKU-9"},
	}
	extractortest.RunWith(t, extractors.Default(), extractortest.Options{Tools: []string{"get_order"}, SkipHuge: testing.Short(), Samples: []extractortest.Sample{order}})

	headOnly := extractors.Func(func(c extractors.Call, out string) extractors.ToolSummary {
		return extractors.ToolSummary{Tool: c.Name, Status: extractors.StatusSuccess, KeyFacts: []string{out[:40]}}
	})
	probs := extractortest.CheckSample(order, headOnly.Extract(order.Call, order.Output), true)
	assert.Len(t, probs, 4, "a blind head cut drops the customer, the status, the tracking number and SKU-9: %v", probs)
	assert.Contains(t, probs[1], `"shipped" is not kept`)
}

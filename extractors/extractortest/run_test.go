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

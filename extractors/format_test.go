package extractors

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		name string
		s    ToolSummary
		want string
	}{
		{"success", ToolSummary{Tool: "read_file", Status: StatusSuccess, KeyFacts: []string{"File: app/main.go", "Lines: 120", "Type: go", "Defines: Serve, New"}},
			"[✓ read_file: File: app/main.go | Lines: 120 | Type: go | Defines: Serve, New]"},
		{"error", ToolSummary{Tool: "bash", Status: StatusError, KeyFacts: []string{"exit 1"}}, "[❌ bash: exit 1]"},
		{"partial", ToolSummary{Tool: "bash", Status: StatusPartial, KeyFacts: []string{"100 chars elided"}}, "[⚠ bash: 100 chars elided]"},
		{"no facts", ToolSummary{Tool: "submit"}, "[✓ submit]"},
		{"no tool", ToolSummary{KeyFacts: []string{"x"}}, "[✓ tool: x]"},
		{"unknown status", ToolSummary{Tool: "t", Status: "odd"}, "[✓ t]"},
		{"newlines and blanks", ToolSummary{Tool: "a\nb", KeyFacts: []string{"one\ntwo\t three", "", "  "}}, "[✓ a b: one two three]"},
		{"invalid utf8", ToolSummary{Tool: "t", KeyFacts: []string{"caf\xe9"}}, "[✓ t: caf\uFFFD]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Format(tc.s))
		})
	}
}

func TestFormatCap(t *testing.T) {
	long := strings.Repeat("é", 1000)
	tests := []struct {
		name  string
		facts []string
		more  string
	}{
		{"one long fact", []string{long}, ""},
		{"many facts", strings.Split(strings.Repeat("fact number x|", 200), "|"), "more"},
		{"long then short", []string{strings.Repeat("a", 590), "b", "c"}, "+2 more"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Format(ToolSummary{Tool: strings.Repeat("tool", 40), KeyFacts: tc.facts})
			assert.LessOrEqual(t, len(got), FormatMaxBytes)
			assert.True(t, utf8.ValidString(got))
			assert.True(t, strings.HasSuffix(got, "]"))
			if tc.more != "" {
				assert.Contains(t, got, tc.more)
			}
		})
	}
}

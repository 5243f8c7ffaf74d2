package recall_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/extractors/extractortest"
	"github.com/agentcompact/compact/recall"
)

// TestAnswersCompactBack: the default registry masks every answer of the
// tool to one short line that keeps the ref (or the query and the refs
// found), so recalling does not grow the context for good.
func TestAnswersCompactBack(t *testing.T) {
	tool := toolFor(newFixture(t), sessionA)
	reg := extractors.Default()
	tests := []struct {
		input string
		want  string // the whole masked line
	}{
		{"ref:k3f2a9qx", "[✓ recall: ref:k3f2a9qx lines 1-92 of 300 | tool read_file]"},
		{"ref:k3f2a9qx lines 121-140", "[✓ recall: ref:k3f2a9qx lines 121-140 of 300 | tool read_file]"},
		{"ref:u2ser222", "[✓ recall: ref:u2ser222 lines 1-1 of 1 | user]"},
		{"helper17(", `[✓ recall: search "helper17(" | shown 2 of 2 matching | ref:m4p2b7cd, ref:k3f2a9qx]`},
		{"ref:nosuch22", "[✓ recall: no original with ref:nosuch22 in this session]"},
		{"xyzzy", `[✓ recall: nothing compacted in this session matches "xyzzy"]`},
		{"", "[✓ recall: empty input]"},
	}
	for _, tc := range tests {
		t.Run(tc.input, func(t *testing.T) {
			answer := call(t, tool, tc.input)
			for _, name := range []string{"recall", "RECALL"} {
				line := extractors.Format(reg.Extract(extractors.Call{ID: "c1", Name: name, Arguments: `{"__arg1": "x"}`}, answer))
				assert.Equal(t, strings.Replace(tc.want, "recall", name, 1), line)
				assert.Less(t, budget.EstimateTokens(line), 60)
			}
		})
	}
	// A page of the default cap shrinks to a line.
	answer := call(t, tool, "ref:k3f2a9qx")
	require.Greater(t, budget.EstimateTokens(answer), 1000)
	assert.Equal(t, "ref:k3f2a9qx lines 1-92 of 300 (tool read_file):", answer[:strings.IndexByte(answer, '\n')])
}

// TestRecallExtractor runs the conformance checks on the built-in the
// tool's answers go to, with answers among the inputs.
func TestRecallExtractor(t *testing.T) {
	e, ok := extractors.Builtin("recall")
	require.True(t, ok)
	extractortest.RunWith(t, e, extractortest.Options{Tools: []string{recall.Name}, SkipHuge: testing.Short()})
	tool := toolFor(newFixture(t), sessionA)
	for _, in := range []string{"ref:k3f2a9qx", "helper17(", "ref:" + strings.Repeat("z", 40), "x", strings.Repeat("token ", 40) + extractortest.Secrets[1]} {
		s := e.Extract(extractors.Call{Name: recall.Name}, call(t, tool, in))
		assert.Empty(t, extractortest.Check(s, true), in)
		assert.NotContains(t, extractors.Format(s), extractortest.Secrets[1])
	}
}

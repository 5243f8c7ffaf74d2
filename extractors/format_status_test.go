package extractors

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFormattedStatus(t *testing.T) {
	for _, st := range []Status{StatusSuccess, StatusError, StatusPartial} {
		line := Format(ToolSummary{Tool: "bash", Status: st, KeyFacts: []string{"exit 1"}})
		got, ok := FormattedStatus(line)
		assert.True(t, ok, line)
		assert.Equal(t, st, got, line)
		got, ok = FormattedStatus(Format(ToolSummary{Tool: "", Status: st}))
		assert.True(t, ok)
		assert.Equal(t, st, got)
	}
	for _, s := range []string{"", "plain output", "[x bash]", "✓ bash", "[❌bash"} {
		_, ok := FormattedStatus(s)
		assert.False(t, ok, s)
	}
}

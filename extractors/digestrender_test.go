package extractors

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRender(t *testing.T) {
	d := Digest{Messages: 40, ToolCalls: 18,
		Instructions:  []string{"Remember to keep the API stable."},
		Errors:        []string{"ValueError at foo.py:12: bad"},
		Commands:      []string{"pytest tests/test_x.py (exit 1)", "ls (ok)"},
		FilesModified: []string{"a.go", "b.go"},
		FilesRead:     []string{"c.go", "d.go", "e.go"},
		Questions:     []string{"Why does it fail?"},
		Entities:      []string{"ValueError", "a.go"},
		Previous:      "We started by reading the parser and found the empty-input bug in Parse.",
	}
	full := d.Render(1000, nil)
	assert.Equal(t, "Summary of 40 earlier messages (18 tool calls).\n"+
		"Previous summary: We started by reading the parser and found the empty-input bug in Parse.\n"+
		"Instructions: Remember to keep the API stable.\n"+
		"Errors: ValueError at foo.py:12: bad\n"+
		"Open questions: Why does it fail?\n"+
		"Files modified: a.go b.go | read: c.go d.go e.go\n"+
		"Commands: pytest tests/test_x.py (exit 1); ls (ok)\n"+
		"Entities: ValueError", full, "the entities shown as paths are not repeated")
	// Under a tight budget the paths and identifiers go last: here the
	// instructions, errors, commands and questions go first.
	tight := d.Render(55, nil)
	assert.LessOrEqual(t, estimateTokens(tight), 55)
	assert.Contains(t, tight, "Files modified: a.go b.go | read: c.go d.go e.go")
	assert.Contains(t, tight, "Entities: ValueError")
	assert.NotContains(t, tight, "Instructions")
	assert.NotContains(t, tight, "Previous summary")
	// A little more room: the instructions and the failed commands come
	// back before the previous summary, and before the errors, whose
	// exception names the entities show.
	mid := d.Render(80, nil)
	assert.LessOrEqual(t, estimateTokens(mid), 80)
	assert.Contains(t, mid, "Files modified: a.go b.go | read: c.go d.go e.go")
	assert.Contains(t, mid, "Instructions: Remember")
	assert.Contains(t, mid, "pytest tests/test_x.py (exit 1)")
	assert.Contains(t, mid, "Entities: ValueError")
	assert.NotContains(t, mid, "ValueError at foo.py:12")
	assert.Contains(t, d.Render(95, nil), "ValueError at foo.py:12", "then the errors")
	assert.NotContains(t, mid, "Previous summary")
	assert.Empty(t, d.Render(3, nil), "not even the header fits")
	assert.Empty(t, d.Render(0, nil))
	// Never over budget, whatever the counter.
	words := func(s string) int { return len(strings.Fields(s)) }
	for budget := 1; budget < 120; budget += 7 {
		out := d.Render(budget, words)
		assert.LessOrEqual(t, words(out), budget)
	}
}

func TestRenderLongPrevious(t *testing.T) {
	d := Digest{Messages: 3, Previous: strings.Repeat("word ", 2000)}
	out := d.Render(100, nil)
	assert.LessOrEqual(t, estimateTokens(out), 100)
	assert.Contains(t, out, "Previous summary: word word")
	assert.Contains(t, out, "…")
}

func TestKeyPoints(t *testing.T) {
	d := Digest{FilesModified: []string{"a.go", "b.go"}, Errors: []string{"ValueError at foo.py:12"}, Entities: []string{"x"}}
	assert.Equal(t, []string{"Errors: ValueError at foo.py:12", "Files modified: a.go, b.go"}, d.KeyPoints())
	many := Digest{Commands: strings.Split("a b c d e f g h i j k l m n", " "), FilesRead: strings.Split("a b c d e f g h i j k l m n", " ")}
	assert.Equal(t, []string{"Commands: a; b; c; d; e; f; g; h; i; j; k; l; +2 more", "Files read: a, b, c, d, e, f, g, h, i, j, k, l, m, n"}, many.KeyPoints(),
		"a line of paths holds every path")
	long := Digest{FilesSearched: strings.Split(strings.Repeat("pkg/some/long/path/file.go ", 1000), " ")[:1000]}
	kp := long.KeyPoints()
	require.Len(t, kp, 1)
	assert.LessOrEqual(t, len(kp[0]), maxKeyPointBytes+64)
	assert.True(t, strings.HasPrefix(kp[0], "Files searched: pkg/some/long/path/file.go, "))
	assert.True(t, strings.HasSuffix(kp[0], " more"), "within its bytes: %s", kp[0])
	assert.Empty(t, Digest{}.KeyPoints())
}

// TestParseKeyPoints checks that the lists a rule-based summary carries
// in its key points read back whole.
func TestParseKeyPoints(t *testing.T) {
	d := Digest{
		Instructions:   []string{"Keep it; short."},
		Errors:         []string{"ValueError at a.py:1: bad", "KeyError at b.py:2"},
		Commands:       []string{"pytest -x (exit 1)", "ls (ok)"},
		FilesModified:  []string{"a.py"},
		FilesRead:      []string{"b.py", "/repo/b.py"},
		FilesSearched:  []string{"src/"},
		FilesListed:    []string{"pkg"},
		FilesTested:    []string{"tests/t.py::test_x"},
		FilesRun:       []string{"run.sh"},
		FilesMentioned: []string{"docs/x.md"},
	}
	for i := 0; i < 30; i++ {
		d.FilesRead = append(d.FilesRead, fmt.Sprintf("pkg/f%02d.go", i))
	}
	got := ParseKeyPoints(d.KeyPoints())
	want := d
	want.Instructions = nil
	assert.Equal(t, want, got)
	assert.Equal(t, Digest{}, ParseKeyPoints([]string{"no label", "Entities: x", "Files read: +3 more"}))
}

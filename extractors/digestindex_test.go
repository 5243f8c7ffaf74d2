package extractors

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentcompact/compact/budget"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

func TestUncovered(t *testing.T) {
	var groups [numPathGroups][]string
	groups[groupModified] = []string{"/repo/src/a.py", "tests/t.py::test_x"}
	groups[groupRead] = []string{"src/a.py", "a.py", "data.py", "/repo/src", "/repo/src/", "tests/t.py", "src"}
	groups[groupListed] = []string{"/repo", "lib"}
	got := uncovered(groups)
	assert.Equal(t, []string{"/repo/src/a.py", "tests/t.py::test_x"}, got[groupModified])
	assert.Equal(t, []string{"data.py"}, got[groupRead], "held as whole components: src/a.py, a.py, /repo/src, /repo/src/, tests/t.py, src")
	assert.Equal(t, []string{"lib"}, got[groupListed])
	assert.Equal(t, []string{"src/a.py", "a.py", "data.py", "/repo/src", "/repo/src/", "tests/t.py", "src"}, groups[groupRead], "not modified")
	for g := range groups {
		for _, p := range groups[g] {
			found := false
			for _, l := range got {
				for _, q := range l {
					found = found || strings.Contains(q, p)
				}
			}
			assert.True(t, found, "%s is findable in what is left", p)
		}
	}
}

func TestWithoutRepeats(t *testing.T) {
	var groups [numPathGroups][]string
	groups[groupModified] = []string{"a.go"}
	groups[groupRead] = []string{"a.go", "b.go", "b.go"}
	got := withoutRepeats(groups)
	assert.Equal(t, []string{"a.go"}, got[groupModified])
	assert.Equal(t, []string{"b.go"}, got[groupRead])
	assert.Equal(t, []string{"a.go", "b.go", "b.go"}, groups[groupRead], "not modified")
}

// manyPaths returns n distinct paths in dirs directories, nested deep.
func manyPaths(n, dirs int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("src/module%02d/sub/file_%03d.py", i%dirs, i)
	}
	return out
}

// TestRenderIndexedScales checks the file index of a long run with the
// real tokenizer: a few hundred paths fit within the room given for the
// index, each whole (a substring search finds it), grouped by what was
// done, with the other facts beside them; with less room the oldest go
// and the note says how many and how to find them; the text never exceeds
// maxTokens plus the index's room, and grows beyond maxTokens only for
// the paths.
func TestRenderIndexedScales(t *testing.T) {
	counter, err := budget.NewCounter("gpt-4o")
	require.NoError(t, err)
	count := counter.Count
	paths := manyPaths(300, 12)
	d := Digest{Messages: 700, ToolCalls: 350,
		FilesModified: paths[:40], FilesRead: paths[40:240], FilesSearched: paths[240:280], FilesRun: paths[280:],
		Errors:       []string{"ValueError at src/module01/sub/file_001.py:12: bad value"},
		Instructions: []string{"Remember to keep the API stable."},
		Records:      []string{"get_user: user_id mia_li_3668"},
	}
	out := d.RenderIndexed(600, 3000, count)
	assert.LessOrEqual(t, count(out), 3600)
	assert.Greater(t, count(out), 600, "the index grows the summary")
	for _, p := range paths {
		require.Contains(t, out, p)
	}
	for _, want := range []string{"Files modified: ", " | read: ", " | searched: ", " | run: ", "ValueError at src/module01", "Remember to keep", "mia_li_3668"} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "more paths")

	// Less room: the most recent of each group stay, a note counts the rest.
	short := d.RenderIndexed(600, 600, count)
	assert.LessOrEqual(t, count(short), 1200)
	shown := 0
	for _, p := range paths {
		if strings.Contains(short, p) {
			shown++
		}
	}
	assert.Greater(t, shown, 60)
	assert.Less(t, shown, 300)
	assert.Contains(t, short, fmt.Sprintf("+%d more paths (recall finds them by name)", 300-shown))
	for _, l := range [][]string{d.FilesModified, d.FilesRead, d.FilesSearched, d.FilesRun} {
		assert.Contains(t, short, l[0], "the most recent of each group")
	}
	assert.NotContains(t, short, d.FilesRead[len(d.FilesRead)-1], "the oldest go")
	assert.Contains(t, short, "ValueError at src/module01", "a reserve beside the index keeps the errors")
	assert.Contains(t, short, "mia_li_3668", "and the records")

	// Few paths: no growth.
	few := Digest{Messages: 10, FilesRead: paths[:3], Commands: []string{"ls (ok)"}}
	assert.Equal(t, few.Render(600, count), few.RenderIndexed(600, 3000, count), "the index takes room beyond maxTokens only when it needs it")
	assert.LessOrEqual(t, count(few.RenderIndexed(600, 3000, count)), 600)
	// Never over maxTokens+indexTokens, whatever the budget.
	for _, b := range []int{1, 20, 60, 150, 400} {
		for _, extra := range []int{-5, 0, 10, 200} {
			r := d.RenderIndexed(b, extra, count)
			assert.LessOrEqual(t, count(r), b+max(0, extra), "budget %d+%d", b, extra)
		}
	}
}

// TestKeyPointsCarryAFewHundredPaths checks that the key points, which a
// rule-based summary's successor reads its lists back from, carry every
// path and every record of a long run.
func TestKeyPointsCarryAFewHundredPaths(t *testing.T) {
	paths := manyPaths(400, 20)
	d := Digest{FilesRead: paths}
	for i := 0; i < 150; i++ {
		d.Records = append(d.Records, fmt.Sprintf("get_reservation_details: reservation R%04d, user_id u_%d", i, i))
	}
	back := ParseKeyPoints(d.KeyPoints())
	assert.Equal(t, paths, back.FilesRead)
	assert.Equal(t, d.Records, back.Records, "and every record")
}

// BenchmarkRenderIndexed renders the digest of a long run (300 paths, the
// other lists full) with the real tokenizer, all paths fitting (24k's
// caps) and not (8k's).
func BenchmarkRenderIndexed(b *testing.B) {
	counter, err := budget.NewCounter("gpt-4o")
	require.NoError(b, err)
	paths := manyPaths(300, 12)
	d := Digest{Messages: 700, ToolCalls: 350, FilesModified: paths[:40], FilesRead: paths[40:240], FilesSearched: paths[240:280], FilesRun: paths[280:]}
	for i := 0; i < 15; i++ {
		d.Errors = append(d.Errors, fmt.Sprintf("ValueError at src/module%02d/sub/file_%03d.py:12: bad value %d", i, i, i))
		d.Commands = append(d.Commands, fmt.Sprintf("python -m pytest tests/test_%d.py -q (exit 1)", i))
		d.Instructions = append(d.Instructions, fmt.Sprintf("Remember rule %d: keep the API stable.", i))
	}
	for _, c := range []struct {
		name       string
		max, index int
	}{{"fits", 800, 1990}, {"overflows", 600, 600}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if d.RenderIndexed(c.max, c.index, counter.Count) == "" {
					b.Fatal("empty")
				}
			}
		})
	}
}

// TestDigestRaisedOutlivesErrors checks that the exception names of a long
// run stay in the chain after its Errors items are gone: carried in the
// key points, shown on their own line.
func TestDigestRaisedOutlivesErrors(t *testing.T) {
	var msgs []llms.MessageContent
	names := []string{"ImportError", "SyntaxError", "TOMLKitError"}
	for i := 0; i < 40; i++ {
		out := fmt.Sprintf("Traceback (most recent call last):\n  File \"m%d.py\", line 3, in <module>\n%s: failure %d\n", i, names[i%len(names)], i)
		if i >= len(names) {
			out = fmt.Sprintf("Traceback (most recent call last):\n  File \"m%d.py\", line 3, in <module>\nValueError: failure %d\n", i, i)
		}
		msgs = append(msgs, oneCall("bash", bashArgs(fmt.Sprintf("python m%d.py", i)), out)...)
	}
	d := Default().Digest(msgs, Digest{})
	for _, n := range append([]string{"ValueError"}, names...) {
		assert.Contains(t, d.Raised, n)
	}
	assert.Len(t, d.Errors, maxDigestErrors, "the errors items are capped: the oldest are gone")
	back := ParseKeyPoints(d.KeyPoints())
	assert.Equal(t, d.Raised, back.Raised, "carried along the chain")
	out := d.RenderIndexed(300, 300, nil)
	assert.Contains(t, out, "\nExceptions raised: ValueError, ")
	for _, n := range names {
		assert.Contains(t, out, n)
	}
}

func TestDistinctRecords(t *testing.T) {
	in := []string{
		"get_reservation_details: HAT130, credit_card_5417084, 9HBUV8, mohamed_5188",
		"cancel_reservation: HAT130, 9HBUV8 (error)",
		"get_reservation_details: HAT285, credit_card_5417084, D1EW9B, mohamed_5188",
		"get_user_details: credit_card_5417084, mohamed_5188",
		"search_flights: HAT001, +4 more",
		"search_flights: HAT001, +2 more",
	}
	assert.Equal(t, []string{
		"get_reservation_details: HAT130, credit_card_5417084, 9HBUV8, mohamed_5188",
		"cancel_reservation: HAT130, 9HBUV8 (error)",
		"get_reservation_details: HAT285, D1EW9B",
		"search_flights: HAT001, +4 more",
	}, distinctRecords(in), "each identifier once, in the most recent record; failures whole")
	assert.Equal(t, "get_user_details: credit_card_5417084, mohamed_5188", in[3], "not modified")
}

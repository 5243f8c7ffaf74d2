package extractors

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGrepFile(t *testing.T) {
	tests := []struct {
		line, file string
		match      bool
	}{
		{"src/a.py:12:def f():", "src/a.py", true},
		{"src/a.py-13-    pass", "src/a.py", false},
		{"src/a.py:text without number", "src/a.py", true},
		{"no path here", "", true},
	}
	for _, tc := range tests {
		f, m := grepFile(tc.line)
		assert.Equal(t, tc.file, f, tc.line)
		assert.Equal(t, tc.match, m, tc.line)
	}
}

func TestListEntries(t *testing.T) {
	assert.Equal(t, []string{"setup.py"}, listEntries("ls", "-rw-r--r-- 1 root root 2390 Oct 24  2024 setup.py"))
	assert.Equal(t, []string{"link"}, listEntries("ls", "lrwxrwxrwx 1 root root 4 Oct 24 2024 link -> dest"))
	assert.Nil(t, listEntries("ls", "total 508"))
	assert.Nil(t, listEntries("ls", "django/db:"))
	assert.Equal(t, []string{"AUTHORS.rst", "LICENSE", "src/"}, listEntries("ls", "AUTHORS.rst\t    LICENSE\t src/"))
	assert.Equal(t, []string{"a b.txt"}, listEntries("find", "a b.txt"))
}

func TestSearchSummarySWE(t *testing.T) {
	out := "Found 5 matches for \"TimeDelta\" in /r/src:\n/r/src/fields.py (4 matches)\n/r/src/schema.py (1 matches)\nEnd of matches for \"TimeDelta\" in /r/src\n"
	s := searchExtract(Call{Name: "search_dir", Arguments: `{"search_term": "TimeDelta", "dir": "src"}`}, out)
	assert.Contains(t, s.KeyFacts, "Matches: 5 in 2 files")
	assert.Contains(t, s.KeyFacts, "Top: /r/src/fields.py (4), /r/src/schema.py (1)")
	none := searchExtract(Call{Name: "search_file", Arguments: `{"search_term": "zz"}`}, "No matches found for \"zz\" in /r/a.py\n")
	assert.Contains(t, none.KeyFacts, "No matches")
}

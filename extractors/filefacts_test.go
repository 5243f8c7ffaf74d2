package extractors

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAnalyzeFile(t *testing.T) {
	tests := []struct {
		name, path, content string
		lang                string
		first, last, total  int
		defines             []string
		imports             int
	}{
		{"nl numbered python", "a.py", "    10\tclass A:\n    11\t    def m(self):\n    12\t        pass\n    13\tdef top():\n", "python", 10, 13, 0, []string{"A", "top", "m"}, 0},
		{"swe window", "", "[File: /r/x.go (300 lines total)]\n(99 more lines above)\n100:func (s *S) Run() {}\n101:type T int\n", "go", 100, 101, 300, []string{"Run", "T"}, 0},
		{"js", "x.mjs", "import a from 'a'\nconst b = require('b')\nexport async function go() {}\n", "javascript", 0, 0, 0, []string{"go"}, 2},
		{"rust", "lib.rs", "use std::io;\npub fn run() {}\nstruct S;\n", "rust", 0, 0, 0, []string{"run", "S"}, 1},
		{"sniffed python", "", "import os\n\ndef f():\n    return 1\n", "python", 0, 0, 0, []string{"f"}, 1},
		{"text", "notes.txt", "hello\n", "text", 0, 0, 0, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := analyzeFile(tc.path, tc.content)
			assert.Equal(t, tc.lang, f.lang)
			assert.Equal(t, tc.first, f.first)
			assert.Equal(t, tc.last, f.last)
			assert.Equal(t, tc.total, f.total)
			assert.Equal(t, tc.defines, f.defines)
			assert.Equal(t, tc.imports, f.imports)
		})
	}
}

func TestLineNumber(t *testing.T) {
	n, rest, style := lineNumber("  5970\tdef f():")
	assert.Equal(t, 5970, n)
	assert.Equal(t, "def f():", rest)
	assert.Equal(t, 1, style)
	n, rest, style = lineNumber("12:x = 1")
	assert.Equal(t, []any{12, "x = 1", 2}, []any{n, rest, style})
	_, _, style = lineNumber("  12: indented colon")
	assert.Equal(t, 0, style)
	_, _, style = lineNumber("plain")
	assert.Equal(t, 0, style)
}

package callpaths

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCommandPaths(t *testing.T) {
	tests := []struct {
		name string
		cmd  string
		want []string
	}{
		{"cat", "cat django/db/models/query.py", []string{"django/db/models/query.py"}},
		{"nl and sed", "nl -ba django/db/models/deletion.py | sed -n '100,140p'", []string{"django/db/models/deletion.py"}},
		{"sed -n", "sed -n '10,20p' ./src/app.py", []string{"src/app.py"}},
		{"sed -i script", "sed -i 's/foo\\/bar/baz/' lib/x.py", []string{"lib/x.py"}},
		{"grep pattern", `grep -rn "a/b" django/utils/`, []string{"django/utils"}},
		{"grep -e", `grep -e foo/bar -n src/a.py`, []string{"src/a.py"}},
		{"heredoc body", "cat <<'EOF' > reproduce.py\nimport os.path\nprint(open('x/y.txt'))\nEOF\npython3 reproduce.py", []string{"reproduce.py", "reproduce.py"}},
		{"heredoc unquoted", "cat << EOF > a.txt\nb/c.py\nEOF", []string{"a.txt"}},
		{"python -c", `python -c "import a/b" && python3 tests/runtests.py delete`, []string{"tests/runtests.py"}},
		{"cd ignored", "cd /testbed && ls tests/migrations", []string{"tests/migrations"}},
		{"options and urls", "curl -o out.json https://example.com/a/b.json --verbose", []string{"out.json"}},
		{"globs and vars", "ls src/*.py $HOME/x.py", nil},
		{"echo", `echo "see a/b.py" > notes.txt`, []string{"notes.txt"}},
		{"stderr redirect", "python x.py 2>&1 | tail -5", []string{"x.py"}},
		{"dev null", "find . -name '*.py' 2>/dev/null", nil},
		{"script path", "./tests/runtests.py queries", []string{"tests/runtests.py"}},
		{"line suffix", "vim src/a.go:12", []string{"src/a.go"}},
		{"env and sudo", "FOO=1 sudo python3 setup.py install", []string{"setup.py"}},
		{"unterminated quote", `cat "a/b.py`, []string{"a/b.py"}},
		{"comment", "python x.py # then a/b.py", []string{"x.py"}},
		{"substitution", "cat $(ls a/b.py) c/d.py", []string{"c/d.py"}},
		{"empty", "", nil},
		{"operators only", "&& || ; |", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Command(tt.cmd))
		})
	}
}

func TestPathWord(t *testing.T) {
	tests := []struct {
		word string
		want string
		ok   bool
	}{
		{"a/b.py", "a/b.py", true},
		{"./a/b/", "a/b", true},
		{"main.go", "main.go", true},
		{"README", "", false},
		{"s/a/b/", "", false},
		{"/dev/null", "", false},
		{"http://x/y", "", false},
		{"../..", "", false},
		{"a/*.py", "", false},
		{"file.py:10:", "file.py", true},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			got, ok := Word(tt.word)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

package shellwords

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want [][]string
		here string
		sep  []string
	}{
		{name: "nl sed", in: `nl -ba django/db/models/query.py | sed -n '1,80p'`,
			want: [][]string{{"nl", "-ba", "django/db/models/query.py"}, {"sed", "-n", "1,80p"}}, sep: []string{"", "|"}},
		{name: "cd and", in: `cd /testbed && grep -rn "def foo" src/ | head -20`,
			want: [][]string{{"cd", "/testbed"}, {"grep", "-rn", "def foo", "src/"}, {"head", "-20"}}, sep: []string{"", "&&", "|"}},
		{name: "heredoc then run", in: "cat <<'EOF' > reproduce.py\nprint(1)\nprint('EOF')\nEOF\npython reproduce.py",
			want: [][]string{{"cat"}, {"python", "reproduce.py"}}, here: "print(1)\nprint('EOF')\n", sep: []string{"", "\n"}},
		{name: "heredoc with tabs stripped", in: "cat <<-X\n\tbody\n\tX\nls",
			want: [][]string{{"cat"}, {"ls"}}, here: "\tbody\n", sep: []string{"", "\n"}},
		{name: "indented delimiter is body", in: "cat <<X\n  X\nX\n",
			want: [][]string{{"cat"}}, here: "  X\n"},
		{name: "env assignment", in: `PYTHONPATH=. timeout 30 python -m pytest -x tests/test_a.py 2>&1 | tail -5`,
			want: [][]string{{"python", "-m", "pytest", "-x", "tests/test_a.py"}, {"tail", "-5"}}},
		{name: "comment", in: "# look\nls -la # trailing",
			want: [][]string{{"ls", "-la"}}},
		{name: "escaped quote", in: `echo "a \"b\" c" 'd'\''e'`,
			want: [][]string{{"echo", `a "b" c`, "d'e"}}},
		{name: "line continuation", in: "python \\\n  run.py", want: [][]string{{"python", "run.py"}}},
		{name: "substitution kept", in: `echo $(cat a | wc -l) done`, want: [][]string{{"echo", "$(cat a | wc -l)", "done"}}},
		{name: "groups and case", in: "{ ls; } && (cd a); x;; y |& z",
			want: [][]string{{"ls"}, {"cd", "a"}, {"x"}, {"y"}, {"z"}}, sep: []string{";", ";", ";", ";", "|"}},
		{name: "empty commands dropped", in: "a && ; b", want: [][]string{{"a"}, {"b"}}, sep: []string{"", ";"}},
		{name: "unterminated", in: `grep "abc`, want: [][]string{{"grep", "abc"}}},
		{name: "empty", in: "", want: nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Parse(tc.in)
			var args [][]string
			var seps []string
			here := ""
			for _, c := range got {
				args = append(args, c.Args)
				seps = append(seps, c.Sep)
				if c.HasHereDoc {
					here = c.HereDoc
				}
			}
			assert.Equal(t, tc.want, args)
			if tc.sep != nil {
				assert.Equal(t, tc.sep, seps)
			}
			assert.Equal(t, tc.here, here)
		})
	}
}

func TestOutFile(t *testing.T) {
	tests := []struct {
		in      string
		file    string
		appends bool
	}{
		{"cat <<'EOF' > 'out dir/reproduce.py'\nx\nEOF", "out dir/reproduce.py", false},
		{`echo '")' >> fix.py`, "fix.py", true},
		{"run &> log.txt", "log.txt", false},
		{"run 2>&1 >/dev/null", "", false},
		{"run 2> err.txt", "", false},
		{"sort < in.txt", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got := Parse(tc.in)
			require.Len(t, got, 1)
			f, appends := got[0].OutFile()
			assert.Equal(t, tc.file, f)
			assert.Equal(t, tc.appends, appends)
		})
	}
}

func TestName(t *testing.T) {
	assert.Equal(t, "python3", Parse("/usr/bin/python3 x.py")[0].Name())
	assert.Equal(t, "", Command{}.Name())
}

func TestStripWrappers(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{[]string{"A=1", "B_2=x", "sudo", "-E", "env", "-i", "timeout", "--preserve-status", "30", "nice", "python", "x.py"}, []string{"python", "x.py"}},
		{[]string{"timeout", "30", "pytest"}, []string{"pytest"}},
		{[]string{"if", "!", "grep", "-q", "x"}, []string{"grep", "-q", "x"}},
		{[]string{"xargs", "grep", "x"}, []string{"xargs", "grep", "x"}},
		{[]string{"=x", "ls"}, []string{"=x", "ls"}},
		{[]string{"1A=x", "ls"}, []string{"1A=x", "ls"}},
		{[]string{"sudo"}, []string{}},
		{nil, nil},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, StripWrappers(tc.in), "%q", tc.in)
	}
}

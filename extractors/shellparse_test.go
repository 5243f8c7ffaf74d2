package extractors

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseShell(t *testing.T) {
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
		{name: "env assignment", in: `PYTHONPATH=. timeout 30 python -m pytest -x tests/test_a.py 2>&1 | tail -5`,
			want: [][]string{{"python", "-m", "pytest", "-x", "tests/test_a.py"}, {"tail", "-5"}}},
		{name: "comment", in: "# look\nls -la # trailing",
			want: [][]string{{"ls", "-la"}}},
		{name: "escaped quote", in: `echo "a \"b\" c" 'd'\''e'`,
			want: [][]string{{"echo", `a "b" c`, "d'e"}}},
		{name: "unterminated", in: `grep "abc`, want: [][]string{{"grep", "abc"}}},
		{name: "empty", in: "", want: nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := parseShell(tc.in)
			var args [][]string
			var seps []string
			here := ""
			for _, c := range got {
				args = append(args, c.args)
				seps = append(seps, c.sep)
				if c.hasHere {
					here = c.heredoc
				}
			}
			assert.Equal(t, tc.want, args)
			if tc.sep != nil {
				assert.Equal(t, tc.sep, seps)
			}
			assert.Equal(t, tc.here, here)
		})
	}
	t.Run("redirect target", func(t *testing.T) {
		got := parseShell("cat <<'EOF' > 'out dir/reproduce.py'\nx\nEOF")
		require.Len(t, got, 1)
		f, appendMode := got[0].outFile()
		assert.Equal(t, "out dir/reproduce.py", f)
		assert.False(t, appendMode)
		got = parseShell(`echo '")' >> fix.py`)
		require.Len(t, got, 1)
		f, appendMode = got[0].outFile()
		assert.Equal(t, "fix.py", f)
		assert.True(t, appendMode)
	})
}

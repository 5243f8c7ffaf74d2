package extractors

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPlanShell(t *testing.T) {
	tests := []struct {
		cmd    string
		kinds  []opKind
		reads  []string
		rng    string
		writes []string
	}{
		{cmd: "nl -ba a.py | sed -n '10,20p'", kinds: []opKind{opRead}, reads: []string{"a.py"}, rng: "10-20"},
		{cmd: "sed -n '5p' a.py", kinds: []opKind{opRead}, reads: []string{"a.py"}, rng: "5"},
		{cmd: "cat a.py | head -n 30", kinds: []opKind{opRead}, reads: []string{"a.py"}, rng: "1-30"},
		{cmd: "cd /r && cat a.py b.py", kinds: []opKind{opNone, opRead}, reads: []string{"a.py", "b.py"}},
		{cmd: "cat a.py | grep -n def", kinds: []opKind{opSearch}, reads: []string{"a.py"}},
		{cmd: "find . -name '*.py' | xargs grep -l Foo", kinds: []opKind{opSearch}},
		{cmd: "sed -i 's/a/b/' x.py y.py", kinds: []opKind{opWrite}, writes: []string{"x.py", "y.py"}},
		{cmd: "cat <<'EOF' > t.py\nx\nEOF\npython t.py", kinds: []opKind{opWrite, opExec}, writes: []string{"t.py"}},
		{cmd: "python -m pytest -x tests/", kinds: []opKind{opTest}},
		{cmd: "./tests/runtests.py queries", kinds: []opKind{opTest}},
		{cmd: "npm run test:unit", kinds: []opKind{opTest}},
		{cmd: "git diff HEAD~1 -- a.go", kinds: []opKind{opGit}},
		{cmd: "git -C repo log --oneline", kinds: []opKind{opGit}},
		{cmd: "curl -s https://x.dev/api | jq .", kinds: []opKind{opHTTP}},
		{cmd: "rm -rf build && mkdir build", kinds: []opKind{opWrite, opWrite}, writes: []string{"build", "build"}},
		{cmd: "wc -l a.py", kinds: []opKind{opExec}, reads: []string{"a.py"}},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			p := planShell(tc.cmd)
			var kinds []opKind
			var reads, writes []string
			rng := ""
			for _, op := range p.ops {
				kinds = append(kinds, op.kind)
				reads = append(reads, op.reads...)
				for _, w := range op.writes {
					writes = append(writes, w.path)
				}
				if op.rng != "" {
					rng = op.rng
				}
			}
			assert.Equal(t, tc.kinds, kinds)
			assert.Equal(t, tc.reads, reads)
			assert.Equal(t, tc.writes, writes)
			assert.Equal(t, tc.rng, rng)
		})
	}
}

func TestDisplayCommand(t *testing.T) {
	assert.Equal(t, "grep -rn x .", displayCommand("cd /testbed && grep -rn x ."))
	assert.Equal(t, "cat <<'EOF' > a.py … (+2 lines)", displayCommand("cat <<'EOF' > a.py\nx\nEOF"))
	assert.Equal(t, "python3 a.py", shellSummary("bash", "cat <<'EOF' > a.py\nx\nEOF\npython3 a.py", planShell("cat <<'EOF' > a.py\nx\nEOF\npython3 a.py"), unwrap("ok")).KeyFacts[0][2:])
}

// TestCommandSummary checks the command kept in metadata (and the digest):
// a here-document's first line as written, its body elided, the later
// lines' commands after it.
func TestCommandSummary(t *testing.T) {
	tests := []struct{ name, cmd, want string }{
		{"one line", "python3 -m pytest tests/test_a.py -x", "python3 -m pytest tests/test_a.py -x"},
		{"heredoc then run", "cat <<'EOF' > reproduce_issue.py\nimport django\nprint(1)\nEOF\npython3 reproduce_issue.py",
			"cat <<'EOF' > reproduce_issue.py … && python3 reproduce_issue.py"},
		{"cd and heredoc", "cd /repo && cat <<EOF > a.py\nx = 1\nEOF\npython a.py && echo ok",
			"cd /repo && cat <<EOF > a.py … && python a.py && echo ok"},
		{"continued line", "python3 -m pytest \\\n  tests/test_b.py", "python3 -m pytest tests/test_b.py"},
		{"two lines", "make build\nmake test", "make build && make test"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Default().Extract(Call{Name: "bash", Arguments: commandArgs(tc.cmd)}, "<returncode>1</returncode>\n<output>\nboom\n</output>")
			assert.Equal(t, tc.want, s.Metadata[MetaCommand])
		})
	}
}

func commandArgs(cmd string) string {
	b, _ := json.Marshal(map[string]string{"command": cmd})
	return string(b)
}

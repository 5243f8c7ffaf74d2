package extractors

import (
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

package callpaths

import (
	"strings"
	"testing"
)

// FuzzCall checks that Call, Command and Word never panic and that a path
// Word returns is part of its word (so a text holding the word holds the
// path).
func FuzzCall(f *testing.F) {
	f.Add("bash", `{"command": "grep -rn 'a/b' src/ && pytest tests/t.py::x > out.log"}`)
	f.Add("open", `{"path": "./lib/x.py", "dir": "/"}`)
	f.Add("bash", `{"command": "cat <<EOF > a.py\nx/y\nEOF"}`)
	f.Fuzz(func(t *testing.T, name, args string) {
		Call(name, args)
		for _, w := range strings.Fields(args) {
			if p, ok := Word(w); ok && !strings.Contains(w, p) {
				t.Fatalf("Word(%q) = %q, not part of the word", w, p)
			}
		}
		Command(args)
	})
}

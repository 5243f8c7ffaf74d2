package callpaths

import (
	"strings"
	"testing"
)

// FuzzCall checks that Call, Created, Command and Word never panic, that
// a path Call or Created returns from a path argument is part of the
// arguments as written (when they hold no escape; a shell command's words
// lose their quotes) and that a path Word returns is part of its word (so
// a text holding the word holds the path).
func FuzzCall(f *testing.F) {
	f.Add("bash", `{"command": "grep -rn 'a/b' src/ && pytest tests/t.py::x > out.log"}`)
	f.Add("open", `{"path": "./lib/x.py", "dir": "/"}`)
	f.Add("bash", `{"command": "cat <<EOF > a.py\nx/y\nEOF"}`)
	f.Add("str_replace_editor", `{"command": "create", "path": "./t/new.py", "file_text": "x"}`)
	f.Add("bash", `{"command": "mkdir -p a/b && touch a/b/c.py && echo x | tee d.txt"}`)
	f.Add("ViewCode", `{"files": [{"file_path": "./a/b.py"}], "paths": ["c/d.go", 3], "x": {"src": "e/f"}}`)
	f.Fuzz(func(t *testing.T, name, args string) {
		for _, p := range Call(name, args) {
			if !ShellTools[strings.ToLower(name)] && !strings.Contains(args, `\`) && !strings.Contains(args, p) {
				t.Fatalf("Call(%q, %q): %q is not part of the arguments", name, args, p)
			}
		}
		for _, c := range Created(name, args) {
			if !ShellTools[strings.ToLower(name)] && !strings.Contains(args, `\`) && !strings.Contains(args, c.Path) {
				t.Fatalf("Created(%q, %q): %q is not part of the arguments", name, args, c.Path)
			}
		}
		for _, w := range strings.Fields(args) {
			if p, ok := Word(w); ok && !strings.Contains(w, p) {
				t.Fatalf("Word(%q) = %q, not part of the word", w, p)
			}
		}
		Command(args)
	})
}

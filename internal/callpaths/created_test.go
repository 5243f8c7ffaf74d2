package callpaths

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCreatedShapes checks the creations of the call shapes of the
// evaluation corpus (../shared/eval: Moatless' str_replace_editor,
// Claude Code's Write and Bash, SWE-agent's create, mini-swe-agent's
// bash) and of the other tools Created knows.
func TestCreatedShapes(t *testing.T) {
	certain := func(ps ...string) []Creation {
		var out []Creation
		for _, p := range ps {
			out = append(out, Creation{Path: p})
		}
		return out
	}
	mayExist := func(ps ...string) []Creation {
		var out []Creation
		for _, p := range ps {
			out = append(out, Creation{Path: p, MayExist: true})
		}
		return out
	}
	tests := []struct {
		name, tool, args string
		want             []Creation
	}{
		{"moatless str_replace_editor create", "str_replace_editor", `{"command": "create", "path": "tests/functional/n/naming/test_unicode_function_names.rc", "file_text": "[BASIC]\nfunction-rgx=x"}`,
			certain("tests/functional/n/naming/test_unicode_function_names.rc")},
		{"moatless create with nulls", "str_replace_editor", `{"command": "create", "path": "lib/matplotlib/tests/test_rcparams.py", "file_text": null, "view_range": null, "old_str": null, "new_str": "import x"}`,
			certain("lib/matplotlib/tests/test_rcparams.py")},
		{"editor view is no creation", "str_replace_editor", `{"command": "view", "path": "/workspace/app.py"}`, nil},
		{"editor str_replace is no creation", "str_replace_editor", `{"command": "str_replace", "path": "a.py", "old_str": "create", "new_str": "x"}`, nil},
		{"claude code Write", "Write", `{"file_path": "/tmp/tmpqwh7888i/src/string_utils.rs", "content": "//! String utility functions.\n"}`,
			mayExist("/tmp/tmpqwh7888i/src/string_utils.rs")},
		{"claude code Edit", "Edit", `{"file_path": "/tmp/x/src/lib.rs", "old_string": "a", "new_string": "b"}`, nil},
		{"swe-agent create", "create", `{"command": "create solve.py", "path": "solve.py"}`, certain("solve.py")},
		{"swe-agent function calling create", "create", `{"filename":"reproduce.py"}`, certain("reproduce.py")},
		{"create command word only", "edit", `{"command": "create ./scripts/run.sh"}`, certain("scripts/run.sh")},
		{"openhands create", "file_editor", `{"command": "create", "path": "/workspace/repro.py", "file_text": "print(1)"}`, certain("/workspace/repro.py")},
		{"moatless CreateFile", "CreateFile", `{"path": "tests/test_new.py", "file_text": "def test(): pass"}`, certain("tests/test_new.py")},
		{"write_file", "write_file", `{"path": "notes/todo.md", "content": "x"}`, mayExist("notes/todo.md")},
		{"create_file", "create_file", `{"file_path": "src/new.go"}`, certain("src/new.go")},
		{"heredoc redirect", "bash", `{"command": "cat <<'EOF' > reproduce_issue_with_router.py\nimport os\nEOF\npython reproduce_issue_with_router.py"}`,
			mayExist("reproduce_issue_with_router.py")},
		{"heredoc append is no creation", "bash", `{"command": "cat <<EOF >> tests/admin_changelist/tests.py\n    def test_x(self):\nEOF"}`, nil},
		{"echo redirects", "bash", `{"command": "mkdir -p .a\necho \"import re\" > .a/foo.py\necho \"import re\" > bar.py"}`,
			mayExist(".a", ".a/foo.py", "bar.py")},
		{"mkdir and touch", "bash", `{"command": "mkdir -p test_app && touch test_app/__init__.py && python3 reproduce_issue.py"}`,
			mayExist("test_app", "test_app/__init__.py")},
		{"mkdir -m, touch -d", "bash", `{"command": "mkdir -m 755 out && touch -d 2024-01-01 out/stamp"}`, mayExist("out", "out/stamp")},
		{"tee and tee -a", "bash", `{"command": "echo x | tee log/a.txt && echo y | tee -a log/b.txt"}`, mayExist("log/a.txt")},
		{"output to a file, stderr duplicated", "Bash", `{"command": "python x.py > out.log 2>&1 && grep err out.log > /dev/null"}`, mayExist("out.log")},
		{"heredoc in a commit message", "Bash", `{"command": "git add -A && git commit -m \"$(cat <<'EOF'\nPort to Rust\nEOF\n)\""}`, nil},
		{"no shell command", "bash", `{"script": "touch a.py"}`, nil},
		{"not an object", "Write", `["a.py"]`, nil},
		{"malformed", "str_replace_editor", `{"command": "create", "path": "a.py"`, nil},
		{"other tool", "get_user_details", `{"user_id": "mia_li_3668"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Created(tt.tool, tt.args)
			assert.Equal(t, tt.want, got)
			for _, c := range got {
				if !strings.Contains(tt.args, `\`) {
					assert.Contains(t, tt.args, c.Path, "a creation's path is part of the arguments as written")
				}
			}
		})
	}
}

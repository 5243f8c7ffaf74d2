package callpaths

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCallShapes(t *testing.T) {
	tests := []struct {
		name, tool, args string
		want             []string
	}{
		{"flat path", "open", `{"path": "./lib/x.py", "line_number": 3}`, []string{"lib/x.py"}},
		{"moatless ViewCode", "ViewCode", `{"files": [{"file_path": "tests/model_fields/test_foreignkey.py", "start_line": 1, "span_ids": ["A.b"]}, {"file_path": "django/db/models/fields/related.py"}]}`,
			[]string{"tests/model_fields/test_foreignkey.py", "django/db/models/fields/related.py"}},
		{"list of strings", "read_many", `{"paths": ["a/b.py", "c.go", "-v", "."]}`, []string{"a/b.py", "c.go"}},
		{"camel case", "NotebookEdit", `{"notebookPath": "/home/u/nb.ipynb", "cellId": "c3"}`, []string{"/home/u/nb.ipynb"}},
		{"notebook and target", "x", `{"notebook_path": "n.ipynb", "target_file": "src/t.rs", "open_file": "o.py"}`, []string{"n.ipynb", "src/t.rs", "o.py"}},
		{"src dst weak", "move", `{"src": "old/a.py", "dst": "new/a.py"}`, []string{"old/a.py", "new/a.py"}},
		{"weak key, no path", "search_direct_flight", `{"origin": "JFK", "destination": "SEA", "date": "2024-05-20"}`, nil},
		{"deep nesting", "apply", `{"edits": {"changes": [{"target": {"file": "deep/x.go"}}]}}`, []string{"deep/x.go"}},
		{"not path keys", "FindClass", `{"file_pattern": "**/*.py", "class_name": "Gcf", "file_text": "a/b.py", "profile": "p/q.py", "pattern": "a/b.py"}`, nil},
		{"a file pattern that is a path", "FindFunction", `{"file_pattern": "sphinx/ext/autosummary/generate.py", "function_name": "f"}`, []string{"sphinx/ext/autosummary/generate.py"}},
		{"shell command and path key", "Bash", `{"command": "cat src/a.py", "description": "read a.py"}`, []string{"src/a.py"}},
		{"command of a non-shell tool", "str_replace_editor", `{"command": "view", "path": "/workspace/app.py"}`, []string{"/workspace/app.py"}},
		{"nested command is no shell", "bash", `{"steps": [{"command": "cat x/y.py"}]}`, nil},
		{"numbers and nulls", "x", `{"path": null, "file": 12, "dir": true, "files": [null, "a/b"]}`, []string{"a/b"}},
		{"not an object", "open", `["a/b.py"]`, nil},
		{"malformed", "open", `{"path": "a/b.py"`, nil},
		{"trailing data", "open", `{"path": "a/b.py"} {"path": "c/d.py"}`, nil},
		{"empty", "open", ``, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Call(tt.tool, tt.args))
		})
	}
}

func TestCallDepthBound(t *testing.T) {
	deep := `{"a": `
	for i := 0; i < 100; i++ {
		deep += `{"b": `
	}
	deep += `{"path": "x/y.py"}`
	for i := 0; i < 100; i++ {
		deep += `}`
	}
	deep += `, "file": "z/w.py"}`
	assert.Equal(t, []string{"z/w.py"}, Call("x", deep), "values past the depth bound are skipped, the rest read")
}

func TestPathKey(t *testing.T) {
	tests := map[string]KeyKind{
		"path": StrongKey, "file_path": StrongKey, "filePath": StrongKey, "filename": StrongKey, "file_name": StrongKey,
		"files": StrongKey, "paths": StrongKey, "notebook_path": StrongKey, "target_file": StrongKey, "open_file": StrongKey,
		"dir": StrongKey, "output-dir": StrongKey, "FOLDER": StrongKey,
		"src": WeakKey, "dst": WeakKey, "destination": WeakKey, "target": WeakKey,
		"file_pattern": WeakKey, "filePattern": WeakKey,
		"profile": NoKey, "pattern": NoKey, "file_text": NoKey, "class_name": NoKey, "": NoKey, "_": NoKey, "command": NoKey,
	}
	for k, want := range tests {
		assert.Equal(t, want, PathKey(k), k)
	}
}

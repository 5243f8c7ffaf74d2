package extractors

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestBuiltinsSynthetic covers tools and formats the corpus does not have
// (it is Python and bash only): Go/TS reads, generic tool APIs, git log and
// status, HTTP, JSON and SQL.
func TestBuiltinsSynthetic(t *testing.T) {
	goSrc := "package server\n\nimport (\n\t\"fmt\"\n\t\"net/http\"\n)\n\n// Server serves.\ntype Server struct{}\n\nfunc New() *Server { return nil }\n\nfunc (s *Server) Serve() error {\n\treturn fmt.Errorf(\"x\")\n}\n"
	tsSrc := "import { a } from './a';\nimport b from 'b';\nexport interface Props { x: number }\nexport default function App() {}\nexport const useThing = () => 1;\nclass Store {}\n"
	tests := []struct {
		name, tool, args, out string
		status                Status
		facts                 []string
	}{
		{"read_file go", "read_file", `{"path": "app/server.go"}`, goSrc, StatusSuccess,
			[]string{"File: app/server.go", "Lines: 15", "Type: go", "Defines: Server, New, Serve", "Imports: 2"}},
		{"read_file ts", "READ_FILE", `{"file_path": "src/App.tsx"}`, tsSrc, StatusSuccess,
			[]string{"Type: typescript", "Defines: Props, App, useThing, Store", "Imports: 2"}},
		{"read_file plain input", "read_file", `app/main.py`, "import os\n\ndef main():\n    pass\n", StatusSuccess,
			[]string{"File: app/main.py", "Defines: main", "Imports: 1"}},
		{"read_file missing", "read_file", `{"path": "nope.txt"}`, "Error: File nope.txt not found", StatusError,
			[]string{"File: nope.txt", "Error: Error: File nope.txt not found"}},
		{"cat head", "bash", `{"command": "head -n 3 main.go"}`, "package main\n\nimport \"os\"\n", StatusSuccess,
			[]string{"File: main.go", "Lines: 1-3", "Imports: 1"}},
		{"tail", "bash", `{"command": "tail -20 log.txt"}`, "a\nb\n", StatusSuccess, []string{"File: log.txt", "Lines: last 20"}},
		{"go test", "bash", `{"command": "go test ./..."}`, "--- FAIL: TestX (0.00s)\nFAIL\nFAIL\tex.com/p\t0.1s\nexit status 1\n", StatusError,
			[]string{"$ go test ./...", "exit 1", "go test: 0 ok, 1 FAIL", "Failed: TestX, ex.com/p"}},
		{"execute exit code", "execute", `{"cmd": "make build"}`, "cc: error: x.c: No such file\nmake: *** [all] Error 1\nexit code 2", StatusError,
			[]string{"$ make build", "exit 2", "Error: cc: error: x.c: No such file"}},
		{"rg multi", "bash", `{"command": "rg -n TODO src"}`, "src/a.go:3:// TODO x\nsrc/a.go:9:// TODO y\nsrc/b.go:1:// TODO z\n", StatusSuccess,
			[]string{"Pattern: TODO", "In: src", "Matches: 3 in 2 files", "Top: src/a.go (2), src/b.go (1)"}},
		{"grep tool", "grep", `{"pattern": "func New", "path": "."}`, "a.go:10:func New() {}\nb.go:3:func NewB() {}\n", StatusSuccess,
			[]string{"Pattern: func New", "Matches: 2 in 2 files"}},
		{"write_file", "write_file", `{"path": "a.txt", "content": "x\ny\nz\n"}`, "Successfully wrote to a.txt", StatusSuccess,
			[]string{"File: a.txt", "Wrote 3 lines"}},
		{"str_replace editor", "str_replace_based_edit_tool", `{"command": "str_replace", "path": "a.py", "old_str": "a\nb", "new_str": "c"}`, "The file a.py has been edited.", StatusSuccess,
			[]string{"File: a.py", "Replaced 2 lines with 1"}},
		{"str_replace failure", "str_replace", `{"path": "a.py", "old_str": "zzz", "new_str": "c"}`, "No replacement was performed, old_str `zzz` did not appear verbatim in a.py.", StatusError,
			[]string{"Error: No replacement was performed"}},
		{"heredoc then script", "bash", `{"command": "cat > run.sh <<EOF\necho hi\nEOF\nbash run.sh"}`, "hi\n", StatusSuccess,
			[]string{"$ bash run.sh", "Wrote run.sh (1 line)", "First: hi"}},
		{"echo append", "bash", `{"command": "echo 'x = 1' >> conf.py"}`, "", StatusSuccess, []string{"Appended conf.py (1 line)"}},
		{"mv", "bash", `{"command": "mv a.py_new a.py"}`, "", StatusSuccess, []string{"Moved a.py from a.py_new"}},
		{"git log", "bash", `{"command": "git log -3"}`, "commit 0123456789abcdef0123456789abcdef01234567\nAuthor: A <a@b>\nDate:   now\n\n    Fix the parser\n\ncommit 1123456789abcdef0123456789abcdef01234567\nAuthor: A\n\n    Older\n", StatusSuccess,
			[]string{"Commits: 2", "Latest: Fix the parser"}},
		{"git log oneline", "git", `{"command": "log --oneline"}`, "abc1234 Fix parser\ndef5678 Add tests\n", StatusSuccess, []string{"Commits: 2", "Latest: abc1234 Fix parser"}},
		{"git status", "bash", `{"command": "git status"}`, "On branch main\nChanges not staged for commit:\n\tmodified:   a.go\n\tmodified:   b.go\n", StatusSuccess,
			[]string{"Branch: main", "Changed: 2 (a.go, b.go)"}},
		{"git diff stat", "bash", `{"command": "git diff --stat"}`, " a.go | 3 ++-\n b.go | 1 +\n 2 files changed, 3 insertions(+), 1 deletion(-)\n", StatusSuccess,
			[]string{"Diff: 2 files, +3 -1", "Files: a.go, b.go"}},
		{"git fatal", "bash", `{"command": "git log"}`, "fatal: not a git repository\n", StatusError, []string{"Error: fatal: not a git repository"}},
		{"curl", "bash", `{"command": "curl -i https://example.com"}`, "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><head><title>Example Domain</title></head><body>x</body></html>", StatusSuccess,
			[]string{"URL: https://example.com", "Status: 200 OK", "Type: text/html", "Title: Example Domain"}},
		{"http_get json", "http_get", `{"url": "https://api.example.com/items"}`, `[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]`, StatusSuccess,
			[]string{"Type: application/json", "JSON array: 2 items", "Item keys: id, name"}},
		{"http 404", "fetch", `{"url": "https://x.dev/nope"}`, "HTTP/2 404\ncontent-type: text/plain\n\nnot found", StatusError, []string{"Status: 404"}},
		{"json", "json", `{}`, `{"users": [1,2,3], "meta": {"page": 1, "total": 3}, "ok": true}`, StatusSuccess,
			[]string{"JSON object: 3 keys", "Keys: meta{2}, ok, users[3]"}},
		{"cat json file", "bash", `{"command": "cat package.json"}`, `{"name": "app", "scripts": {"test": "jest"}, "dependencies": {"a": "1", "b": "2"}}`, StatusSuccess,
			[]string{"File: package.json", "Type: json", "Keys: dependencies{2}, name, scripts{1}"}},
		{"script printing json", "bash", `{"command": "python dump.py"}`, `[{"id": 1}, {"id": 2}, {"id": 3}]`, StatusSuccess,
			[]string{"$ python dump.py", "JSON array: 3 items", "Item keys: id"}},
		{"json error", "json", `{}`, `{"error": "quota exceeded"}`, StatusError, []string{"Error: quota exceeded"}},
		{"sql psql", "sql", `{"query": "SELECT id, name FROM users"}`, " id | name\n----+------\n  1 | a\n  2 | b\n(2 rows)\n", StatusSuccess,
			[]string{"Query: SELECT id, name FROM users", "Rows: 2", "Columns: id, name"}},
		{"sql mysql", "run_sql", `SELECT 1`, "+----+------+\n| id | name |\n+----+------+\n|  1 | a    |\n+----+------+\n1 row in set (0.00 sec)\n", StatusSuccess,
			[]string{"Rows: 1", "Columns: id, name"}},
		{"sqlite3 in bash", "bash", `{"command": "sqlite3 app.db 'select * from t'"}`, "1|a\n2|b\n3|c\n", StatusSuccess, []string{"Rows: 3", "Columns: 2"}},
		{"sql error", "sql", `{"query": "SELEC 1"}`, "ERROR:  syntax error at or near \"SELEC\"\n", StatusError, []string{"Error: ERROR: syntax error"}},
	}
	reg := Default()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := reg.Extract(Call{ID: "1", Name: tc.tool, Arguments: tc.args}, tc.out)
			line := Format(s)
			assert.Equal(t, tc.status, s.Status, line)
			for _, f := range tc.facts {
				assert.Contains(t, line, f)
			}
		})
	}
}

// TestExceptionsSurviveTheCap checks that exception names stay in the line
// when a long command, a long test summary and many failing tests compete
// for the Format cap.
func TestExceptionsSurviveTheCap(t *testing.T) {
	cmd := "python -m pytest " + strings.Repeat("tests/very/long/path/to/test_module_name.py ", 4)
	var out strings.Builder
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&out, "FAILED tests/very/long/path/to/test_module_name.py::TestSomethingLong::test_case_number_%d - boom\n", i)
	}
	out.WriteString("Traceback (most recent call last):\n  File \"/very/long/absolute/path/to/the/module/file.py\", line 12, in f\ndjango.core.exceptions.ImproperlyConfiguredError: " + strings.Repeat("long message ", 20) + "\n")
	out.WriteString("E   KeyError: 'x'\nE   AttributeError: 'NoneType' object has no attribute 'y'\n")
	out.WriteString("==== 8 failed, 120 passed, 3 warnings in 12.34s ====\n")
	args, _ := json.Marshal(map[string]string{"command": cmd})
	line := Format(Default().Extract(Call{Name: "bash", Arguments: string(args)}, "<returncode>1</returncode>\n<output>\n"+out.String()+"</output>"))
	assert.LessOrEqual(t, len(line), FormatMaxBytes)
	for _, want := range []string{"exit 1", "django.core.exceptions.ImproperlyConfiguredError", "KeyError", "AttributeError", "8 failed, 120 passed"} {
		assert.Contains(t, line, want)
	}
}

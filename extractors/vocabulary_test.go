package extractors

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The tool vocabularies of other agent frameworks, with outputs in the
// forms their tools print (from the tools' definitions: Claude Code's
// Read/Write/Edit/MultiEdit/Grep/Glob/LS/Bash/TodoWrite/WebFetch/WebSearch/
// NotebookEdit, OpenHands' execute_bash, str_replace_editor,
// execute_ipython_cell and browser, Moatless' code-navigation tools,
// Aider-style edit blocks) and tools nobody registered, matched by the shape
// of their arguments.
func TestVocabularies(t *testing.T) {
	tests := []struct {
		name, tool, args, out string
		status                Status
		want                  []string // substrings of the formatted line
	}{
		// Claude Code.
		{"cc Read", "Read", `{"file_path": "/home/u/app/src/math_utils.py"}`,
			"     1→\"\"\"Math utility functions.\"\"\"\n     2→\n     3→def add_numbers(a, b):\n     4→    return a + b\n", StatusSuccess,
			[]string{"/home/u/app/src/math_utils.py"}},
		{"cc Write", "Write", `{"file_path": "/home/u/app/src/lib.rs", "content": "pub mod a;\npub mod b;\n"}`,
			"File created successfully at: /home/u/app/src/lib.rs", StatusSuccess, []string{"/home/u/app/src/lib.rs", "Wrote 2 lines"}},
		{"cc Edit", "Edit", `{"file_path": "/home/u/app/tests/test_x.py", "old_string": "assert True", "new_string": "assert f(1) == 2\nassert f(2) == 3"}`,
			"The file /home/u/app/tests/test_x.py has been updated successfully.", StatusSuccess, []string{"/home/u/app/tests/test_x.py", "Replaced 1 line with 2"}},
		{"cc MultiEdit", "MultiEdit", `{"file_path": "/home/u/app/main.go", "edits": [{"old_string": "a", "new_string": "b"}, {"old_string": "c\nd", "new_string": "e"}]}`,
			"Applied 2 edits to /home/u/app/main.go", StatusSuccess, []string{"/home/u/app/main.go", "2 edits"}},
		{"cc Grep files", "Grep", `{"pattern": "def add_numbers", "path": "/home/u/app", "output_mode": "files_with_matches"}`,
			"Found 2 files\n/home/u/app/src/math_utils.py\n/home/u/app/tests/test_math_utils.py\n", StatusSuccess,
			[]string{"def add_numbers", "/home/u/app/src/math_utils.py"}},
		{"cc Glob", "Glob", `{"pattern": "**/*.py"}`, "/tmp/p/src/a.py\n/tmp/p/src/b.py\n/tmp/p/tests/test_a.py\n", StatusSuccess,
			[]string{"**/*.py", "3"}},
		{"cc LS", "LS", `{"path": "/home/u/app"}`, "- /home/u/app/\n  - src/\n    - main.go\n  - go.mod\n", StatusSuccess, []string{"/home/u/app"}},
		{"cc Bash failing", "Bash", `{"command": "just check", "description": "Run quality checks"}`,
			"Exit code 127\npytest tests/ --cov=src\nsh: 1: pytest: Permission denied\nerror: Recipe `check` failed on line 2 with exit code 127", StatusError,
			[]string{"just check", "127"}},
		{"cc WebFetch", "WebFetch", `{"url": "https://go.dev/doc/effective_go", "prompt": "What does it say about errors?"}`,
			"The page says errors are values; functions return error as their last result and callers check it.", StatusSuccess,
			[]string{"https://go.dev/doc/effective_go"}},
		{"cc WebSearch", "WebSearch", `{"query": "langchaingo memory token buffer"}`,
			"Web search results for query: \"langchaingo memory token buffer\"\n\nLinks: [{\"title\":\"memory package\",\"url\":\"https://pkg.go.dev/github.com/tmc/langchaingo/memory\"}]\n\nThe memory package provides ConversationTokenBuffer...",
			StatusSuccess, []string{"langchaingo memory token buffer"}},
		{"cc NotebookEdit", "NotebookEdit", `{"notebook_path": "/home/u/nb/analysis.ipynb", "cell_id": "c3", "new_source": "df.describe()\ndf.head()", "edit_mode": "replace"}`,
			"Updated cell c3 with df.describe()", StatusSuccess, []string{"/home/u/nb/analysis.ipynb"}},
		{"cc TodoWrite", "TodoWrite", `{"todos": [{"content": "Port math_utils", "status": "pending", "activeForm": "Porting"}]}`,
			"Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.", StatusSuccess,
			[]string{"Todos have been modified successfully"}},
		// OpenHands.
		{"oh execute_bash", "execute_bash", `{"command": "python -m pytest tests/test_api.py -q"}`,
			"F.\n=================================== FAILURES ===================================\nE       KeyError: 'user'\n1 failed, 1 passed in 0.12s\n[The command completed with exit code 1.]\n[Current working directory: /workspace/proj]\n[Command finished with exit code 1]",
			StatusError, []string{"exit 1", "KeyError", "1 failed, 1 passed"}},
		{"oh editor view", "str_replace_editor", `{"command": "view", "path": "/workspace/proj/app.py"}`,
			"Here's the result of running `cat -n` on /workspace/proj/app.py:\n     1\timport os\n     2\tdef main():\n     3\t    pass\n", StatusSuccess,
			[]string{"/workspace/proj/app.py"}},
		{"oh editor create", "str_replace_editor", `{"command": "create", "path": "/workspace/proj/new.py", "file_text": "x = 1\n"}`,
			"File created successfully at: /workspace/proj/new.py", StatusSuccess, []string{"/workspace/proj/new.py"}},
		{"oh editor miss", "str_replace_editor", `{"command": "str_replace", "path": "/workspace/proj/app.py", "old_str": "def mian", "new_str": "def main"}`,
			"ERROR:\nNo replacement was performed, old_str `def mian` did not appear verbatim in /workspace/proj/app.py.", StatusError,
			[]string{"/workspace/proj/app.py", "No replacement was performed"}},
		{"oh ipython traceback", "execute_ipython_cell", `{"code": "import pandas as pd\ndf = pd.read_csv('data.csv')"}`,
			"\x1b[0;31m---------------------------------------------------------------------------\x1b[0m\n\x1b[0;31mFileNotFoundError\x1b[0m                         Traceback (most recent call last)\nCell \x1b[0;32mIn[1], line 2\x1b[0m\n\x1b[0;31mFileNotFoundError\x1b[0m: [Errno 2] No such file or directory: 'data.csv'\n[Jupyter current working directory: /workspace]",
			StatusError, []string{"FileNotFoundError"}},
		// Moatless.
		{"moatless FindClass", "FindClass", `{"file_pattern": null, "class_name": "Gcf"}`,
			"<observation>\nFound 13 code sections.\n\nViewed relevant code:\nlib/matplotlib/_pylab_helpers.py\n```\n    10\tclass Gcf:\n    11\t    \"\"\"Singleton\"\"\"\n```\n</observation>",
			StatusSuccess, []string{"lib/matplotlib/_pylab_helpers.py"}},
		{"moatless ViewCode nested files", "ViewCode", `{"files": [{"file_path": "tests/model_fields/test_foreignkey.py", "start_line": 1, "end_line": 9, "span_ids": []}]}`,
			"<observation>\ntests/model_fields/test_foreignkey.py\n```\n     1\tfrom django.db import models\n     2\tclass ForeignKeyTests(TestCase):\n```\n</observation>",
			StatusSuccess, []string{"tests/model_fields/test_foreignkey.py"}},
		{"moatless edit with test run", "str_replace_editor", `{"command": "str_replace", "path": "lib/m/tests/test_rc.py", "old_str": "a\nb", "new_str": "c"}`,
			"<observation>\nThe file lib/m/tests/test_rc.py has been edited.\n\nRunning 12 tests in the following files:\n * lib/m/tests/test_rc.py\n\n* FAILED lib/m/tests/test_rc.py>\n```\n>       with rc_context():\nE       NameError: name 'rc_context' is not defined\n```\n\n216 passed. 3 failed. 0 errors.\n</observation>",
			StatusError, []string{"lib/m/tests/test_rc.py", "NameError"}},
		// Aider-style edit block.
		{"aider edit_block", "edit_block", `{"path": "src/app.py", "search": "x = 1", "replace": "x = 2"}`, "Applied edit to src/app.py", StatusSuccess,
			[]string{"src/app.py", "Replaced 1 line with 1"}},
		// Tools nobody registered: matched by their arguments' shape.
		{"shape write", "save_document", `{"filename": "notes/plan.md", "content": "# Plan\n- a\n- b\n"}`, "saved", StatusSuccess,
			[]string{"notes/plan.md", "Wrote 3 lines"}},
		{"shape read", "load_config", `{"file_path": "/etc/app/config.yaml"}`, strings.Repeat("key: value\n", 40), StatusSuccess,
			[]string{"/etc/app/config.yaml", "Lines: 40"}},
		{"shape shell", "run_in_sandbox", `{"command": "go test ./..."}`, "--- FAIL: TestX (0.00s)\nFAIL\tgithub.com/a/b\t0.01s\nexit status 1", StatusError,
			[]string{"go test ./...", "TestX"}},
		{"business JSON", "get_order", `{"order_id": "ord_8812"}`,
			`{"order_id": "ord_8812", "customer_id": "cus_19", "status": "shipped", "total": 1240.5, "created_at": "2024-05-01", "items": [{"sku_code": "SKU-1", "qty": 2}, {"sku_code": "SKU-9", "qty": 1}], "tracking_number": "1Z999AA10123456784"}`,
			StatusSuccess, []string{"order ord_8812", "cus_19", "status shipped", "total 1240.5", "SKU-1", "SKU-9", "1Z999AA10123456784"}},
		{"business JSON error", "book_flight", `{}`, `{"error": "payment declined", "payment_id": "pm_77"}`, StatusError,
			[]string{"payment declined", "pm_77"}},
		{"go panic", "run_service", `{"args": []}`, "starting\npanic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:12 +0x1d\nexit status 2",
			StatusError, []string{"panic"}},
		{"java exception", "gradle_test", `{}`, "Exception in thread \"main\" java.lang.IllegalStateException: no config\n\tat com.acme.App.main(App.java:10)\nCaused by: java.io.FileNotFoundException: app.conf\n",
			StatusError, []string{"IllegalStateException", "FileNotFoundException"}},
		{"js uncaught", "node_run", `{}`, "/app/index.js:3\nUncaught TypeError: Cannot read properties of undefined (reading 'x')\n    at Object.<anonymous> (/app/index.js:3:9)\n" + strings.Repeat("x", 200),
			StatusError, []string{"TypeError"}},
		{"rust panic", "cargo_run", `{}`, "   Compiling app v0.1.0\nerror[E0425]: cannot find value `y` in this scope\n --> src/main.rs:3:13\nthread 'main' panicked at src/main.rs:5:5:\nboom\n",
			StatusError, []string{"E0425", "panic"}},
	}
	reg := Default()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := reg.Extract(Call{ID: "c1", Name: tc.tool, Arguments: tc.args}, tc.out)
			line := Format(s)
			assert.Equal(t, tc.status, s.Status, line)
			for _, w := range tc.want {
				assert.Contains(t, line, w)
			}
			if len(tc.out) > 300 {
				assert.Less(t, len(line), len(tc.out), "the fact line is smaller than the output")
			}
		})
	}
}

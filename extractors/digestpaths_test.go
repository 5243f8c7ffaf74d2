package extractors

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentcompact/compact/internal/callpaths"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// oneCall is a conversation of one tool call and its result.
func oneCall(tool, args, out string) []llms.MessageContent {
	return []llms.MessageContent{
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
			llms.ToolCall{ID: "c1", Type: "function", FunctionCall: &llms.FunctionCall{Name: tool, Arguments: args}}}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "c1", Content: out}}},
	}
}

// bashArgs is the JSON arguments of a bash call.
func bashArgs(cmd string) string {
	return fmt.Sprintf(`{"command": %q}`, cmd)
}

// groups returns d's path lists by the verb Render shows them with.
func groups(d Digest) map[string][]string {
	out := map[string][]string{}
	for g, l := range d.paths() {
		if len(l) > 0 {
			out[pathGroupVerb[g]] = l
		}
	}
	return out
}

// TestDigestPathsByCommand checks, for each command form, that the paths
// it names land in the group of what was done to them, and that every
// path the call names (internal/callpaths, the evaluation's definition)
// is in the rendered digest.
func TestDigestPathsByCommand(t *testing.T) {
	tests := []struct {
		name, tool, args, out string
		want                  map[string][]string
	}{
		{"grep pattern file", "bash", bashArgs(`grep -n "def parse" parser/parse.py`), "12:def parse(s):", map[string][]string{"searched": {"parser/parse.py"}}},
		{"grep -r dir", "bash", bashArgs(`grep -rn TODO src/ lib/util.go`), "src/a.go:3:// TODO", map[string][]string{"searched": {"src/", "lib/util.go"}}},
		{"rg", "bash", bashArgs(`rg -l Parse ./pkg`), "pkg/a.go", map[string][]string{"searched": {"./pkg"}}},
		{"ls dir", "bash", bashArgs("ls -la pkg/"), "total 0\na.go", map[string][]string{"listed": {"pkg/"}}},
		{"ls absolute", "bash", bashArgs("ls /testbed/tests"), "a.py", map[string][]string{"listed": {"/testbed/tests"}}},
		{"tree", "bash", bashArgs("tree docs"), "docs\n└── a.md", map[string][]string{"listed": {"docs"}}},
		{"find -name", "bash", bashArgs(`find src -name "*.py"`), "src/a.py", map[string][]string{"searched": {"src"}}},
		{"find listing", "bash", bashArgs("find tests/unit -type f"), "tests/unit/a.py", map[string][]string{"listed": {"tests/unit"}}},
		{"find piped to grep", "bash", bashArgs("find lib -type f | grep -v pyc"), "lib/a.py", map[string][]string{"searched": {"lib"}}},
		{"pytest node id", "bash", bashArgs("pytest tests/test_x.py::test_y -q"), "1 passed in 0.1s", map[string][]string{"tested": {"tests/test_x.py::test_y"}}},
		{"python -m pytest", "bash", bashArgs("python -m pytest tests/x.py -k slow"), "3 passed", map[string][]string{"tested": {"tests/x.py"}}},
		{"django runtests", "bash", bashArgs("python tests/runtests.py queries"), "OK", map[string][]string{"tested": {"tests/runtests.py"}}},
		{"cat two files", "bash", bashArgs("cat a.py b/c.py"), "x = 1\ny = 2", map[string][]string{"read": {"a.py", "b/c.py"}}},
		{"sed -n", "bash", bashArgs("sed -n 1,20p src/app.py"), "import os", map[string][]string{"read": {"src/app.py"}}},
		{"nl piped to sed", "bash", bashArgs("nl -ba django/db/models/deletion.py | sed -n '100,140p'"), "100 x", map[string][]string{"read": {"django/db/models/deletion.py"}}},
		{"head", "bash", bashArgs("head -n 5 notes.txt"), "a", map[string][]string{"read": {"notes.txt"}}},
		{"tail", "bash", bashArgs("tail -20 log/out.log"), "done", map[string][]string{"read": {"log/out.log"}}},
		{"wc", "bash", bashArgs("wc -l a.py lib/b.py"), "3 a.py\n4 lib/b.py\n7 total", map[string][]string{"read": {"a.py", "lib/b.py"}}},
		{"cat piped to grep", "bash", bashArgs("cat setup.cfg | grep version"), "version = 1", map[string][]string{"searched": {"setup.cfg"}}},
		{"script run", "bash", bashArgs("python reproduce.py --fast"), "ok", map[string][]string{"run": {"reproduce.py"}}},
		{"script path", "bash", bashArgs("./scripts/build.sh release"), "built", map[string][]string{"run": {"./scripts/build.sh"}}},
		{"python -c", "bash", bashArgs(`python -c "import a.b" data/in.csv`), "", map[string][]string{"run": {"data/in.csv"}}},
		{"git diff file", "bash", bashArgs("git diff src/a.go"), "diff --git a/src/a.go b/src/a.go", map[string][]string{"modified": {"src/a.go"}}},
		{"chmod", "bash", bashArgs("chmod +x run.sh"), "", map[string][]string{"run": {"run.sh"}}},
		{"sed -i", "bash", bashArgs(`sed -i 's/a/b/' lib/x.py`), "", map[string][]string{"modified": {"lib/x.py"}}},
		{"redirect", "bash", bashArgs("echo hi > out.txt"), "", map[string][]string{"created": {"out.txt"}}},
		{"append", "bash", bashArgs("echo hi >> notes/out.txt"), "", map[string][]string{"modified": {"notes/out.txt"}}},
		{"mkdir and touch", "bash", bashArgs("mkdir -p test_app && touch test_app/__init__.py && python3 reproduce_issue.py"), "",
			map[string][]string{"created": {"test_app", "test_app/__init__.py"}, "run": {"reproduce_issue.py"}}},
		{"heredoc", "bash", bashArgs("cat <<'EOF' > reproduce_issue_with_router.py\nimport os\nEOF\npython reproduce_issue_with_router.py"), "",
			map[string][]string{"created": {"reproduce_issue_with_router.py"}}},
		{"editor create", "str_replace_editor", `{"command": "create", "path": "tests/test_ext_autodoc_inherited_members.py", "file_text": "x"}`,
			"File created successfully at: tests/test_ext_autodoc_inherited_members.py", map[string][]string{"created": {"tests/test_ext_autodoc_inherited_members.py"}}},
		{"swe-agent create", "create", `{"command": "create reproduce.py", "path": "reproduce.py"}`, "[File: /repo/reproduce.py (1 lines total)]\n1:",
			map[string][]string{"created": {"reproduce.py"}}},
		{"write new file", "Write", `{"file_path": "/tmp/tmpqwh7888i/src/string_utils.rs", "content": "//! String utility functions.\n"}`,
			"File created successfully at: /tmp/tmpqwh7888i/src/string_utils.rs", map[string][]string{"created": {"/tmp/tmpqwh7888i/src/string_utils.rs"}}},
		{"chained", "bash", bashArgs("cd /testbed && grep -rn foo src/ && ls build && python x.py"), "ok", map[string][]string{
			"searched": {"src/"}, "listed": {"build"}, "run": {"x.py"}}},
		{"search_dir", "search_dir", `{"search_term": "Parse", "dir": "src"}`, `Found 2 matches for "Parse" in src:`, map[string][]string{"searched": {"src"}}},
		{"find_file", "find_file", `{"command": "find_file \"fields.py\" src", "file_name": "fields.py", "dir": "src"}`, `Found 1 matches for "fields.py" in src:`,
			map[string][]string{"searched": {"src", "fields.py"}}},
		{"list_dir", "list_dir", `{"path": "pkg"}`, "a.go\nb.go", map[string][]string{"listed": {"pkg"}}},
		{"open absolute", "open", `{"path": "/repo/src/a.py"}`, "[File: /repo/src/a.py (10 lines total)]\n1:x", map[string][]string{"read": {"/repo/src/a.py"}}},
		{"edit open_file", "edit", `{"command": "edit 4:4", "open_file": "/repo/tests/t.py", "text": "x"}`, "File updated.", map[string][]string{"modified": {"/repo/tests/t.py"}}},
	}
	reg := Default()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := reg.Digest(oneCall(tt.tool, tt.args, tt.out), Digest{})
			got := groups(d)
			for verb, paths := range tt.want {
				for _, p := range paths {
					assert.Contains(t, got[verb], p, "%s in %s: %v", p, verb, got)
				}
			}
			out := d.Render(2000, nil)
			for _, p := range callpaths.Call(tt.tool, tt.args) {
				assert.Contains(t, out, p, "every path the call names is rendered")
			}
		})
	}
}

// TestDigestPathsAsWritten checks that paths are kept as written: an
// absolute path and a relative one are two paths, two spellings of one
// path ("./pkg/", "pkg") one, the most recent spelling kept.
func TestDigestPathsAsWritten(t *testing.T) {
	var msgs []llms.MessageContent
	for i, cmd := range []string{"cat /repo/src/a.py", "cat src/a.py", "ls ./pkg/", "ls pkg"} {
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs,
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
				llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: "bash", Arguments: bashArgs(cmd)}}}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id, Content: "x"}}})
	}
	d := Default().Digest(msgs, Digest{})
	assert.Equal(t, []string{"src/a.py", "/repo/src/a.py"}, d.FilesRead)
	assert.Equal(t, []string{"pkg"}, d.FilesListed)
}

// TestDigestPathsCarryForward checks that the path lists of the previous
// digest follow the new ones and that prev is not modified.
func TestDigestPathsCarryForward(t *testing.T) {
	prev := Digest{FilesSearched: []string{"old/", "src/"}, FilesTested: []string{"tests/t.py::a"}}
	d := Default().Digest(oneCall("bash", bashArgs("grep -rn foo src/ new/"), "src/a.go:1:foo"), prev)
	assert.Equal(t, []string{"new/", "src/", "old/"}, d.FilesSearched, "the new first (the last named first), deduplicated")
	assert.Equal(t, []string{"tests/t.py::a"}, d.FilesTested)
	assert.Equal(t, []string{"old/", "src/"}, prev.FilesSearched, "prev not modified")
}

// TestDigestPathsRedacted checks that a secret in a path is redacted like
// one in a command.
func TestDigestPathsRedacted(t *testing.T) {
	d := Default().Digest(oneCall("bash", bashArgs("ls /tmp/AKIAIOSFODNN7EXAMPLE/ && cat /srv/AKIAIOSFODNN7EXAMPLE.txt"), "x"), Digest{})
	out := d.Render(500, nil)
	assert.NotContains(t, out, "AKIAIOSFODNN7EXAMPLE")
	for _, kp := range d.KeyPoints() {
		assert.NotContains(t, kp, "AKIAIOSFODNN7EXAMPLE")
	}
	assert.Contains(t, out, "[REDACTED:aws-key]")
}

// TestDigestManyCommandsKeepsEveryPath replays the case that lost paths:
// many commands summarized at once, whose paths only search, listing and
// test commands name, with long commands and errors around them. Every
// path stays in a digest of 500 tokens.
func TestDigestManyCommandsKeepsEveryPath(t *testing.T) {
	var msgs []llms.MessageContent
	var args []string
	long := strings.Repeat("--option-with-a-long-name=value ", 4)
	for i := 0; i < 60; i++ {
		var cmd, out string
		switch i % 4 {
		case 0:
			cmd = fmt.Sprintf("grep -rn 'some pattern number %d' pkg%d/mod%d.py %s", i, i, i, long)
			out = strings.Repeat(fmt.Sprintf("pkg%d/mod%d.py:1:some pattern\n", i, i), 30)
		case 1:
			cmd = fmt.Sprintf("ls -la dir%d/sub %s", i, long)
			out = "total 0\na.py\nb.py"
		case 2:
			cmd = fmt.Sprintf("find src%d -name '*.py' %s", i, long)
			out = "src/a.py"
		case 3:
			cmd = fmt.Sprintf("python -m pytest tests/test_m%d.py::test_case %s", i, long)
			out = fmt.Sprintf("Traceback (most recent call last):\n  File \"tests/test_m%d.py\", line 3\nValueError: a long message about what went wrong in case %d %s\n<returncode>1</returncode>", i, i, long)
		}
		id := fmt.Sprintf("c%d", i)
		args = append(args, bashArgs(cmd))
		msgs = append(msgs,
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
				llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: "bash", Arguments: args[i]}}}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id, Content: out}}})
	}
	msgs = append([]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "Fix it. Remember to keep the API stable.")}, msgs...)
	d := Default().Digest(msgs, Digest{Previous: strings.Repeat("Earlier work on the parser. ", 40)})
	out := d.Render(500, nil)
	assert.LessOrEqual(t, estimateTokens(out), 500)
	for _, a := range args {
		for _, p := range callpaths.Call("bash", a) {
			assert.Contains(t, out, p)
		}
	}
	assert.NotContains(t, out, "more paths")
	assert.Contains(t, out, "Files searched: ")
	assert.Contains(t, out, "| listed: dir1/sub dir13/sub ")
	assert.Contains(t, out, "| tested: tests/test_m11.py::test_case tests/test_m15.py::test_case ", "paths of one directory side by side")
}

// TestRenderPathsLastToGo checks the order in which Render gives things up
// under a tight budget: the previous summary and the long forms first,
// then whole items; the paths last, the newest identifiers with them.
func TestRenderPathsLastToGo(t *testing.T) {
	var d Digest
	d.Messages, d.ToolCalls = 90, 40
	for i := 0; i < 12; i++ {
		d.Instructions = append(d.Instructions, fmt.Sprintf("Remember rule %d: always keep the exported API of package %d stable across the refactor.", i, i))
		d.Errors = append(d.Errors, fmt.Sprintf("ValueError at pkg/m%d.py:%d: %s", i, i, strings.Repeat("a long tail of the message ", 6)))
		d.Commands = append(d.Commands, fmt.Sprintf("python -m pytest tests/test_m%d.py -x -q --tb=short --maxfail=1 -p no:cacheprovider (exit 1)", i))
		d.FilesSearched = append(d.FilesSearched, fmt.Sprintf("src/pkg%d/", i))
		d.FilesTested = append(d.FilesTested, fmt.Sprintf("tests/test_m%d.py::test_x", i))
		d.Entities = append(d.Entities, fmt.Sprintf("Helper%d", i))
	}
	d.Previous = strings.Repeat("The earlier work went through many steps. ", 30)
	full := d.Render(5000, nil)
	require.Contains(t, full, d.Commands[0], "room for the full forms")
	require.Contains(t, full, "Previous summary: ")

	out := d.Render(390, nil)
	assert.LessOrEqual(t, estimateTokens(out), 390)
	for _, p := range append(append([]string{}, d.FilesSearched...), d.FilesTested...) {
		assert.Contains(t, out, p, "paths are kept")
	}
	// The entities (mostly the names the agent wrote, many) have their
	// share and then the room the other sections leave: the newest first.
	assert.Contains(t, out, "Entities: Helper0, Helper1, Helper2", "the newest identifiers are kept")
	assert.NotContains(t, out, "Previous summary", "the narrative goes before paths and identifiers")
	assert.Contains(t, out, "Instructions: Remember rule 0")
	assert.Contains(t, out, "Commands: python -m pytest tests/test_m0.py -x -q --tb=short", "a command shrinks to its head")
	assert.NotContains(t, out, d.Commands[0])
	assert.Contains(t, out, "… (exit 1)", "and keeps its status")
	assert.NotContains(t, out, d.Errors[0], "an error loses its long tail")
	assert.Contains(t, out, "ValueError at pkg/m0.py:0: a long tail")
	assert.NotContains(t, out, "more paths")
}

// TestRenderPathsAloneOverflow checks that when the paths alone exceed the
// budget, the oldest of each group go and a note says how many.
func TestRenderPathsAloneOverflow(t *testing.T) {
	var d Digest
	d.Messages = 300
	d.Instructions = []string{"Remember to keep the API stable."}
	for i := 0; i < 50; i++ {
		d.FilesRead = append(d.FilesRead, fmt.Sprintf("pkg/read%02d.go", i))
		d.FilesSearched = append(d.FilesSearched, fmt.Sprintf("src/dir%02d/", i))
	}
	out := d.Render(120, nil)
	assert.LessOrEqual(t, estimateTokens(out), 120)
	assert.NotContains(t, out, "Instructions")
	shown := 0
	for _, l := range [][]string{d.FilesRead, d.FilesSearched} {
		for i, p := range l {
			if strings.Contains(out, p) {
				shown++
				assert.True(t, i == 0 || strings.Contains(out, l[i-1]), "a prefix of each list (most recent first): %s", p)
			}
		}
	}
	require.Positive(t, shown)
	assert.Contains(t, out, "pkg/read00.go")
	assert.Contains(t, out, "src/dir00/")
	assert.NotContains(t, out, "pkg/read49.go", "the oldest go")
	assert.Contains(t, out, fmt.Sprintf(" | +%d more paths", 100-shown))
	// So small that no path fits: the note alone, or the header alone.
	for budget := 1; budget < 40; budget++ {
		r := d.Render(budget, nil)
		assert.LessOrEqual(t, estimateTokens(r), budget)
	}
}

// TestDigestMentionedPaths checks that the paths a folded narrative names
// (an LLM summary) stay as paths when Render shortens the narrative, and
// are not repeated when it shows them.
func TestDigestMentionedPaths(t *testing.T) {
	prev := Digest{Previous: "We searched src/pkg and edited `lib/a.py`. The test tests/test_a.py::test_b passes; see https://example.com/x/y.html and notes.md."}
	d := Default().Digest(oneCall("bash", bashArgs("cat lib/a.py"), "x"), prev)
	assert.Equal(t, []string{"src/pkg", "tests/test_a.py::test_b", "notes.md"}, d.FilesMentioned, "lib/a.py is read: not repeated")
	full := d.Render(500, nil)
	assert.Contains(t, full, "Previous summary: We searched src/pkg")
	assert.NotContains(t, full, "mentioned:", "the narrative shows them")
	d.Previous = strings.Repeat("Long narrative. ", 200) + prev.Previous
	short := d.Render(60, nil)
	assert.LessOrEqual(t, estimateTokens(short), 60)
	assert.Contains(t, short, "| mentioned: notes.md src/pkg tests/test_a.py::test_b")
	assert.Contains(t, d.KeyPoints(), "Files mentioned: src/pkg, tests/test_a.py::test_b, notes.md")
}

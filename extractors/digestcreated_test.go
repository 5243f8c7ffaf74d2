package extractors

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tmc/langchaingo/llms"
)

// callRun is a conversation of tool calls, each answered by its output.
func callRun(calls ...[3]string) []llms.MessageContent {
	var msgs []llms.MessageContent
	for i, c := range calls {
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs,
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
				llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: c[0], Arguments: c[1]}}}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id, Content: c[2]}}})
	}
	return msgs
}

// TestDigestCreatedClaudeCode replays the call shapes and outputs of a
// Claude Code run of the evaluation corpus (../shared/eval/frameworks,
// claudecode-opus45 python-to-rust-port): a Write to a file read before
// updates it, a Write to a new file creates it (as the tool's own output
// says), a rejected Write creates nothing, and a file created then edited
// is listed once, as created.
func TestDigestCreatedClaudeCode(t *testing.T) {
	const dir = "/tmp/tmpmky4jpk3/"
	msgs := callRun(
		[3]string{"Write", `{"file_path": "` + dir + `src/lib.rs", "content": "//! Rust utility functions library.\n"}`,
			"<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>"},
		[3]string{"Read", `{"file_path": "` + dir + `src/lib.rs"}`, "     1→pub mod math_utils;\n"},
		[3]string{"Write", `{"file_path": "` + dir + `src/lib.rs", "content": "//! Rust utility functions library.\n"}`,
			"The file " + dir + "src/lib.rs has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n     1→//! Rust"},
		[3]string{"Write", `{"file_path": "` + dir + `src/math_utils.rs", "content": "//! Math utility functions.\n"}`,
			"File created successfully at: " + dir + "src/math_utils.rs"},
		[3]string{"Edit", `{"file_path": "` + dir + `src/math_utils.rs", "old_string": "a", "new_string": "b"}`,
			"The file " + dir + "src/math_utils.rs has been updated."},
		[3]string{"Bash", `{"command": "git diff .gitignore", "description": "Check .gitignore changes"}`,
			"diff --git a/.gitignore b/.gitignore\nindex 0a7e107..6fd0ee0 100644\n--- a/.gitignore\n+++ b/.gitignore\n@@ -5,3 +5,8 @@ __pycache__/\n htmlcov/\n+/target"},
		[3]string{"Write", `{"file_path": "` + dir + `.gitignore", "content": "/target\n"}`,
			"The file " + dir + ".gitignore has been updated. Here's the result of running `cat -n` on a snippet of the edited file:"},
	)
	d := Default().Digest(msgs, Digest{})
	assert.Equal(t, []string{dir + "src/math_utils.rs"}, d.FilesCreated)
	assert.ElementsMatch(t, []string{dir + ".gitignore", ".gitignore", dir + "src/lib.rs"}, d.FilesModified)
	out := d.Render(2000, nil)
	assert.Contains(t, out, "created: "+dir+"src/math_utils.rs")
	assert.NotContains(t, out, "created: "+dir+"src/lib.rs")
}

// TestDigestCreatedAlongTheChain checks that the created group follows
// the chain: a path created in an earlier digest and changed now stays
// created; a Write to a path an earlier digest named is a change; the
// key points carry the group and ParseKeyPoints reads it back.
func TestDigestCreatedAlongTheChain(t *testing.T) {
	reg := Default()
	first := reg.Digest(callRun(
		[3]string{"bash", bashArgs("cat <<'EOF' > reproduce.py\nimport x\nEOF"), ""},
		[3]string{"bash", bashArgs("cat setup.py"), "from setuptools import setup"},
	), Digest{})
	assert.Equal(t, []string{"reproduce.py"}, first.FilesCreated)
	assert.Empty(t, first.FilesModified)

	prev := ParseKeyPoints(first.KeyPoints())
	assert.Equal(t, first.FilesCreated, prev.FilesCreated, "key points carry the created group")
	second := reg.Digest(callRun(
		[3]string{"str_replace_editor", `{"command": "str_replace", "path": "reproduce.py", "old_str": "x", "new_str": "y"}`, "The file reproduce.py has been edited."},
		[3]string{"write_file", `{"path": "setup.py", "content": "x"}`, "ok"},
		[3]string{"write_file", `{"path": "docs/new.md", "content": "x"}`, "ok"},
	), prev)
	assert.Equal(t, []string{"docs/new.md", "reproduce.py"}, second.FilesCreated)
	assert.Equal(t, []string{"setup.py"}, second.FilesModified)
	assert.Equal(t, []string{"reproduce.py"}, prev.FilesCreated, "prev is not modified")
}

// TestDigestCreatedFailed checks that a create that failed creates
// nothing: its path stays in the index, not as created.
func TestDigestCreatedFailed(t *testing.T) {
	d := Default().Digest(callRun(
		[3]string{"str_replace_editor", `{"command": "create", "path": "src/a.py", "file_text": "x"}`,
			"ERROR:\nInvalid `path` parameter: src/a.py. File already exists at: src/a.py. Cannot overwrite files using command `create`."},
	), Digest{})
	assert.Empty(t, d.FilesCreated)
	assert.Contains(t, d.Render(2000, nil), "src/a.py")
}

package extractors

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuiltinsOnRealOutputs runs the default registry on real tool outputs
// of the evaluation corpus (testdata/outputs.jsonl) and checks the status,
// the facts and the metadata the digest relies on.
func TestBuiltinsOnRealOutputs(t *testing.T) {
	real := loadRealOutputs(t)
	tests := []struct {
		name     string
		status   Status
		facts    []string // substrings of Format's line, in any order
		absent   []string // substrings that must not appear
		read     string   // MetaFilesRead
		modified string   // MetaFilesModified
		exit     string   // MetaExitCode
		excs     string   // substring of MetaExceptions
	}{
		{name: "nl-sed-read", status: StatusSuccess, facts: []string{"File: sympy/polys/polytools.py", "Lines: 5970-6030", "Type: python", "Defines: _add_sqf_factor, _merge_sqf_factors, _generic_factor_list"}, read: "sympy/polys/polytools.py", exit: "0"},
		{name: "cat-read", status: StatusSuccess, facts: []string{"File: django/db/backends/postgresql/client.py", "Lines: 71", "Defines: _escape_pgpass, DatabaseClient, runshell_db, runshell", "Imports: 5"}, read: "django/db/backends/postgresql/client.py"},
		{name: "grep-single", status: StatusSuccess, facts: []string{"Pattern: class DecimalField", "In: django/db/models/fields/__init__.py", "Matches: 1"}},
		{name: "grep-nomatch", status: StatusSuccess, facts: []string{"exit 1", "No matches", "Pattern: NamedTemporaryFile"}, exit: "1"},
		{name: "grep-context", status: StatusSuccess, facts: []string{"Pattern: def equals", "Matches: 2"}},
		{name: "find-names", status: StatusSuccess, facts: []string{"Pattern: *postgres*", "In: tests", "Found: 4 paths", "tests/dbshell/test_postgresql.py"}},
		{name: "ls-la", status: StatusSuccess, facts: []string{"$ ls -la", "Found: 38 paths", ".astropy-root"}, absent: []string{"drwx", "total 508"}},
		{name: "ls-missing", status: StatusError, facts: []string{"exit 2", "No such file or directory"}, exit: "2"},
		{name: "heredoc-run-traceback", status: StatusError, facts: []string{"$ python3 reproduce_issue_with_router.py", "exit 1", "RuntimeError at .../django/conf/__init__.py:104: Settings already configured.", "Wrote reproduce_issue_with_router.py (78 lines)"}, modified: "reproduce_issue_with_router.py", exit: "1", excs: "RuntimeError"},
		{name: "runtests-fail", status: StatusError, facts: []string{"exit 1", "Tests: Ran 13 tests: FAILED (errors=6, skipped=2)", "test_accent", "UnicodeEncodeError", "FileNotFoundError"}, exit: "1", excs: "FileNotFoundError"},
		{name: "runtests-ok", status: StatusSuccess, facts: []string{"Tests: Ran 13 tests: OK (skipped=2)"}, exit: "0"},
		{name: "runtests-import-error", status: StatusError, facts: []string{"FAILED (errors=1)", "ImportError", "ModuleNotFoundError"}, excs: "ModuleNotFoundError"},
		{name: "pytest-pass", status: StatusSuccess, facts: []string{"Tests: 365 passed, 1 warnings"}},
		{name: "sed-i", status: StatusSuccess, facts: []string{"Edited django/db/models/fields/__init__.py: s/except decimal.InvalidOperation:/"}, modified: "django/db/models/fields/__init__.py"},
		{name: "submit-diff", status: StatusSuccess, facts: []string{"Diff: 2 files, +30 -52", "django/db/backends/postgresql/client.py (+10 -32)", "tests/dbshell/test_postgresql.py (+20 -20)"}},
		{name: "rm-files", status: StatusSuccess, facts: []string{"Removed: reproduce_issue.py, check_inspect.py, test_case_4.py, check_quantity_to_none.py, test_fix.py"}},
		{name: "timeout", status: StatusError, facts: []string{"$ python3 verify_bar.py", "timed out"}},
		{name: "elided", status: StatusPartial, facts: []string{"File: tests/admin_changelist/tests.py", "43221 chars elided"}},
		{name: "swe-open", status: StatusSuccess, facts: []string{"File: chall.py", "Lines: 1-15 of 15", "Defines: encryption", "Imports: 2"}, read: "chall.py"},
		{name: "swe-open-window", status: StatusSuccess, facts: []string{"File: pydicom/pixel_data_handlers/numpy_handler.py", "Lines: 273-372 of 372"}},
		{name: "swe-create", status: StatusSuccess, facts: []string{"File: decrypt.py", "Created"}, modified: "decrypt.py"},
		{name: "swe-edit", status: StatusSuccess, facts: []string{"missing_colon.py", "Edited lines 4-4: 1 new line", "Now 10 lines"}},
		{name: "swe-edit-rejected", status: StatusError, facts: []string{"Edit rejected: E999 IndentationError: unexpected indent"}, excs: "IndentationError"},
		{name: "swe-find-file", status: StatusSuccess, facts: []string{"Pattern: numpy_handler.py", "Matches: 3 in 3 files", "pixel_data_handlers/numpy_handler.py"}},
		{name: "swe-submit", status: StatusSuccess, facts: []string{"Diff: 1 file, +1 -1", "tests/missing_colon.py (+1 -1)"}, modified: "tests/missing_colon.py"},
		{name: "swe-python-traceback", status: StatusError, facts: []string{"$ python decrypt.py", "TypeError at", "decrypt.py:5: integer argument expected, got float"}, excs: "TypeError"},
		{name: "swe-decompile", status: StatusSuccess, facts: []string{"File: release", "Type: c", "Defines: main"}},
		{name: "swe-timed-out", status: StatusError, facts: []string{"$ ./rock", "timed out"}},
		{name: "fc-edit-replace", status: StatusSuccess, facts: []string{"missing_colon.py", "Replaced 1 line with 1"}},
		{name: "fc-insert", status: StatusSuccess, facts: []string{"File: /testbed/reproduce.py", "Inserted 9 lines", "Now 10 lines"}},
	}
	reg := Default()
	require.Len(t, real, len(tests), "every excerpt has a case")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := real[tc.name]
			require.True(t, ok, "excerpt %s in testdata/outputs.jsonl", tc.name)
			s := reg.Extract(r.call(), r.Output)
			line := Format(s)
			assert.Equal(t, tc.status, s.Status, line)
			for _, f := range tc.facts {
				assert.Contains(t, line, f)
			}
			for _, f := range tc.absent {
				assert.NotContains(t, line, f)
			}
			assert.LessOrEqual(t, len(line), FormatMaxBytes)
			assert.Less(t, len(line), len(r.Output)+200, "the summary is not longer than the output plus the command")
			if tc.read != "" {
				assert.Contains(t, strings.Split(s.Metadata[MetaFilesRead], "\n"), tc.read)
			}
			if tc.modified != "" {
				assert.Contains(t, strings.Split(s.Metadata[MetaFilesModified], "\n"), tc.modified)
			}
			if tc.exit != "" {
				assert.Equal(t, tc.exit, s.Metadata[MetaExitCode])
			}
			if tc.excs != "" {
				assert.Contains(t, s.Metadata[MetaExceptions], tc.excs)
			}
		})
	}
}

// TestBlankArgumentsNoPanic runs every built-in family on arguments whose
// command or path is blank (found by FuzzExtractorSecrets: a "command" of
// one space made the write extractor index an empty field list).
func TestBlankArgumentsNoPanic(t *testing.T) {
	for _, fam := range BuiltinFamilies() {
		e, ok := Builtin(fam)
		if !ok {
			t.Fatalf("no family %q", fam)
		}
		for _, args := range []string{`{"command":" "}`, `{"command":"\n\t"}`, `{"path":" ","command":" "}`, `{"cmd":"  "}`} {
			s := e.Extract(Call{Name: fam, Arguments: args}, "some output\n")
			if s.Status == "" {
				t.Errorf("%s %s: no status", fam, args)
			}
		}
	}
}

// TestDefaultDocListsBuiltins checks that the list in Default's doc comment
// is the table builtins: the same families with the same tool names, in
// the same order.
func TestDefaultDocListsBuiltins(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "builtins.go", nil, parser.ParseComments)
	require.NoError(t, err)
	var doc string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "Default" && fd.Recv == nil {
			doc = fd.Doc.Text()
		}
	}
	require.NotEmpty(t, doc, "Default has a doc comment")
	// The list items: "- family: name, name,\n  name." (continued lines
	// are indented).
	var listed []string
	for _, item := range regexp.MustCompile(`(?m)^ *- `).Split(doc, -1)[1:] {
		item, _, _ = strings.Cut(item, "\n\n")
		listed = append(listed, strings.Join(strings.Fields(item), " "))
	}
	var want []string
	for _, b := range builtins {
		want = append(want, b.family+": "+strings.Join(b.tools, ", ")+".")
	}
	assert.Equal(t, want, listed)
}

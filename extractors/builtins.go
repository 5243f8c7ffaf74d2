package extractors

// Default returns a new registry holding every built-in extractor,
// configured by opts. Each call returns a new registry; there is no shared
// global, so registering on one never affects another.
//
// The built-ins, by family (see [Builtin]) and the tool names they are
// registered under (matched case-insensitively):
//
//   - shell: bash, sh, zsh, shell, execute, exec, run, terminal, run_command,
//     run_shell_command, execute_command, run_terminal_cmd, command, cmd,
//     execute_bash, execute_ipython_cell, ipython, python, run_python,
//     bashoutput, run_in_terminal.
//   - read: read_file, read, view, view_file, open, open_file, cat,
//     file_read, get_file, goto, scroll_up, scroll_down, decompile,
//     disassemble, viewcode, view_code, notebookread.
//   - search: grep, rg, ripgrep, search, search_dir, search_file, find_file,
//     find, file_search, grep_search, codebase_search, glob, list_files,
//     list_dir, ls, semanticsearch, semantic_search, findclass, find_class,
//     findfunction, find_function, findcodesnippet, find_code_snippet,
//     websearch, web_search.
//   - write: write_file, write, create, create_file, edit, edit_file,
//     str_replace, str_replace_editor, str_replace_based_edit_tool, insert,
//     replace, apply_patch, multiedit, multi_edit, notebookedit,
//     notebook_edit, edit_block, replace_in_file, write_to_file.
//   - git: git, git_diff, git_log, git_status, diff, submit.
//   - http: http, http_get, http_request, fetch, fetch_url, web_fetch,
//     url_fetch, requests_get, curl, wget, browse, webfetch, browser.
//   - json: json, jq.
//   - sql: sql, query, run_sql, sql_query, execute_sql, sql_db_query,
//     sql_database, sqlite, psql, mysql.
//   - recall: recall.
//
// Tools registered under none of these names are matched by the shape of
// their arguments ([Shape], [Registry.RegisterShape]), first match wins: a
// path and new content (content, file_text, new_str, old_string, edits,
// ...) is a write; a pattern, regex, search_term, glob or query (without a
// url or sql) is a search; a path alone is a read; a url is a fetch; a
// command without a path is a shell command; sql is a query. The others go
// to the fallback, which describes JSON outputs by their identifiers.
//
// The shell extractor parses the command line and routes it to the
// analysis of the matching family (a cat is read like read_file, a grep
// like grep, ...). This list is the table builtins, written out; a test
// keeps the two equal.
func Default(opts ...RegistryOption) *Registry {
	r := NewRegistry(opts...)
	for _, b := range builtins {
		for _, n := range b.tools {
			r.Register(n, b.extract)
		}
	}
	for _, bs := range builtinShapes {
		for _, b := range builtins {
			if b.family == bs.family {
				r.shapes = append(r.shapes, shapeRule{shape: bs.shape, e: b.extract})
			}
		}
	}
	return r
}

// builtin is one family of built-in extractors.
type builtin struct {
	family  string   // the name [Builtin] knows it by
	extract Func     // unwrapped: a Registry redacts its results itself
	tools   []string // the tool names [Default] registers it under, in order
}

// builtins is the one table of the built-in extractors, in the order of
// [BuiltinFamilies]. It is read-only.
var builtins = [...]builtin{
	{"shell", shellExtract, []string{"bash", "sh", "zsh", "shell", "execute", "exec", "run", "terminal", "run_command",
		"run_shell_command", "execute_command", "run_terminal_cmd", "command", "cmd", "execute_bash", "execute_ipython_cell",
		"ipython", "python", "run_python", "bashoutput", "run_in_terminal"}},
	{"read", readExtract, []string{"read_file", "read", "view", "view_file", "open", "open_file", "cat", "file_read",
		"get_file", "goto", "scroll_up", "scroll_down", "decompile", "disassemble", "viewcode", "view_code", "notebookread"}},
	{"search", searchExtract, []string{"grep", "rg", "ripgrep", "search", "search_dir", "search_file", "find_file", "find",
		"file_search", "grep_search", "codebase_search", "glob", "list_files", "list_dir", "ls", "semanticsearch",
		"semantic_search", "findclass", "find_class", "findfunction", "find_function", "findcodesnippet",
		"find_code_snippet", "websearch", "web_search"}},
	{"write", writeExtract, []string{"write_file", "write", "create", "create_file", "edit", "edit_file", "str_replace",
		"str_replace_editor", "str_replace_based_edit_tool", "insert", "replace", "apply_patch", "multiedit", "multi_edit",
		"notebookedit", "notebook_edit", "edit_block", "replace_in_file", "write_to_file"}},
	{"git", gitExtract, []string{"git", "git_diff", "git_log", "git_status", "diff", "submit"}},
	{"http", httpExtract, []string{"http", "http_get", "http_request", "fetch", "fetch_url", "web_fetch", "url_fetch", "requests_get", "curl", "wget", "browse",
		"webfetch", "browser"}},
	{"json", jsonExtract, []string{"json", "jq"}},
	{"sql", sqlExtract, []string{"sql", "query", "run_sql", "sql_query", "execute_sql", "sql_db_query", "sql_database", "sqlite", "psql", "mysql"}},
	{"recall", recallExtract, []string{RecallToolName}},
}

// Builtin returns the built-in extractor of a family, one of
// [BuiltinFamilies] (the families [Default] lists); false for other names.
// Built-ins redact secrets in their facts themselves, so they can be used
// outside a [Registry].
func Builtin(family string) (Extractor, bool) {
	for _, b := range builtins {
		if b.family == family {
			return redacting(b.extract), true
		}
	}
	return nil, false
}

// BuiltinFamilies lists the families [Builtin] knows, in a fixed order (the
// order [Default] lists them in). The slice is new; the caller may change
// it.
func BuiltinFamilies() []string {
	out := make([]string, len(builtins))
	for i, b := range builtins {
		out[i] = b.family
	}
	return out
}

package extractors

// Default returns a new registry holding every built-in extractor,
// configured by opts. Each call returns a new registry; there is no shared
// global, so registering on one never affects another.
//
// The built-ins, by the tool names they are registered under (matched
// case-insensitively):
//
//   - shell: bash, sh, zsh, shell, execute, exec, run, terminal, run_command,
//     run_shell_command, execute_command, run_terminal_cmd, command, cmd.
//     The command line is parsed and routed to the matching analysis below.
//   - file reads: read_file, read, view, view_file, open, open_file, cat,
//     file_read, get_file, goto, scroll_up, scroll_down, decompile,
//     disassemble.
//   - searches: grep, rg, ripgrep, search, search_dir, search_file,
//     find_file, find, file_search, grep_search, codebase_search, glob,
//     list_files, list_dir, ls.
//   - writes and edits: write_file, write, create, create_file, edit,
//     edit_file, str_replace, str_replace_editor,
//     str_replace_based_edit_tool, insert, replace, apply_patch.
//   - git and submissions: git, git_diff, git_log, git_status, diff, submit.
//   - HTTP: http, http_get, http_request, fetch, fetch_url, web_fetch,
//     url_fetch, requests_get, curl, wget, browse.
//   - JSON: json, jq.
//   - SQL: sql, query, run_sql, sql_query, execute_sql, sql_db_query,
//     sql_database, sqlite, psql, mysql.
func Default(opts ...RegistryOption) *Registry {
	r := NewRegistry(opts...)
	registerBuiltins(r)
	return r
}

// builtinNames lists the built-in extractors by tool name.
var builtinNames = map[string][]string{
	"shell": {"bash", "sh", "zsh", "shell", "execute", "exec", "run", "terminal", "run_command",
		"run_shell_command", "execute_command", "run_terminal_cmd", "command", "cmd"},
	"read": {"read_file", "read", "view", "view_file", "open", "open_file", "cat", "file_read",
		"get_file", "goto", "scroll_up", "scroll_down", "decompile", "disassemble"},
	"search": {"grep", "rg", "ripgrep", "search", "search_dir", "search_file", "find_file", "find",
		"file_search", "grep_search", "codebase_search", "glob", "list_files", "list_dir", "ls"},
	"write": {"write_file", "write", "create", "create_file", "edit", "edit_file", "str_replace",
		"str_replace_editor", "str_replace_based_edit_tool", "insert", "replace", "apply_patch"},
	"git":  {"git", "git_diff", "git_log", "git_status", "diff", "submit"},
	"http": {"http", "http_get", "http_request", "fetch", "fetch_url", "web_fetch", "url_fetch", "requests_get", "curl", "wget", "browse"},
	"json": {"json", "jq"},
	"sql":  {"sql", "query", "run_sql", "sql_query", "execute_sql", "sql_db_query", "sql_database", "sqlite", "psql", "mysql"},
}

// Builtin returns the built-in extractor of a family: "shell", "read",
// "search", "write", "git", "http", "json" or "sql"; false for other names.
// Built-ins redact secrets in their facts themselves, so they can be used
// outside a [Registry].
func Builtin(family string) (Extractor, bool) {
	f, ok := builtinFunc(family)
	if !ok {
		return nil, false
	}
	return redacting(f), true
}

// builtinFunc returns the unwrapped built-in of a family; a Registry
// redacts its results itself.
func builtinFunc(family string) (Func, bool) {
	var f Func
	switch family {
	case "shell":
		f = shellExtract
	case "read":
		f = readExtract
	case "search":
		f = searchExtract
	case "write":
		f = writeExtract
	case "git":
		f = gitExtract
	case "http":
		f = httpExtract
	case "json":
		f = jsonExtract
	case "sql":
		f = sqlExtract
	default:
		return nil, false
	}
	return f, true
}

// BuiltinFamilies lists the families [Builtin] knows, in a fixed order.
func BuiltinFamilies() []string {
	return []string{"shell", "read", "search", "write", "git", "http", "json", "sql"}
}

// registerBuiltins registers the built-in extractors on r.
func registerBuiltins(r *Registry) {
	for _, fam := range BuiltinFamilies() {
		e, _ := builtinFunc(fam)
		for _, n := range builtinNames[fam] {
			r.Register(n, e)
		}
	}
}

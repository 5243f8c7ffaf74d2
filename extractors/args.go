package extractors

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/agentcompact/compact/internal/callpaths"
)

// maxArgsBytes bounds the arguments string that is decoded.
const maxArgsBytes = 1 << 20

// callArgs are the decoded JSON arguments of a call. When the arguments are
// not a JSON object, raw holds them as given (some agents pass a plain
// string as the tool input).
type callArgs struct {
	m   map[string]any
	raw string
}

// parseArgs decodes a call's arguments; it never fails.
func parseArgs(s string) callArgs {
	s = strings.TrimSpace(s)
	if len(s) > maxArgsBytes {
		return callArgs{raw: s[:maxArgsBytes]}
	}
	if strings.HasPrefix(s, "{") {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err == nil {
			return callArgs{m: m}
		}
	}
	if strings.HasPrefix(s, `"`) {
		var str string
		if err := json.Unmarshal([]byte(s), &str); err == nil {
			return callArgs{raw: str}
		}
	}
	return callArgs{raw: s}
}

// str returns the first of keys that holds a string (or number), else "".
func (a callArgs) str(keys ...string) string {
	for _, k := range keys {
		v, ok := a.m[k]
		if !ok {
			continue
		}
		switch x := v.(type) {
		case string:
			if x != "" {
				return x
			}
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64)
		case bool:
			return strconv.FormatBool(x)
		case []any:
			// A command given as an argv list.
			parts := make([]string, 0, len(x))
			for _, p := range x {
				if s, ok := p.(string); ok {
					parts = append(parts, s)
				}
			}
			if len(parts) > 0 {
				return strings.Join(parts, " ")
			}
		}
	}
	return ""
}

// int returns the first of keys that holds an integer.
func (a callArgs) int(keys ...string) (int, bool) {
	for _, k := range keys {
		switch x := a.m[k].(type) {
		case float64:
			return int(x), true
		case string:
			if n, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}

// argKey is the argument name langchaingo's OpenAI functions agent gives a
// tool's single string input ({"__arg1": "..."}); it is the last resort of
// every key list.
const argKey = "__arg1"

// Argument names used by common tools.
var (
	pathKeys    = []string{"path", "file_path", "filepath", "filename", "file", "file_name", "notebook_path", "target_file", "open_file", "relative_path", "abs_path", "absolute_path", "target", "dest", "destination", argKey}
	commandKeys = []string{"command", "cmd", "script", "shell_command", "commandLine", "command_line", "input", "code", argKey}
	patternKeys = []string{"pattern", "search_term", "query", "regex", "search", "term", "q", "glob", "name", argKey}
	dirKeys     = []string{"dir", "directory", "path", "root", "cwd", "folder", argKey}
	urlKeys     = []string{"url", "uri", "href", "link", "input", argKey}
	sqlKeys     = []string{"query", "sql", "statement", "input", argKey}
)

// namedPath returns the first path the call's arguments name in any shape
// (internal/callpaths: nested objects and arrays, any argument naming a
// file or a directory), "" when none: the path of a call whose arguments
// have none of pathKeys at the top (Moatless' ViewCode names its files as
// {"files": [{"file_path": ...}]}).
func namedPath(call Call) string {
	if ps := callpaths.Call(call.Name, call.Arguments); len(ps) > 0 {
		return ps[0]
	}
	return ""
}

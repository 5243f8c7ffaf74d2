package callpaths

import (
	"encoding/json"
	"strings"
)

// ShellTools are the tools (lower-cased) whose "command" argument is a
// shell command line.
var ShellTools = map[string]bool{"bash": true, "sh": true, "shell": true, "execute_bash": true, "run_command": true, "terminal": true}

// PathArgs are the argument names that hold a path for the other tools.
var PathArgs = []string{"path", "file_path", "file", "filename", "file_name", "open_file", "dir"}

// Call returns the paths a tool call names, given its name and its JSON
// arguments: for a shell tool ([ShellTools]), the paths of its "command"
// ([Command]); for the others, the values of [PathArgs] that are path words
// (not ".", "/" nor an option), cleaned by [Clean]. In order, repeats
// kept; nil when the arguments are not a JSON object.
func Call(name, args string) []string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return nil
	}
	var out []string
	if ShellTools[strings.ToLower(name)] {
		if cmd, ok := m["command"].(string); ok {
			out = append(out, Command(cmd)...)
		}
		return out
	}
	for _, k := range PathArgs {
		v, ok := m[k].(string)
		if !ok {
			continue
		}
		v = Clean(strings.TrimSpace(v))
		if v == "" || v == "." || v == "/" || strings.HasPrefix(v, "-") || !pathWordRe.MatchString(v) {
			continue
		}
		out = append(out, v)
	}
	return out
}

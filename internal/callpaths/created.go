package callpaths

import (
	"encoding/json"
	"strings"

	"github.com/agentcompact/compact/internal/shellwords"
)

// Creation is a path a tool call creates ([Created]).
type Creation struct {
	// Path is the path, cleaned by [Clean] as [Call] returns it.
	Path string
	// MayExist says the call also succeeds on an existing path, which it
	// writes anew or leaves as it is (Claude Code's Write, write_file, a
	// shell ">" redirection, tee, touch, mkdir -p): it creates the path
	// only when the path did not exist, which the caller decides (the
	// digest: when no earlier call of the run named it). False for the
	// calls that fail on an existing file (an editor's "create" command,
	// create_file, Moatless' CreateFile, SWE-agent's create).
	MayExist bool
}

// createTools are the tools (lower-cased, without '_' and '-') that create
// the files their path arguments name; true: they also overwrite an
// existing one (Claude Code's Write, write_file, Cline's write_to_file).
var createTools = map[string]bool{
	"create": false, "createfile": false, "newfile": false,
	"write": true, "writefile": true, "writetofile": true,
}

// Created returns the paths a tool call creates, given its name and its
// JSON arguments, in their order, repeats kept:
//   - a tool of [createTools] (create, create_file, CreateFile, Write,
//     write_file, write_to_file): every path its arguments name ([Call]),
//     or the word after "create" of its "command" ("create reproduce.py",
//     SWE-agent);
//   - another non-shell tool whose top-level "command" is "create"
//     (str_replace_editor and the editors of SWE-agent, OpenHands and
//     Moatless): the paths its arguments name, or the word after "create"
//     of a command "create FILE";
//   - a shell tool ([ShellTools]): the targets of ">" redirections (not
//     ">>": appending changes a file), the files of tee (not tee -a),
//     touch and mkdir, each MayExist.
//
// Nil when the call creates nothing or the arguments are not a JSON
// object. Appended-to, moved and copied files are not creations here.
func Created(name, args string) []Creation {
	tool := strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(name))
	if ShellTools[strings.ToLower(name)] {
		return shellCreated(args)
	}
	mayExist, creates := createTools[tool]
	if !creates && !strings.Contains(args, "create") {
		return nil // cheap: no "command": "create" either
	}
	var top struct {
		Command any `json:"command"`
	}
	if err := json.Unmarshal([]byte(args), &top); err != nil {
		return nil
	}
	cmd, _ := top.Command.(string)
	words := strings.Fields(cmd)
	isCreate := len(words) > 0 && words[0] == "create"
	if !creates && !isCreate {
		return nil
	}
	paths := Call(name, args)
	if len(paths) == 0 && isCreate && len(words) > 1 {
		if p, ok := pathValue(words[1]); ok {
			paths = []string{p}
		}
	}
	out := make([]Creation, 0, len(paths))
	for _, p := range paths {
		out = append(out, Creation{Path: p, MayExist: mayExist})
	}
	return out
}

// shellCreated returns the paths the top-level "command" of a shell
// tool's arguments creates (see [Created]).
func shellCreated(args string) []Creation {
	var top struct {
		Command any `json:"command"`
	}
	if err := json.Unmarshal([]byte(args), &top); err != nil {
		return nil
	}
	cmd, _ := top.Command.(string)
	var out []Creation
	add := func(p string) {
		if strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/") {
			return
		}
		if p, ok := pathValue(p); ok {
			out = append(out, Creation{Path: p, MayExist: true})
		}
	}
	for _, c := range shellwords.Parse(cmd) {
		if f, appends := c.OutFile(); f != "" && !appends {
			add(f)
		}
		for _, f := range createdOperands(c) {
			add(f)
		}
	}
	return out
}

// createdOperands returns the files or directories a shell command
// creates by its operands: those of touch and mkdir, and of tee unless it
// appends (-a, --append).
func createdOperands(c shellwords.Command) []string {
	name := c.Name()
	if name != "touch" && name != "mkdir" && name != "tee" {
		return nil
	}
	var out []string
	skip := false
	for _, a := range c.Args[1:] {
		switch {
		case skip:
			skip = false
		case a == "-a" || a == "--append":
			if name == "tee" {
				return nil
			}
		case name == "mkdir" && a == "-m", name == "touch" && (a == "-d" || a == "-r" || a == "-t"):
			skip = true // the option's value: a mode, a date, a reference file
		case strings.HasPrefix(a, "-"):
		default:
			out = append(out, a)
		}
	}
	return out
}

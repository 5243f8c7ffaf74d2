package shellwords

import (
	"path"
	"strings"
)

// Redirection is one redirection of a [Command].
type Redirection struct {
	// Op is the operator with its file descriptor: ">", ">>", "<", "&>",
	// "2>", "2>&", "<<<", ...
	Op string
	// Target is the file, or "&N" for a duplication of descriptor N.
	Target string
}

// Command is one simple command of a command line.
type Command struct {
	// Args are the words, quotes removed, from the command word on: the
	// leading assignments, keywords and wrappers are dropped
	// ([StripWrappers]).
	Args []string
	// Redirections are the command's redirections other than
	// here-documents, in order.
	Redirections []Redirection
	// HereDoc is the body of the here-document fed to the command (the
	// last one when there are several); HasHereDoc says whether there is
	// one.
	HereDoc    string
	HasHereDoc bool
	// Sep is the operator before the command: "" for the first one, "&&",
	// "||", "|", "&", "\n" or ";" (which also stands for ";;", "(", ")",
	// "{" and "}").
	Sep string
}

// Name returns the base name of the command word ("python3" for
// "/usr/bin/python3"), "" when there is none.
func (c Command) Name() string {
	if len(c.Args) == 0 {
		return ""
	}
	return path.Base(c.Args[0])
}

// OutFile returns the file the command's standard output is written to
// (>, >>, 1>, &>, >|, ...; not /dev/null nor a duplicated descriptor) and
// whether it is appended to; "" when there is none.
func (c Command) OutFile() (file string, appends bool) {
	for _, r := range c.Redirections {
		switch r.Op {
		case ">", ">>", "&>", "1>", "1>>", ">|", "&>>":
			if r.Target != "" && r.Target != "/dev/null" && !strings.HasPrefix(r.Target, "&") {
				return r.Target, r.Op == ">>" || r.Op == "1>>" || r.Op == "&>>"
			}
		}
	}
	return "", false
}

// Parse splits a command line into its simple commands, in order; a
// command with neither words, redirections nor a here-document (as between
// "&&" and ";" in "a && ; b") is left out. It reads at most the first
// [MaxBytes] bytes of line and never fails: odd input yields odd words.
func Parse(line string) []Command {
	var b builder
	scan(line, b.token)
	b.endCommand("")
	return b.cmds
}

// builder assembles the tokens of a scan into commands.
type builder struct {
	cmds []Command
	cur  Command
	// here holds, for each here-document of the current line in order, the
	// index in cmds of its command (-1: its command is not done yet; -2:
	// its command was empty and dropped).
	here []int
	// unassigned is the index in here of the first here-document whose
	// command is not done yet (those form a suffix of here).
	unassigned int
	bodies     int // the HereBody tokens seen for here
	nextSep    string
}

// token adds one token.
func (b *builder) token(t Token) {
	switch t.Kind {
	case Word:
		b.cur.Args = append(b.cur.Args, t.Text)
	case Operator:
		b.endCommand(t.Text)
	case Redirect:
		b.cur.Redirections = append(b.cur.Redirections, Redirection{Op: t.Op, Target: t.Text})
	case HereDoc:
		b.here = append(b.here, -1)
		b.cur.HasHereDoc = true
	case HereBody:
		b.hereBody(t.Text)
	}
}

// endCommand closes the current command; op is the operator that follows
// it.
func (b *builder) endCommand(op string) {
	c := b.cur
	c.Sep = b.nextSep
	c.Args = StripWrappers(c.Args)
	owner := -2 // nothing to attach the command's here-documents to
	if len(c.Args) > 0 || len(c.Redirections) > 0 || c.HasHereDoc {
		b.cmds = append(b.cmds, c)
		owner = len(b.cmds) - 1
	}
	for k := b.unassigned; k < len(b.here); k++ {
		b.here[k] = owner
	}
	b.unassigned = len(b.here)
	b.cur = Command{}
	b.nextSep = separator(op)
}

// hereBody attaches the body of the next here-document of the line to its
// command.
func (b *builder) hereBody(body string) {
	if b.bodies < len(b.here) {
		if k := b.here[b.bodies]; k >= 0 && k < len(b.cmds) {
			b.cmds[k].HereDoc = body
			b.cmds[k].HasHereDoc = true
		}
	}
	b.bodies++
	if b.bodies >= len(b.here) {
		b.here, b.unassigned, b.bodies = b.here[:0], 0, 0
	}
}

// separator maps a control operator to a [Command.Sep].
func separator(op string) string {
	switch op {
	case ";;", "(", ")", "{", "}":
		return ";"
	case "|&":
		return "|"
	}
	return op
}

// wrappers run the rest of their arguments as the command (shell keywords
// count as wrappers).
var wrappers = map[string]bool{
	"sudo": true, "time": true, "nohup": true, "exec": true, "command": true,
	"then": true, "do": true, "else": true, "if": true, "while": true, "until": true,
	"!": true, "stdbuf": true, "nice": true, "env": true,
}

// StripWrappers returns args from the command word on: leading variable
// assignments (A=b), shell keywords (if, then, do, !, ...) and wrappers
// (sudo, env, nice, stdbuf, time, nohup, exec, command, with their options;
// timeout with its options and duration) are dropped. It returns a
// subslice of args.
func StripWrappers(args []string) []string {
	for len(args) > 0 {
		a := args[0]
		switch {
		case isAssignment(a):
			args = args[1:]
		case wrappers[a]:
			args = args[1:]
			if a == "env" || a == "sudo" || a == "nice" || a == "stdbuf" {
				args = skipOptions(args)
			}
		case a == "timeout":
			args = skipOptions(args[1:])
			if len(args) > 0 {
				args = args[1:] // the duration
			}
		default:
			return args
		}
	}
	return args
}

// skipOptions drops the leading words that start with "-".
func skipOptions(args []string) []string {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		args = args[1:]
	}
	return args
}

// isAssignment reports whether w is NAME=value.
func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := w[j]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || j > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

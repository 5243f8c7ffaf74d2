package extractors

import (
	"path"
	"strings"
)

// maxShellCommandBytes bounds the part of a command line that is parsed.
const maxShellCommandBytes = 256 << 10

// redirect is one redirection of a simple command.
type redirect struct {
	op     string // ">", ">>", "<", "&>", "2>", ...
	target string
}

// simpleCmd is one simple command of a shell command line.
type simpleCmd struct {
	args      []string // words, quotes removed; leading assignments and wrappers dropped
	redirects []redirect
	heredoc   string // body of a here-document fed to the command, if any
	hasHere   bool
	sep       string // operator before this command: "", "&&", "||", ";", "|", "&", "\n"
}

// name returns the base name of the command word, "" when none.
func (c simpleCmd) name() string {
	if len(c.args) == 0 {
		return ""
	}
	return path.Base(c.args[0])
}

// outFile returns the file the command's stdout is written to (> or >>),
// or "".
func (c simpleCmd) outFile() (string, bool) {
	for _, r := range c.redirects {
		switch r.op {
		case ">", ">>", "&>", "1>", "1>>", ">|", "&>>":
			if r.target != "" && r.target != "/dev/null" && !strings.HasPrefix(r.target, "&") {
				return r.target, r.op == ">>" || r.op == "1>>" || r.op == "&>>"
			}
		}
	}
	return "", false
}

// parseShell splits a shell command line into simple commands. It handles
// quotes, escapes, comments, operators (&& || | ; & newline), redirections
// and here-documents; it is not a full shell parser (no expansion), but it
// never fails: odd input yields odd words. It runs in linear time.
func parseShell(line string) []simpleCmd {
	if len(line) > maxShellCommandBytes {
		line = line[:maxShellCommandBytes]
	}
	p := shellParser{s: line}
	p.run()
	return p.cmds
}

type shellParser struct {
	s       string
	i       int
	cmds    []simpleCmd
	cur     simpleCmd
	word    strings.Builder
	inWord  bool
	pending []pendingHere // here-documents whose bodies start at the next newline
	// unassigned is the index in pending of the first here-document not yet
	// attached to a command (those form a suffix of pending).
	unassigned int
	nextSep    string
}

type pendingHere struct {
	cmd   int // index in cmds (the command is flushed before the body is read)
	delim string
	strip bool
}

func (p *shellParser) endWord() {
	if !p.inWord {
		return
	}
	w := p.word.String()
	p.word.Reset()
	p.inWord = false
	p.cur.args = append(p.cur.args, w)
}

// endCmd closes the current simple command; sep is the operator that
// follows it.
func (p *shellParser) endCmd(sep string) {
	p.endWord()
	c := p.cur
	c.sep = p.nextSep
	c.args = cleanArgs(c.args)
	if len(c.args) > 0 || len(c.redirects) > 0 || c.hasHere {
		p.cmds = append(p.cmds, c)
		// Attach pending here-docs of this command to its stored copy.
		for k := p.unassigned; k < len(p.pending); k++ {
			p.pending[k].cmd = len(p.cmds) - 1
		}
	} else {
		// Nothing to attach to: drop pending here-docs of an empty command.
		for k := p.unassigned; k < len(p.pending); k++ {
			p.pending[k].cmd = -2
		}
	}
	p.unassigned = len(p.pending)
	p.cur = simpleCmd{}
	p.nextSep = sep
}

// readHereBodies consumes the bodies of pending here-documents, starting at
// p.i (just after a newline).
func (p *shellParser) readHereBodies() {
	for _, h := range p.pending {
		var body strings.Builder
		for p.i < len(p.s) {
			j := strings.IndexByte(p.s[p.i:], '\n')
			var ln string
			if j < 0 {
				ln = p.s[p.i:]
				p.i = len(p.s)
			} else {
				ln = p.s[p.i : p.i+j]
				p.i += j + 1
			}
			cmp := strings.TrimRight(ln, "\r")
			if h.strip {
				cmp = strings.TrimLeft(cmp, "\t")
			}
			if cmp == h.delim {
				break
			}
			body.WriteString(ln)
			body.WriteByte('\n')
		}
		if h.cmd >= 0 && h.cmd < len(p.cmds) {
			p.cmds[h.cmd].heredoc = body.String()
			p.cmds[h.cmd].hasHere = true
		}
	}
	p.pending = p.pending[:0]
	p.unassigned = 0
}

func (p *shellParser) run() {
	s := p.s
	for p.i < len(s) {
		c := s[p.i]
		switch {
		case c == '\\':
			if p.i+1 < len(s) {
				if s[p.i+1] == '\n' {
					p.i += 2
					continue
				}
				p.word.WriteByte(s[p.i+1])
				p.inWord = true
				p.i += 2
				continue
			}
			p.i++
		case c == '\'':
			j := strings.IndexByte(s[p.i+1:], '\'')
			if j < 0 {
				p.word.WriteString(s[p.i+1:])
				p.i = len(s)
			} else {
				p.word.WriteString(s[p.i+1 : p.i+1+j])
				p.i += j + 2
			}
			p.inWord = true
		case c == '"':
			p.i++
			for p.i < len(s) && s[p.i] != '"' {
				if s[p.i] == '\\' && p.i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[p.i+1]) >= 0 {
					if s[p.i+1] != '\n' {
						p.word.WriteByte(s[p.i+1])
					}
					p.i += 2
					continue
				}
				p.word.WriteByte(s[p.i])
				p.i++
			}
			p.i++
			p.inWord = true
		case c == '$' && p.i+1 < len(s) && s[p.i+1] == '(':
			// Command substitution: keep it as part of the word, balanced.
			depth := 0
			start := p.i
			for p.i < len(s) {
				if s[p.i] == '(' {
					depth++
				} else if s[p.i] == ')' {
					depth--
					if depth == 0 {
						p.i++
						break
					}
				}
				p.i++
			}
			p.word.WriteString(s[start:p.i])
			p.inWord = true
		case c == '#' && !p.inWord:
			j := strings.IndexByte(s[p.i:], '\n')
			if j < 0 {
				p.i = len(s)
			} else {
				p.i += j
			}
		case c == '\n':
			p.endCmd("\n")
			p.i++
			if len(p.pending) > 0 {
				p.readHereBodies()
			}
		case c == ' ' || c == '\t' || c == '\r':
			p.endWord()
			p.i++
		case c == ';' || c == '(' || c == ')' || c == '{' && !p.inWord && p.i+1 < len(s) && (s[p.i+1] == ' ' || s[p.i+1] == '\n') || c == '}' && !p.inWord:
			if c == ';' && p.i+1 < len(s) && s[p.i+1] == ';' {
				p.i++
			}
			p.endCmd(";")
			p.i++
		case c == '&':
			if p.i+1 < len(s) && s[p.i+1] == '&' {
				p.endCmd("&&")
				p.i += 2
			} else if p.i+1 < len(s) && s[p.i+1] == '>' {
				p.redirect("&>")
			} else {
				p.endCmd("&")
				p.i++
			}
		case c == '|':
			if p.i+1 < len(s) && s[p.i+1] == '|' {
				p.endCmd("||")
				p.i += 2
			} else {
				p.endCmd("|")
				p.i++
				if p.i < len(s) && s[p.i] == '&' {
					p.i++
				}
			}
		case c == '>' || c == '<':
			op := ""
			if p.inWord && isDigits(p.word.String()) {
				op = p.word.String()
				p.word.Reset()
				p.inWord = false
			}
			p.redirect(op)
		default:
			p.word.WriteByte(c)
			p.inWord = true
			p.i++
		}
	}
	p.endCmd("")
	if len(p.pending) > 0 {
		p.readHereBodies()
	}
}

// redirect reads a redirection operator at p.i (prefix holds an fd number
// or "&>"), then its target word.
func (p *shellParser) redirect(prefix string) {
	s := p.s
	p.endWord()
	op := prefix
	if prefix == "&>" {
		p.i += 2
	} else {
		c := s[p.i]
		op += string(c)
		p.i++
		if p.i < len(s) && (s[p.i] == c || (c == '>' && s[p.i] == '|')) {
			op += string(s[p.i])
			p.i++
		}
		if c == '<' && strings.HasSuffix(op, "<<") && p.i < len(s) && s[p.i] == '<' {
			op += "<"
			p.i++
		}
		if p.i < len(s) && s[p.i] == '&' { // 2>&1, >&2
			op += "&"
			p.i++
		}
		if strings.HasSuffix(op, "<<") && p.i < len(s) && s[p.i] == '-' {
			op += "-"
			p.i++
		}
	}
	// Target word.
	for p.i < len(s) && (s[p.i] == ' ' || s[p.i] == '\t') {
		p.i++
	}
	start := p.i
	var target strings.Builder
	for p.i < len(s) {
		c := s[p.i]
		if c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '|' || c == '&' || c == '<' || c == '>' || c == ')' || c == '\r' {
			break
		}
		if c == '\'' || c == '"' {
			j := strings.IndexByte(s[p.i+1:], c)
			if j < 0 {
				target.WriteString(s[p.i+1:])
				p.i = len(s)
				break
			}
			target.WriteString(s[p.i+1 : p.i+1+j])
			p.i += j + 2
			continue
		}
		if c == '\\' && p.i+1 < len(s) {
			target.WriteByte(s[p.i+1])
			p.i += 2
			continue
		}
		target.WriteByte(c)
		p.i++
	}
	_ = start
	t := target.String()
	if strings.HasPrefix(op, "<<") && op != "<<<" {
		h := pendingHere{cmd: -1, delim: t, strip: strings.HasSuffix(op, "-")}
		p.pending = append(p.pending, h)
		p.cur.hasHere = true
		return
	}
	if strings.HasSuffix(op, "&") && op != "&>" { // fd duplication: 2>&1
		p.cur.redirects = append(p.cur.redirects, redirect{op: op, target: "&" + t})
		return
	}
	p.cur.redirects = append(p.cur.redirects, redirect{op: op, target: t})
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// wrapperCmds run the rest of their arguments as the command.
var wrapperCmds = map[string]bool{
	"sudo": true, "time": true, "nohup": true, "exec": true, "command": true,
	"then": true, "do": true, "else": true, "if": true, "while": true, "until": true,
	"!": true, "xargs": false, "stdbuf": true, "nice": true, "env": true,
}

// cleanArgs drops leading variable assignments (A=b), shell keywords and
// wrappers (sudo, time, env, timeout N, ...).
func cleanArgs(args []string) []string {
	for len(args) > 0 {
		a := args[0]
		switch {
		case isAssignment(a):
			args = args[1:]
		case wrapperCmds[a]:
			args = args[1:]
			if a == "env" || a == "sudo" || a == "nice" || a == "stdbuf" {
				for len(args) > 0 && strings.HasPrefix(args[0], "-") {
					args = args[1:]
				}
			}
		case a == "timeout":
			args = args[1:]
			for len(args) > 0 && strings.HasPrefix(args[0], "-") {
				args = args[1:]
			}
			if len(args) > 0 {
				args = args[1:] // the duration
			}
		default:
			return args
		}
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

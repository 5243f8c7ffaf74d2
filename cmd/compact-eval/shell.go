package main

import (
	"path"
	"regexp"
	"strings"
)

// shellWord is one word of a shell command line: its text with quotes and
// escapes removed, and the operator that preceded it ("" for none, or one of
// "|", "||", "&", "&&", ";", "(", ")", ">", ">>", "<", "<<", "\n").
type shellWord struct {
	text string
	op   string
}

// lexShell splits a shell command into words, quote-aware: single quotes,
// double quotes with backslash escapes, backslash escapes, and the operators
// above. Heredoc bodies (after "<<WORD", "<<'WORD'", "<<-WORD") are skipped
// up to their delimiter line. It is a small approximation of POSIX sh that
// never fails: unterminated quotes run to the end of the input.
func lexShell(cmd string) []shellWord {
	var words []shellWord
	var heredocs []string // delimiters pending at the next newline
	var b strings.Builder
	inWord, op := false, ""
	flush := func() {
		if inWord {
			words = append(words, shellWord{text: b.String(), op: op})
			op = ""
		}
		b.Reset()
		inWord = false
	}
	setOp := func(o string) {
		flush()
		op = o
	}
	for i := 0; i < len(cmd); i++ {
		ch := cmd[i]
		switch ch {
		case ' ', '\t', '\r':
			flush()
		case '\n':
			setOp("\n")
			if len(heredocs) > 0 {
				i = skipHeredocs(cmd, i+1, heredocs) - 1
				heredocs = nil
			}
		case '\'':
			inWord = true
			j := strings.IndexByte(cmd[i+1:], '\'')
			if j < 0 {
				b.WriteString(cmd[i+1:])
				i = len(cmd)
			} else {
				b.WriteString(cmd[i+1 : i+1+j])
				i += j + 1
			}
		case '"':
			inWord = true
			i++
			for ; i < len(cmd) && cmd[i] != '"'; i++ {
				if cmd[i] == '\\' && i+1 < len(cmd) && strings.IndexByte("\"\\$`\n", cmd[i+1]) >= 0 {
					i++
				}
				b.WriteByte(cmd[i])
			}
		case '\\':
			inWord = true
			if i+1 < len(cmd) {
				i++
				if cmd[i] != '\n' {
					b.WriteByte(cmd[i])
				}
			}
		case '|', '&', ';', '(', ')', '>', '<':
			// "2>" and "2>&1": a digit right before a redirection is its fd.
			if (ch == '>' || ch == '<') && inWord && b.Len() == 1 && b.String()[0] >= '0' && b.String()[0] <= '9' {
				b.Reset()
				inWord = false
			}
			o := string(ch)
			if i+1 < len(cmd) && cmd[i+1] == ch && ch != ';' && ch != '(' && ch != ')' {
				o += string(ch)
				i++
			}
			if (o == ">" || o == ">>") && i+1 < len(cmd) && cmd[i+1] == '&' {
				i++ // ">&1": a duplicated fd, not a file
				o = ">&"
			}
			setOp(o)
			if o == "<<" {
				if i+1 < len(cmd) && cmd[i+1] == '-' {
					i++
				}
				// The delimiter is the next word, quotes removed.
				j := i + 1
				for j < len(cmd) && (cmd[j] == ' ' || cmd[j] == '\t') {
					j++
				}
				k := j
				for k < len(cmd) && strings.IndexByte(" \t\n;|&<>()", cmd[k]) < 0 {
					k++
				}
				if d := strings.Trim(cmd[j:k], `'"\`); d != "" {
					heredocs = append(heredocs, d)
					words = append(words, shellWord{text: d, op: "<<"})
					op = ""
					i = k - 1
				}
			}
		default:
			inWord = true
			b.WriteByte(ch)
		}
	}
	flush()
	return words
}

// skipHeredocs returns the index just after the bodies of the heredocs
// whose delimiters are delims, starting at index i (the start of a line).
func skipHeredocs(cmd string, i int, delims []string) int {
	for _, d := range delims {
		for i < len(cmd) {
			j := strings.IndexByte(cmd[i:], '\n')
			line := cmd[i:]
			next := len(cmd)
			if j >= 0 {
				line, next = cmd[i:i+j], i+j+1
			}
			i = next
			if strings.TrimSpace(line) == d {
				break
			}
		}
	}
	return i
}

// sourceExtRe matches a bare file name with a common source or data extension.
var sourceExtRe = regexp.MustCompile(`^[A-Za-z0-9_.\-]+\.(?:py|pyi|pyx|go|js|jsx|ts|tsx|c|h|cc|cpp|hpp|java|rb|rs|php|sh|txt|md|rst|cfg|ini|toml|yaml|yml|json|xml|html|css|csv|sql|lock|diff|patch|in|log|out|bin|elf|so|zip|tar|gz|pcap|png|jpg|enc)$`)

// pathWordRe is what a path word may consist of.
var pathWordRe = regexp.MustCompile(`^[A-Za-z0-9_.\-/+@~]+$`)

// commandPaths returns the file paths named by a shell command: the words
// outside heredoc bodies that contain a '/' or end in a common file
// extension, excluding options, URLs, globs, variables, sed/grep/awk
// scripts and patterns, and the code of python -c. Redirection targets
// count. Paths are normalized by cleanPath.
func commandPaths(cmd string) []string {
	var out []string
	words := lexShell(cmd)
	prog, skipNext, nonOpt := "", false, 0
	for _, w := range words {
		switch w.op {
		case "|", "||", "&", "&&", ";", "(", ")", "\n":
			prog, skipNext, nonOpt = "", false, 0
		case ">", ">>", "<":
			if p, ok := pathWord(w.text); ok {
				out = append(out, p)
			}
			continue
		case "<<", ">&":
			continue
		}
		t := w.text
		if prog == "" {
			if strings.Contains(t, "=") && !strings.HasPrefix(t, "=") {
				continue // VAR=value before the program
			}
			prog = path.Base(t)
			switch prog {
			case "sudo", "timeout", "env", "time", "nohup", "xargs", "exec":
				prog = "" // the real program follows
				continue
			}
			if p, ok := pathWord(t); ok && strings.Contains(t, "/") {
				out = append(out, p) // ./script.sh, /usr/bin/python3
			}
			continue
		}
		if skipNext {
			skipNext = false
			continue
		}
		if prog == "cd" || prog == "pushd" {
			continue // a working directory, not a file
		}
		if strings.HasPrefix(t, "-") {
			switch {
			case (prog == "python" || prog == "python3") && t == "-c":
				skipNext = true
			case (prog == "grep" || prog == "egrep" || prog == "rg") && (t == "-e" || t == "--regexp"):
				skipNext = true
				nonOpt = 1 // the pattern was given with -e
			case prog == "sed" && t == "-e":
				skipNext = true
				nonOpt = 1
			}
			continue
		}
		nonOpt++
		switch prog {
		case "grep", "egrep", "fgrep", "rg", "ag", "sed", "awk", "perl":
			if nonOpt == 1 {
				continue // the pattern or script
			}
		case "echo", "printf":
			continue
		}
		if p, ok := pathWord(t); ok {
			out = append(out, p)
		}
	}
	return out
}

// pathWord reports whether word is a file path and returns it cleaned.
func pathWord(word string) (string, bool) {
	w := strings.Trim(word, ",;:")
	if i := strings.IndexByte(w, ':'); i > 0 {
		w = w[:i] // file.py:12
	}
	if w == "" || strings.Contains(w, "://") || !pathWordRe.MatchString(w) {
		return "", false
	}
	if strings.HasPrefix(w, "s/") || strings.HasPrefix(w, "y/") || w == "/dev/null" || strings.HasPrefix(w, "/dev/") || strings.HasPrefix(w, "/proc/") {
		return "", false
	}
	hasAlnum := strings.IndexFunc(w, func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}) >= 0
	if !hasAlnum {
		return "", false
	}
	if !strings.Contains(w, "/") && !sourceExtRe.MatchString(w) {
		return "", false
	}
	return cleanPath(w), true
}

// cleanPath strips a leading "./" and trailing slashes.
func cleanPath(p string) string {
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	if len(p) > 1 {
		p = strings.TrimRight(p, "/")
	}
	return p
}

package callpaths

import (
	"path"
	"regexp"
	"strings"

	"github.com/agentcompact/compact/internal/shellwords"
)

// sourceExtRe matches a bare file name with a common source or data extension.
var sourceExtRe = regexp.MustCompile(`^[A-Za-z0-9_.\-]+\.(?:py|pyi|pyx|go|js|jsx|ts|tsx|c|h|cc|cpp|hpp|java|rb|rs|php|sh|txt|md|rst|cfg|ini|toml|yaml|yml|json|xml|html|css|csv|sql|lock|diff|patch|in|log|out|bin|elf|so|zip|tar|gz|pcap|png|jpg|enc)$`)

// pathWordRe is what a path word may consist of.
var pathWordRe = regexp.MustCompile(`^[A-Za-z0-9_.\-/+@~]+$`)

// Command returns the file paths named by a shell command: the words
// outside heredoc bodies and comments that contain a '/' or end in a common
// file extension, excluding options, URLs, globs, variables, sed/grep/awk
// scripts and patterns, echo/printf arguments, cd targets and the code of
// python -c. Redirection targets count. Paths are normalized by [Clean]
// (after a ":line" suffix is cut, see [Word]), in order, repeats kept.
func Command(cmd string) []string {
	var out []string
	var p progWords
	for _, t := range shellwords.Lex(cmd) {
		switch t.Kind {
		case shellwords.Operator:
			p = progWords{} // a new command
		case shellwords.Redirect:
			if strings.HasPrefix(t.Text, "&") {
				continue // a duplicated fd (2>&1), not a file
			}
			if pw, ok := Word(t.Text); ok {
				out = append(out, pw)
			}
		case shellwords.Word:
			if w, ok := p.word(t.Text); ok {
				out = append(out, w)
			}
		}
	}
	return out
}

// progWords reads the words of one command in order and tells which are
// paths.
type progWords struct {
	prog     string // the program's base name, "" before it
	skipNext bool   // the next word is an option's value
	nonOpt   int    // the non-option words after the program so far
}

// word reads the next word of the command and returns it cleaned when it
// is a path.
func (p *progWords) word(t string) (string, bool) {
	if p.prog == "" {
		if strings.Contains(t, "=") && !strings.HasPrefix(t, "=") {
			return "", false // VAR=value before the program
		}
		p.prog = path.Base(t)
		switch p.prog {
		case "sudo", "timeout", "env", "time", "nohup", "xargs", "exec":
			p.prog = "" // the real program follows
			return "", false
		}
		if strings.Contains(t, "/") {
			return Word(t) // ./script.sh, /usr/bin/python3
		}
		return "", false
	}
	if p.skipNext {
		p.skipNext = false
		return "", false
	}
	if p.prog == "cd" || p.prog == "pushd" {
		return "", false // a working directory, not a file
	}
	if strings.HasPrefix(t, "-") {
		p.option(t)
		return "", false
	}
	p.nonOpt++
	switch p.prog {
	case "grep", "egrep", "fgrep", "rg", "ag", "sed", "awk", "perl":
		if p.nonOpt == 1 {
			return "", false // the pattern or script
		}
	case "echo", "printf":
		return "", false
	}
	return Word(t)
}

// option reads an option word: the ones whose value is code or a pattern
// make the next word skipped.
func (p *progWords) option(t string) {
	switch {
	case (p.prog == "python" || p.prog == "python3") && t == "-c":
		p.skipNext = true
	case (p.prog == "grep" || p.prog == "egrep" || p.prog == "rg") && (t == "-e" || t == "--regexp"):
		p.skipNext = true
		p.nonOpt = 1 // the pattern was given with -e
	case p.prog == "sed" && t == "-e":
		p.skipNext = true
		p.nonOpt = 1
	}
}

// Word reports whether a word of a command is a file path and returns the
// path: the word without surrounding ",;:", cut before a ":" ("file.py:12",
// "tests/t.py::test_x"), cleaned by [Clean]. The path is a substring of the
// word, so a text that holds the word as written holds the path.
func Word(word string) (string, bool) {
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
	return Clean(w), true
}

// Clean strips leading "./" and trailing slashes (but keeps "/").
func Clean(p string) string {
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	if len(p) > 1 {
		p = strings.TrimRight(p, "/")
	}
	return p
}

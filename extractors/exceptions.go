package extractors

import (
	"regexp"
	"strings"
)

var (
	// excLineRe matches an exception line: "ValueError: msg",
	// "django.core.exceptions.FieldError: msg", "E   KeyError: 'x'",
	// "AssertionError", "panic: runtime error: ...".
	excLineRe = regexp.MustCompile(`^(?:E\s+)?((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*(?:Error|Exception|Exit|Interrupt|Failure|Warning|Fault|DoesNotExist|NotFound|Invalid|Denied|Timeout|Abort|Iteration))(?::\s?(.*))?$`)
	// pyFrameRe matches a Python traceback frame: File "x.py", line 12, in f.
	pyFrameRe = regexp.MustCompile(`^\s*File "([^"]+)", line (\d+)`)
	// goPanicRe matches a Go panic line.
	goPanicRe = regexp.MustCompile(`^panic: (.*)`)
	// errLineRe matches lines that announce an error.
	errLineRe = regexp.MustCompile(`(?i)^(?:[\w./-]+:\s*)?(?:\S+:\d+(?::\d+)?:\s*)?(?:error|fatal|fatal error|panic|E)(?:\[[^\]]*\])?[:!]\s|(?i)\b(?:command not found|no such file|permission denied|segmentation fault|syntaxerror|cannot find|undefined:|not found$)|\*\*\* .*Error \d+`)
)

// excInfo is one exception seen in an output.
type excInfo struct {
	name, msg, file, line string
}

// String renders "ValueError at foo.py:12: message".
func (e excInfo) String() string {
	s := e.name
	if e.file != "" {
		s += " at " + e.file + ":" + e.line
	}
	if e.msg != "" {
		s += ": " + shorten(strings.TrimSpace(e.msg), 100)
	}
	return s
}

// maxExceptions bounds the distinct exceptions reported per output.
const maxExceptions = 10

// excSuffixes end the names excLineRe accepts; a line's first word is
// checked against them before the regexp runs.
var excSuffixes = []string{"Error", "Exception", "Exit", "Interrupt", "Failure", "Warning", "Fault",
	"DoesNotExist", "NotFound", "Invalid", "Denied", "Timeout", "Abort", "Iteration"}

// errWords are what an error line's head holds (errLineRe's first branch).
var errWords = []string{"rror", "RROR", "atal", "ATAL", "anic", "ANIC"}

// errPhrases may stand anywhere in an error line (errLineRe's other
// branches); they are searched in the whole output.
var errPhrases = []string{"command not found", "o such file", "O SUCH FILE", "ermission denied",
	"ERMISSION DENIED", "egmentation fault", "annot find", "ndefined:", "not found", "*** "}

// scanErrors returns the distinct exceptions raised in s (Python
// tracebacks, pytest "E" lines, Go panics; first occurrence order, at most
// maxExceptions) and the first line that looks like an error. Exception
// lines are only recognized at the start of a line, so source code that
// mentions exception names ("raise ValueError(...)") does not count.
//
// It runs in two cheap passes: one over line starts (indented lines are
// skipped at once; a regexp only runs on a line whose first word ends like
// an exception name or whose head holds an error word), and one memory
// search per error phrase.
func scanErrors(s string) (excs []excInfo, firstErr string) {
	return scanErrorsOpt(s, true)
}

// scanExceptions is scanErrors without the search for the first error
// line: it only reports exceptions.
func scanExceptions(s string) []excInfo {
	excs, _ := scanErrorsOpt(s, false)
	return excs
}

// scanErrorsOpt is scanErrors; wantFirst false skips the error phrase
// search (the first error line is then only a traceback, panic or
// exception line).
func scanErrorsOpt(s string, wantFirst bool) (excs []excInfo, firstErr string) {
	e := errScan{s: s, wantFirst: wantFirst, seen: map[string]bool{}, firstPos: len(s) + 1}
	for ls := 0; ls < len(s); {
		le := strings.IndexByte(s[ls:], '\n')
		if le < 0 {
			le = len(s)
		} else {
			le += ls
		}
		// Indented lines are skipped at once: no exception or error line
		// starts with a blank.
		if line := s[ls:le]; line != "" && line[0] != ' ' && line[0] != '\t' && line[0] != '\r' {
			e.line(ls, line)
		}
		ls = le + 1
	}
	if wantFirst {
		e.phrases()
	}
	return e.excs, e.firstErr
}

// errScan is the state of scanErrorsOpt.
type errScan struct {
	s         string
	wantFirst bool
	excs      []excInfo
	seen      map[string]bool // exception names reported
	firstPos  int             // the offset of the first error line found so far
	firstErr  string
}

// setFirst makes the line at pos the first error line when it comes
// before the one found so far.
func (e *errScan) setFirst(pos int, line string) {
	if pos < e.firstPos {
		e.firstPos, e.firstErr = pos, line
	}
}

// wants reports whether an exception named name is still to be reported:
// each name once, at most maxExceptions.
func (e *errScan) wants(name string) bool {
	return !e.seen[name] && len(e.excs) < maxExceptions
}

// add reports an exception.
func (e *errScan) add(x excInfo) {
	e.seen[x.name] = true
	e.excs = append(e.excs, x)
}

// line reads the unindented line at offset pos: a traceback header, a Go
// panic, an exception line or an error line.
func (e *errScan) line(pos int, line string) {
	if len(line) > 2000 {
		line = line[:2000]
	}
	switch line[0] {
	case 'T':
		if strings.HasPrefix(line, "Traceback (most recent call last)") {
			e.setFirst(pos, strings.TrimSpace(line))
			return
		}
	case 'p':
		if strings.HasPrefix(line, "panic: ") {
			trim := strings.TrimSpace(line)
			if m := goPanicRe.FindStringSubmatch(trim); m != nil {
				if e.wants("panic") {
					e.add(excInfo{name: "panic", msg: m[1]})
				}
				e.setFirst(pos, trim)
				return
			}
		}
	}
	if e.exception(pos, line) || e.otherLanguage(pos, line) {
		return
	}
	if e.wantFirst && pos < e.firstPos {
		head := line[:min(len(line), 160)]
		if containsAny(head, errWords) || strings.HasPrefix(head, "E ") {
			if trim := strings.TrimSpace(line); errLineRe.MatchString(trim) {
				e.setFirst(pos, trim)
			}
		}
	}
}

// Line openings of other languages' error forms, before the exception
// name (Java, JavaScript) or standing for it (Rust).
const (
	javaThread   = "Exception in thread "
	javaCaused   = "Caused by: "
	jsUncaught   = "Uncaught "
	rustPanicked = "thread '"
	rustErrCode  = "error["
)

// otherLanguage reads the error forms of Java ("Exception in thread "main"
// java.lang.IllegalStateException: msg", "Caused by: java.io.IOException"),
// JavaScript ("Uncaught TypeError: x"), Rust ("thread 'main' panicked at
// src/main.rs:5:5", "error[E0425]: cannot find value") and lines coloured
// with ANSI escapes (notebook tracebacks), and reports whether line is one.
func (e *errScan) otherLanguage(pos int, line string) bool {
	rest := ""
	switch line[0] {
	case 'E':
		if strings.HasPrefix(line, javaThread) {
			rest = line[len(javaThread):]
			if q := strings.LastIndexByte(rest, '"'); q >= 0 {
				rest = strings.TrimLeft(rest[q+1:], " ")
			}
		}
	case 'C':
		rest = strings.TrimPrefix(line, javaCaused)
	case 'U':
		rest = strings.TrimPrefix(line, jsUncaught)
	case 't':
		if strings.HasPrefix(line, rustPanicked) && strings.Contains(line, "' panicked at ") {
			x := excInfo{name: "panic", msg: line[strings.Index(line, "' panicked at ")+2:]}
			if e.wants(x.name) {
				e.add(x)
			}
			e.setFirst(pos, strings.TrimSpace(line))
			return true
		}
	case 'e':
		if strings.HasPrefix(line, rustErrCode) {
			if end := strings.IndexByte(line, ']'); end > len(rustErrCode) && end < 16 {
				x := excInfo{name: line[len(rustErrCode):end], msg: strings.TrimLeft(line[end+1:], ": ")}
				if e.wants(x.name) {
					e.add(x)
				}
				e.setFirst(pos, strings.TrimSpace(line))
				return true
			}
		}
	case '\x1b':
		rest = stripANSI(line)
	}
	if rest == "" || rest == line {
		return false
	}
	return e.exception(pos, rest)
}

// stripANSI removes ANSI escape sequences (ESC [ ... letter) from s.
func stripANSI(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < '@' || s[j] > '~') {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// exception reads an exception line ("ValueError: msg", pytest's "E
// KeyError: 'x'") at offset pos, with the location of its traceback's
// innermost frame, and reports whether it is one. The regexp only runs
// when the line's first word ends like an exception name.
func (e *errScan) exception(pos int, line string) bool {
	w := line
	if len(w) > 2 && w[0] == 'E' && (w[1] == ' ' || w[1] == '\t') {
		w = strings.TrimLeft(w[1:], " \t")
	}
	if i := strings.IndexAny(w, ": \r"); i >= 0 {
		w = w[:i]
	}
	if !hasAnySuffix(w, excSuffixes) {
		return false
	}
	trim := strings.TrimSpace(line)
	m := excLineRe.FindStringSubmatch(trim)
	if m == nil {
		return false
	}
	if e.wants(m[1]) {
		x := excInfo{name: m[1], msg: m[2]}
		x.file, x.line = tracebackFrame(e.s, pos)
		e.add(x)
	}
	e.setFirst(pos, trim)
	return true
}

// phrases looks for the error phrases that may stand anywhere in a line
// ("command not found", ...): at up to 64 occurrences of each before the
// first error line found so far.
func (e *errScan) phrases() {
	s := e.s
	for _, p := range errPhrases {
		for off, n := 0, 0; n < 64 && off < min(len(s), e.firstPos); n++ {
			i := strings.Index(s[off:min(len(s), e.firstPos)], p)
			if i < 0 {
				break
			}
			ls, le := lineAt(s, off+i)
			off = le + 1
			if trim := strings.TrimSpace(s[ls:min(le, ls+2000)]); errLineRe.MatchString(trim) {
				e.setFirst(ls, trim)
				break
			}
		}
	}
}

// tracebackFrame returns the location of the innermost frame of the Python
// traceback that ends at the line starting at ls: the last 'File "x",
// line N' line between the last "Traceback (most recent call last)" line
// before ls and ls. It looks back at most 64 KiB.
func tracebackFrame(s string, ls int) (file, line string) {
	lo := max(0, ls-64<<10)
	win := s[lo:ls]
	tb := strings.LastIndex(win, "Traceback (most recent call last)")
	if tb < 0 {
		return "", ""
	}
	fr := strings.LastIndex(win[tb:], "File \"")
	if fr < 0 {
		return "", ""
	}
	fs, fe := lineAt(win, tb+fr)
	if m := pyFrameRe.FindStringSubmatch(win[fs:fe]); m != nil {
		return shortPath(m[1]), m[2]
	}
	return "", ""
}

// shortPath trims long absolute paths to their last 3 elements.
func shortPath(p string) string {
	if strings.Count(p, "/") <= 3 {
		return p
	}
	parts := strings.Split(p, "/")
	return ".../" + strings.Join(parts[len(parts)-3:], "/")
}

// errorSummary returns the main error of an output: the first exception
// with its location, else the first error-looking line; "" when none.
func errorSummary(s string) string {
	excs, first := scanErrors(s)
	if len(excs) > 0 {
		return excs[0].String()
	}
	return first
}

// detectStatus guesses the status of an output from its text alone.
func detectStatus(s string) Status {
	if errorSummary(s) != "" {
		return StatusError
	}
	return StatusSuccess
}

// exceptionWordRe finds an exception name anywhere in a line.
var exceptionWordRe = regexp.MustCompile(`\b((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))\b`)

// nameInLine returns the first exception name in line, or "".
func nameInLine(line string) string {
	if m := exceptionWordRe.FindStringSubmatch(line); m != nil {
		return m[1]
	}
	return ""
}

// appendExceptions adds an "Exceptions: A, B" fact naming the exceptions
// raised in body (tracebacks, pytest E lines, Go panics) when there are any,
// and records them in md.
func appendExceptions(facts []string, md map[string]string, body string) []string {
	excs := scanExceptions(body)
	if len(excs) == 0 {
		return facts
	}
	names, full := excLists(excs)
	md[MetaExceptions] = strings.Join(full, "\n")
	return append(facts, "Exceptions: "+strings.Join(names, ", "))
}

// excLists returns the names of excs and their full forms
// ("ValueError at foo.py:12: msg", excInfo.String), in order.
func excLists(excs []excInfo) (names, full []string) {
	names, full = make([]string, len(excs)), make([]string, len(excs))
	for i, e := range excs {
		names[i], full[i] = e.name, e.String()
	}
	return names, full
}

package extractors

import (
	"fmt"
	"regexp"
	"strings"
)

// countLines counts the lines of s: the number of "\n" plus one when the
// last line is not terminated; 0 for "".
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// firstLine returns the first non-blank line of s, trimmed. It looks at most
// at the first 64 KiB of s.
func firstLine(s string) string {
	if len(s) > 64<<10 {
		s = s[:64<<10]
	}
	for s != "" {
		var line string
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			line, s = s, ""
		}
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}

// lastLine returns the last non-blank line of s, trimmed. It looks at most
// at the last 64 KiB of s.
func lastLine(s string) string {
	if len(s) > 64<<10 {
		s = s[len(s)-64<<10:]
	}
	for s != "" {
		var line string
		if i := strings.LastIndexByte(s, '\n'); i >= 0 {
			line, s = s[i+1:], s[:i]
		} else {
			line, s = s, ""
		}
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
	}
	return ""
}

// shorten returns s cut to at most n bytes at a rune boundary, with "…"
// when cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return cutBytes(s, n-len("…")) + "…"
}

// humanBytes formats a byte count: "512 B", "4.1 KB", "2.3 MB".
func humanBytes(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
}

// eachLine calls fn for each line of s (without its "\n") with its 0-based
// index, until fn returns false.
func eachLine(s string, fn func(i int, line string) bool) {
	for i := 0; s != ""; i++ {
		var line string
		if j := strings.IndexByte(s, '\n'); j >= 0 {
			line, s = s[:j], s[j+1:]
		} else {
			line, s = s, ""
		}
		if !fn(i, line) {
			return
		}
	}
}

var (
	// excLineRe matches an exception line: "ValueError: msg",
	// "django.core.exceptions.FieldError: msg", "E   KeyError: 'x'",
	// "AssertionError", "panic: runtime error: ...".
	excLineRe = regexp.MustCompile(`^(?:E\s+)?((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*(?:Error|Exception|Exit|Interrupt|Failure|Warning|Fault|DoesNotExist|NotFound|Invalid|Denied|Timeout|Abort|Iteration))(?::\s?(.*))?$`)
	// pyFrameRe matches a Python traceback frame: File "x.py", line 12, in f.
	pyFrameRe = regexp.MustCompile(`^\s*File "([^"]+)", line (\d+)`)
	// goPanicRe matches a Go panic line.
	goPanicRe = regexp.MustCompile(`^panic: (.*)`)
	// goFrameRe matches a Go stack frame location: "\t/path/x.go:12 +0x1d".
	goFrameRe = regexp.MustCompile(`^\s+(\S+\.go):(\d+)`)
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
const maxExceptions = 6

// lineAt returns the bounds of the line of s holding byte i.
func lineAt(s string, i int) (start, end int) {
	start = strings.LastIndexByte(s[:i], '\n') + 1
	end = strings.IndexByte(s[i:], '\n')
	if end < 0 {
		end = len(s)
	} else {
		end += i
	}
	return start, end
}

// scanTriggers are the substrings that put a line under examination by
// scanErrors: exception name endings, Go panics, tracebacks and words of
// error lines. triggerByFirst indexes them by first byte.
var (
	scanTriggers = []string{
		"Error", "Exception", "Exit", "Interrupt", "Failure", "Warning", "Fault", "DoesNotExist",
		"NotFound", "Invalid", "Denied", "Timeout", "Abort", "Iteration",
		"panic: ", "Traceback (most recent call last)",
		"rror", "RROR", "atal", "ATAL", "anic", "ANIC", "not found", "NOT FOUND", "o such file",
		"O SUCH FILE", "ermission denied", "ERMISSION DENIED", "egmentation", "EGMENTATION",
		"annot find", "ANNOT FIND", "ndefined:", "NDEFINED:", "yntax",
	}
	triggerByFirst = func() (t [256][]string) {
		for _, w := range scanTriggers {
			t[w[0]] = append(t[w[0]], w)
		}
		return t
	}()
)

// scanErrors returns the distinct exceptions raised in s (Python
// tracebacks, pytest "E" lines, Go panics; first occurrence order, at most
// maxExceptions) and the first line that looks like an error. Exception
// lines are only recognized at the start of a line, so source code that
// mentions exception names ("raise ValueError(...)") does not count.
//
// It makes one pass over s, examining only the lines that hold one of a
// few trigger substrings, so it runs at memory-scan speed on large outputs.
func scanErrors(s string) (excs []excInfo, firstErr string) {
	seen := map[string]bool{}
	examine := func(ls, le int) {
		raw := s[ls:le]
		if len(raw) > 2000 {
			raw = raw[:2000]
		}
		line := strings.TrimRight(raw, "\r ")
		trim := strings.TrimSpace(line)
		if trim == "" {
			return
		}
		isErr := false
		switch {
		case strings.HasPrefix(trim, "Traceback (most recent call last)"):
			isErr = true
		case strings.HasPrefix(trim, "panic: "):
			if m := goPanicRe.FindStringSubmatch(trim); m != nil {
				isErr = true
				if !seen["panic"] && len(excs) < maxExceptions {
					seen["panic"] = true
					excs = append(excs, excInfo{name: "panic", msg: m[1]})
				}
			}
		case line[0] != ' ' && line[0] != '\t' || strings.HasPrefix(trim, "E "):
			if m := excLineRe.FindStringSubmatch(trim); m != nil {
				isErr = true
				if !seen[m[1]] && len(excs) < maxExceptions {
					seen[m[1]] = true
					e := excInfo{name: m[1], msg: m[2]}
					e.file, e.line = tracebackFrame(s, ls)
					excs = append(excs, e)
				}
			}
		}
		if !isErr && firstErr == "" && errLineRe.MatchString(trim) {
			isErr = true
		}
		if isErr && firstErr == "" {
			firstErr = trim
		}
	}
	ls := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\n' {
			ls = i + 1
			continue
		}
		cands := triggerByFirst[c]
		hit := c == 'E' && i == ls && i+1 < len(s) && s[i+1] == ' '
		for k := 0; !hit && k < len(cands); k++ {
			hit = strings.HasPrefix(s[i:], cands[k])
		}
		if !hit {
			continue
		}
		le := strings.IndexByte(s[i:], '\n')
		if le < 0 {
			le = len(s)
		} else {
			le += i
		}
		examine(ls, le)
		i = le - 1 // the loop moves to the newline, which starts the next line
	}
	return excs, firstErr
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

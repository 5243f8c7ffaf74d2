package extractors

import (
	"regexp"
	"strings"
)

// maxLogErrors is how many error lines of one output logErrors keeps: the
// most recent.
const maxLogErrors = 3

// logErrorRe matches the error line of a log: a first field holding a digit
// (a timestamp, a date, a sequence number), up to two more fields, then the
// level ERROR, FATAL, CRITICAL or SEVERE (bracketed or not) followed by a
// colon or a blank; or a logfmt "level=error" (or fatal). Group 1 starts at
// the level word (or at the line's start for logfmt).
var logErrorRe = regexp.MustCompile(`^(?:\S*\d\S*\s+(?:\S+\s+){0,2}(\[?(?:ERROR|FATAL|CRITICAL|SEVERE)\]?[:\s].*)|(.*\blevel=(?:error|fatal|ERROR|FATAL)\b.*))$`)

// logErrors returns the error lines of a plain-text log (see logErrorRe),
// each from its level word on, trimmed and shortened to 200 bytes: the
// last maxLogErrors of the first 64 KiB of out, oldest first.
func logErrors(out string) []string {
	if !strings.Contains(out, "ERROR") && !strings.Contains(out, "FATAL") && !strings.Contains(out, "CRITICAL") &&
		!strings.Contains(out, "SEVERE") && !strings.Contains(out, "level=") {
		return nil
	}
	var lines []string
	eachLine(userPrefix(out), func(_ int, line string) bool {
		if m := logErrorRe.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			l := m[1]
			if l == "" {
				l = m[2]
			}
			lines = append(lines, shorten(strings.TrimSpace(l), maxDigestItemBytes))
		}
		return true
	})
	if len(lines) > maxLogErrors {
		lines = lines[len(lines)-maxLogErrors:]
	}
	return lines
}

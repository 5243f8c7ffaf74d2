package extractors

import (
	"fmt"
	"strings"

	"github.com/agentcompact/compact/internal/msg"
)

// CountLines counts the lines of s: the number of "\n" plus one when the
// last line is not terminated; 0 for "". The line numbers of fact lines and
// of recall answers are counted this way.
func CountLines(s string) int {
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
// when cut. A string that must be cut is redacted first (see
// redactForCut), so that a secret straddling the cut cannot survive as a
// prefix that [Redact] no longer recognizes.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if s = redactForCut(s, n); len(s) <= n {
		return s
	}
	return msg.HeadBytes(s, n-len("…")) + "…"
}

// cutRedactMargin is how far past a cut point redactForCut looks: longer
// than the minimum match of every redaction rule, so a secret that starts
// before the cut is matched whole (or, for unbounded tokens, by a prefix
// long enough to match) before anything is cut.
const cutRedactMargin = 256

// redactForCut returns the first n+cutRedactMargin bytes of s redacted:
// what a preview of n bytes may keep. Redaction must run before a cut,
// never after: "AKIAZ7Q2RZ5XN3WLT4…" is 18 of the 20 characters of an AWS
// key id and no rule can tell it from text.
func redactForCut(s string, n int) string {
	return Redact(msg.HeadBytes(s, n+cutRedactMargin))
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
		line, s = cutLine(s)
		if !fn(i, line) {
			return
		}
	}
}

// cutLine splits s after its first line: the line without its "\n", and
// the rest ("" when s has one line).
func cutLine(s string) (line, rest string) {
	if j := strings.IndexByte(s, '\n'); j >= 0 {
		return s[:j], s[j+1:]
	}
	return s, ""
}

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

// hasAnySuffix reports whether w ends with one of suffixes.
func hasAnySuffix(w string, suffixes []string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(w, x) {
			return true
		}
	}
	return false
}

// containsAny reports whether s contains one of subs.
func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// dedupeStrings removes repeats, keeping the first; it returns a new slice.
func dedupeStrings(in []string) []string {
	seen := make(map[string]bool, len(in))
	out := make([]string, 0, len(in))
	for _, s := range in {
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

// isDigits reports whether s is a non-empty run of ASCII digits.
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

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

package extractors

import (
	"fmt"
	"strings"
)

// shellWrite describes a file write seen in a shell command.
type shellWrite struct {
	path   string
	how    string // "wrote", "appended", "edited", "removed", "moved", "created", "copied"
	lines  int    // lines written, -1 unknown
	detail string // e.g. the sed expression
}

// fact renders a shell write.
func (w shellWrite) fact() string {
	switch w.how {
	case "wrote", "appended":
		if w.lines >= 0 {
			return fmt.Sprintf("%s %s (%d %s)", capitalize(w.how), w.path, w.lines, plural(w.lines, "line", "lines"))
		}
		return capitalize(w.how) + " " + w.path
	case "edited":
		if w.detail != "" {
			return "Edited " + w.path + ": " + shorten(w.detail, 80)
		}
		return "Edited " + w.path
	}
	if w.detail != "" {
		return capitalize(w.how) + " " + w.path + " " + w.detail
	}
	return capitalize(w.how) + " " + w.path
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// writeFacts renders shell writes; plain ones of the same kind (removed,
// created, ...) are grouped: "Removed: a.py, b.py".
func writeFacts(writes []shellWrite) []string {
	const maxWrites = 64
	if len(writes) > maxWrites {
		writes = writes[:maxWrites]
	}
	var out []string
	groups := map[string]int{} // how -> index in out
	var members [][]string
	for _, w := range writes {
		plain := w.lines < 0 && w.detail == "" && (w.how == "removed" || w.how == "created")
		if !plain {
			out = append(out, w.fact())
			members = append(members, nil)
			continue
		}
		if i, ok := groups[w.how]; ok {
			members[i] = append(members[i], w.path)
			continue
		}
		groups[w.how] = len(out)
		out = append(out, capitalize(w.how))
		members = append(members, []string{w.path})
	}
	for i, m := range members {
		if m != nil {
			out[i] += ": " + strings.Join(m, ", ")
		}
	}
	return out
}

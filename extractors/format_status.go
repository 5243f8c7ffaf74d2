package extractors

import "strings"

// FormattedStatus returns the status a line made by [Format] shows, and
// whether line starts like one ("[✓ ", "[❌ " or "[⚠ "). It is the inverse
// of Format's leading symbol, for state written before the status was kept
// beside the line.
func FormattedStatus(line string) (Status, bool) {
	rest, ok := strings.CutPrefix(line, "[")
	if !ok {
		return "", false
	}
	for _, s := range []struct {
		sym    string
		status Status
	}{{symbolSuccess, StatusSuccess}, {symbolError, StatusError}, {symbolPartial, StatusPartial}} {
		if strings.HasPrefix(rest, s.sym+" ") || rest == s.sym+"]" || strings.HasPrefix(rest, s.sym+"]") {
			return s.status, true
		}
	}
	return "", false
}

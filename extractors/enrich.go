package extractors

import "strings"

// enrich adds to s what any tool's output may hold whatever its extractor
// looked at (shell commands, file reads and searches excepted): the
// exceptions it raised (an edit whose observation ends with a failing test
// run, a notebook cell's traceback, a business API's error) and the summary
// of a test run, when s's facts do not already name them, and the
// identifiers of a JSON output. The facts go right after the first one, so
// that the per-tool cap keeps them. s's metadata is copied before it
// changes.
func enrich(s ToolSummary, output string) ToolSummary {
	facts := strings.Join(s.KeyFacts, "\n")
	var add []string
	md, copied := s.Metadata, false
	set := func(k, v string) {
		if !copied {
			md, copied = copyMeta(s.Metadata), true
		}
		md[k] = v
	}
	switch md[MetaKind] {
	case KindExec, KindTest, KindRead, KindSearch:
		// The shell extractor reads exceptions and test runs itself; a
		// file read or a search shows text, not what a tool raised.
		return s
	}
	if excs := scanExceptions(output); len(excs) > 0 {
		names, full := excLists(excs)
		if missing := notIn(facts, names); len(missing) > 0 {
			add = append(add, "Exceptions: "+strings.Join(missing, ", "))
			s.Status = StatusError
		}
		if md[MetaExceptions] == "" {
			set(MetaExceptions, strings.Join(full, "\n"))
		}
	}
	if md[MetaIdentifiers] == "" && md[MetaKind] != KindJSON {
		if d, ok := describeJSON(output); ok && len(d.ids) > 0 {
			set(MetaIdentifiers, strings.Join(d.ids, "\n"))
			add = append(add, chunkFacts("IDs: ", notIn(facts, d.ids), MaxFactBytes-10)...)
		}
	}
	if md[MetaTests] == "" && mayHoldTestRun(output) {
		if r := scanTests(output); r.found && r.summary != "" && !strings.Contains(facts, r.summary) {
			add = append(add, "Tests: "+r.summary)
			set(MetaTests, r.summary)
			if r.failing {
				s.Status = StatusError
				if len(r.failed) > 0 {
					add = append(add, "Failed: "+strings.Join(r.failed, ", "))
					set(MetaFailedTests, strings.Join(r.failed, "\n"))
				}
			}
		}
	}
	s.Metadata = md
	if len(add) == 0 {
		return s
	}
	at := min(1, len(s.KeyFacts))
	out := make([]string, 0, len(s.KeyFacts)+len(add))
	out = append(out, s.KeyFacts[:at]...)
	out = append(out, add...)
	s.KeyFacts = append(out, s.KeyFacts[at:]...)
	return s
}

// notIn returns the items that text does not contain, in order.
func notIn(text string, items []string) []string {
	var out []string
	for _, it := range items {
		if !strings.Contains(text, it) {
			out = append(out, it)
		}
	}
	return out
}

// mayHoldTestRun is a cheap test for the words every test summary holds.
func mayHoldTestRun(s string) bool {
	return strings.Contains(s, "passed") || strings.Contains(s, "failed") || strings.Contains(s, "FAILED") ||
		strings.Contains(s, "Ran ") || strings.Contains(s, "test result:")
}

// copyMeta returns a copy of m (nil gives an empty map).
func copyMeta(m map[string]string) map[string]string {
	out := make(map[string]string, len(m)+2)
	for k, v := range m {
		out[k] = v
	}
	return out
}

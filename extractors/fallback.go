package extractors

import (
	"fmt"
	"strings"
)

// Fallback returns the generic extractor used for tools without an
// extractor of their own. Its facts are the output size ("Output: 120 lines,
// 4.1 KB"), the first and last non-blank lines (trimmed and shortened), and
// the first line that looks like an error, and the last error line of a
// log when the last line is not it ([MetaLogErrors] lists the last three);
// its status is error when the output looks like a failure (a traceback,
// "error:", "exit code 1", ...), else success: a log that reports errors
// was read successfully. It runs in one pass over the output and is safe for
// concurrent use.
func Fallback() Extractor { return redacting(fallbackExtract) }

// shortOutputBytes is the size up to which the fallback keeps an output
// (of at most 3 lines) whole as its fact.
const shortOutputBytes = 200

func fallbackExtract(call Call, output string) ToolSummary {
	s := ToolSummary{Tool: call.Name, Status: StatusSuccess, Metadata: map[string]string{}}
	lines := CountLines(output)
	s.Metadata[MetaLines] = itoa(lines)
	s.Metadata[MetaBytes] = itoa(len(output))
	s.Metadata[MetaKind] = KindOther
	if strings.TrimSpace(output) == "" {
		s.KeyFacts = append(s.KeyFacts, "Output: empty")
		return s
	}
	if js, ok := jsonSummary(call, output); ok {
		js.Metadata[MetaLines] = itoa(lines)
		return js
	}
	if le := logErrors(output); len(le) > 0 {
		s.Metadata[MetaLogErrors] = strings.Join(le, "\n")
	}
	if t := strings.TrimSpace(output); len(t) <= shortOutputBytes && lines <= 3 {
		// A short output is its own best summary.
		s.KeyFacts = append(s.KeyFacts, t)
		if e := errorSummary(t); e != "" || strings.HasPrefix(t, "Error") {
			s.Status = StatusError
			s.Metadata[MetaError] = t
		}
		return s
	}
	s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Output: %d %s, %s", lines, plural(lines, "line", "lines"), humanBytes(len(output))))
	first, last := firstLine(output), lastLine(output)
	if first != "" {
		s.KeyFacts = append(s.KeyFacts, "First: "+shorten(first, 120))
	}
	if last != "" && last != first {
		s.KeyFacts = append(s.KeyFacts, "Last: "+shorten(last, 120))
	}
	excs, e := scanErrors(output)
	var names []string
	if len(excs) > 0 {
		var full []string
		names, full = excLists(excs)
		e = full[0]
		s.Metadata[MetaExceptions] = strings.Join(full, "\n")
	}
	if e != "" {
		s.Status = StatusError
		s.Metadata[MetaError] = e
		s.KeyFacts = append(s.KeyFacts, "Error: "+shorten(e, 160))
	}
	if len(names) > 1 {
		s.KeyFacts = append(s.KeyFacts, "Exceptions: "+strings.Join(names, ", "))
	}
	if le := s.Metadata[MetaLogErrors]; le != "" && e == "" {
		last := le[strings.LastIndexByte(le, '\n')+1:]
		if !strings.HasSuffix(lastLine(output), last) {
			s.KeyFacts = append(s.KeyFacts, "Log error: "+shorten(last, 160))
		}
	}
	return s
}

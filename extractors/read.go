package extractors

import (
	"fmt"
	"regexp"
	"strings"
)

// readExtract is the extractor of file-reading tools: read_file, open,
// view, cat, ... It reads the path and line range from the arguments
// (path, file_path, start_line, end_line, line_number, view_range) and the
// output itself (SWE-agent's "[File: … (N lines total)]" header, nl/cat -n
// line numbers).
func readExtract(call Call, output string) ToolSummary {
	a := parseArgs(call.Arguments)
	env := unwrap(output)
	p := a.str(pathKeys...)
	if p == "" && a.m != nil && a.str("command") == "" {
		p = namedPath(call)
	}
	if p == "" && a.m == nil {
		p = strings.TrimSpace(firstLine(a.raw))
	}
	if cmd := a.str("command"); cmd != "" && (p == "" || strings.HasPrefix(p, "-")) {
		// SWE-agent "open path [line]", "decompile --function_name f bin".
		w := strings.Fields(cmd)
		p = ""
		for k := 1; k < len(w); k++ {
			if strings.HasPrefix(w[k], "--") {
				k++
				continue
			}
			if p == "" && !isDigits(w[k]) {
				p = w[k]
			}
		}
	}
	if p == "" {
		p = env.openFile
	}
	return fileReadSummary(call.Name, p, env, "")
}

// fileReadSummary builds the summary of a file read whose output is env.
// rng is a line range known from the command ("10-20"), or "".
func fileReadSummary(tool, p string, env envelope, rng string) ToolSummary {
	s := ToolSummary{Tool: tool, Status: StatusSuccess, Metadata: map[string]string{MetaKind: KindRead}}
	body := env.body
	f := analyzeFile(p, body)
	if f.path != "" {
		s.Metadata[MetaFilesRead] = f.path
		s.Metadata[MetaPath] = f.path
	}
	if len(f.defines) > 0 {
		s.Metadata[MetaDefines] = strings.Join(f.defines, "\n")
	}
	s.Metadata[MetaLines] = itoa(CountLines(body))
	s.Metadata[MetaBytes] = itoa(len(body))
	facts := f.facts()
	if rng != "" && f.first == 0 && len(facts) > 1 && strings.HasPrefix(facts[1], "Lines: ") {
		facts[1] = "Lines: " + rng
	}
	failed := readFailure(body)
	if failed != "" || env.hasExit && env.exit != 0 || env.timedOut {
		s.Status = StatusError
		if failed == "" {
			failed = firstLine(body)
		}
		// A failed read has no content worth describing.
		facts = facts[:min(len(facts), 1)]
		if env.hasExit && env.exit != 0 {
			facts = append(facts, "exit "+itoa(env.exit))
			s.Metadata[MetaExitCode] = itoa(env.exit)
		}
		if failed != "" {
			facts = append(facts, "Error: "+shorten(failed, 160))
			s.Metadata[MetaError] = failed
		}
	} else if !f.hasContent {
		facts = append(facts, "empty")
	} else if f.lang == "json" && f.first == 0 && len(body) < 4<<20 {
		facts = append(facts, jsonFacts(body)...)
	}
	if env.elided > 0 {
		facts = append(facts, fmt.Sprintf("%d chars elided", env.elided))
		s.Status = statusMax(s.Status, StatusPartial)
	}
	s.KeyFacts = append(s.KeyFacts, facts...)
	s.KeyFacts = appendExceptions(s.KeyFacts, s.Metadata, body)
	return s
}

// readFailure recognizes a failed read ("No such file or directory", "Is a
// directory", "File ... not found") in the first lines; "" otherwise.
func readFailure(body string) string {
	l := firstLine(body)
	if len(l) > 300 {
		return ""
	}
	ll := strings.ToLower(l)
	for _, k := range []string{"no such file or directory", "is a directory", "permission denied", "does not exist", "cannot open", "can't open", "could not open"} {
		if strings.Contains(ll, k) {
			return l
		}
	}
	if readNotFoundRe.MatchString(l) {
		return l
	}
	return ""
}

// readNotFoundRe matches "File x not found" style notices.
var readNotFoundRe = regexp.MustCompile(`(?i)^(?:error: )?(?:file|path) .{0,200} not found`)

package extractors

import (
	"fmt"
	"regexp"
	"strings"
)

var (
	editFailRe   = regexp.MustCompile(`(?i)^(?:Your proposed edit has introduced new syntax error|Error:|No replacement was performed|ERROR|Failed|Invalid|Unable to|Cannot|old_str .* (?:not found|did not appear)|The search text .* not found|No match found)`)
	sweErrLineRe = regexp.MustCompile(`^- (E\d+ .*)$`)
	replacedRe   = regexp.MustCompile(`^Replaced (\d+) occurrences?`)
)

// lineCount counts the lines of a text argument ("" is 0 lines).
func lineCount(s string) int { return countLines(s) }

// writeExtract is the extractor of file-writing and editing tools:
// create, write_file, edit, str_replace, insert, str_replace_editor, ...
// It reports the path and the lines changed, from the arguments (path,
// content/text, old_str/new_str, search/replace, start_line/end_line) and
// the output (SWE-agent's "[File: … (N lines total)]", failure notices).
func writeExtract(call Call, output string) ToolSummary {
	a := parseArgs(call.Arguments)
	env := unwrap(output)
	name := normName(call.Name)
	s := ToolSummary{Tool: call.Name, Status: StatusSuccess, Metadata: map[string]string{MetaKind: KindWrite}}
	p := a.str(pathKeys...)
	sub := a.str("command")
	if sub != "" && strings.ContainsAny(sub, " \n") {
		// SWE-agent style: "edit 4:4\n…", "create reproduce.py".
		w := strings.Fields(sub)
		if len(w) > 1 && p == "" && !strings.Contains(w[1], ":") {
			p = w[1]
		}
		sub = ""
		if len(w) > 0 { // a command of blanks only has no sub-command
			sub = w[0]
		}
	}
	f := analyzeFile("", env.body)
	if p == "" && f.path != "" {
		p = f.path
	}
	if p == "" {
		p = env.openFile
	}
	if p != "" {
		s.KeyFacts = append(s.KeyFacts, "File: "+p)
		s.Metadata[MetaPath] = p
	}
	// What changed.
	oldS, hasOld := a.m["old_str"].(string)
	if !hasOld {
		oldS, hasOld = a.m["search"].(string)
	}
	newS := a.str("new_str", "replace", "replacement")
	content := a.str("content", "contents", "file_text", "text", "data")
	start, hasStart := a.int("start_line", "line", "insert_line", "line_number")
	end, hasEnd := a.int("end_line")
	switch {
	case hasOld:
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Replaced %d %s with %d", lineCount(oldS), plural(lineCount(oldS), "line", "lines"), lineCount(newS)))
	case sub == "view":
		return readExtract(call, output)
	case hasStart && hasEnd:
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Edited lines %d-%d: %d new %s", start, end, lineCount(content), plural(lineCount(content), "line", "lines")))
	case hasStart:
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Inserted %d %s at line %d", lineCount(content), plural(lineCount(content), "line", "lines"), start))
	case name == "insert" || sub == "insert":
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Inserted %d %s", lineCount(content), plural(lineCount(content), "line", "lines")))
	case content != "":
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Wrote %d %s", lineCount(content), plural(lineCount(content), "line", "lines")))
	case name == "create" || sub == "create":
		s.KeyFacts = append(s.KeyFacts, "Created")
	}
	if f.total > 0 {
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Now %d lines", f.total))
	}
	// Outcome.
	body := strings.TrimSpace(env.body)
	first := firstLine(body)
	if editFailRe.MatchString(first) || env.hasExit && env.exit != 0 {
		s.Status = StatusError
		msg := first
		eachLine(body, func(_ int, line string) bool {
			if m := sweErrLineRe.FindStringSubmatch(strings.TrimRight(line, "\r")); m != nil {
				msg = "Edit rejected: " + m[1]
				return false
			}
			return true
		})
		if env.hasExit && env.exit != 0 {
			s.KeyFacts = append(s.KeyFacts, "exit "+itoa(env.exit))
			s.Metadata[MetaExitCode] = itoa(env.exit)
		}
		s.KeyFacts = append(s.KeyFacts, "Error: "+shorten(msg, 160))
		s.Metadata[MetaError] = msg
		s.KeyFacts = appendExceptions(s.KeyFacts, s.Metadata, body)
		if n := nameInLine(msg); n != "" && s.Metadata[MetaExceptions] == "" {
			s.Metadata[MetaExceptions] = n + " (" + msg + ")"
			s.KeyFacts = append(s.KeyFacts, "Exceptions: "+n)
		}
		return s
	}
	if m := replacedRe.FindStringSubmatch(first); m != nil {
		s.KeyFacts = append(s.KeyFacts, m[0])
	}
	if p != "" {
		s.Metadata[MetaFilesModified] = p
	}
	return s
}

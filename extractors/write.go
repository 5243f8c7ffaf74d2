package extractors

import (
	"fmt"
	"regexp"
	"strings"
)

var (
	editFailRe   = regexp.MustCompile(`(?i)^(?:<tool_use_error>|Your proposed edit has introduced new syntax error|Error:|No replacement was performed|ERROR|Failed|Invalid|Unable to|Cannot|old_str .* (?:not found|did not appear)|The search text .* not found|No match found)`)
	sweErrLineRe = regexp.MustCompile(`^- (E\d+ .*)$`)
	replacedRe   = regexp.MustCompile(`^Replaced (\d+) occurrences?`)
)

// lineCount counts the lines of a text argument ("" is 0 lines).
func lineCount(s string) int { return CountLines(s) }

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
	p, sub := writeTarget(a)
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
	if _, replaces := oldText(a); sub == "view" && !replaces {
		return readExtract(call, output)
	}
	if c := changeFact(a, name, sub); c != "" {
		s.KeyFacts = append(s.KeyFacts, c)
	}
	if f.total > 0 {
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Now %d lines", f.total))
	}
	// Outcome.
	body := strings.TrimSpace(env.body)
	first := firstLine(body)
	if editFailRe.MatchString(first) || env.hasExit && env.exit != 0 {
		editFailure(&s, env, body, first)
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

// writeTarget returns the path an edit names and its sub-command
// ("create", "str_replace", ...), from the arguments: SWE-agent style
// commands ("edit 4:4\n…", "create reproduce.py") give both.
func writeTarget(a callArgs) (p, sub string) {
	p = a.str(pathKeys...)
	sub = a.str("command")
	if sub != "" && strings.ContainsAny(sub, " \n") {
		w := strings.Fields(sub)
		if len(w) > 1 && p == "" && !strings.Contains(w[1], ":") {
			p = w[1]
		}
		sub = ""
		if len(w) > 0 { // a command of blanks only has no sub-command
			sub = w[0]
		}
	}
	return p, sub
}

// oldText returns the text an edit replaces (old_str, search) and whether
// the arguments have it.
func oldText(a callArgs) (string, bool) {
	for _, k := range []string{"old_str", "old_string", "search"} {
		if old, ok := a.m[k].(string); ok {
			return old, true
		}
	}
	// MultiEdit: edits [{old_string, new_string}, ...].
	if edits, ok := a.m["edits"].([]any); ok && len(edits) > 0 {
		var old []string
		for _, e := range edits {
			if m, ok := e.(map[string]any); ok {
				if o, ok := m["old_string"].(string); ok {
					old = append(old, o)
				}
			}
		}
		return strings.Join(old, "\n"), len(old) > 0
	}
	return "", false
}

// changeFact returns the fact of what an edit changed: lines replaced,
// edited, inserted or written, or "Created"; "" when the arguments do
// not tell.
func changeFact(a callArgs, name, sub string) string {
	lines := func(s string) string {
		return fmt.Sprintf("%d %s", lineCount(s), plural(lineCount(s), "line", "lines"))
	}
	content := a.str("content", "contents", "file_text", "text", "data", "new_source", "code")
	start, hasStart := a.int("start_line", "line", "insert_line", "line_number")
	end, hasEnd := a.int("end_line")
	if old, ok := oldText(a); ok {
		if n := editCount(a); n > 1 {
			return fmt.Sprintf("%d edits: replaced %s", n, lines(old))
		}
		return fmt.Sprintf("Replaced %s with %d", lines(old), lineCount(a.str("new_str", "new_string", "replace", "replacement")))
	}
	switch {
	case hasStart && hasEnd:
		return fmt.Sprintf("Edited lines %d-%d: %d new %s", start, end, lineCount(content), plural(lineCount(content), "line", "lines"))
	case hasStart:
		return fmt.Sprintf("Inserted %s at line %d", lines(content), start)
	case name == "insert" || sub == "insert":
		return "Inserted " + lines(content)
	case content != "":
		return "Wrote " + lines(content)
	case name == "create" || sub == "create":
		return "Created"
	}
	return ""
}

// editFailure records a rejected or failed edit in s: the exit status,
// the error (SWE-agent's linter line "- E999 ..." when there is one, else
// the output's first line) and the exceptions it names.
func editFailure(s *ToolSummary, env envelope, body, first string) {
	s.Status = StatusError
	msg := first
	if t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(first), ":")); len(t) <= 8 {
		// "ERROR:" alone (OpenHands' editor): the message is on the next line.
		msg = strings.TrimSpace(first + " " + firstLine(strings.TrimPrefix(body, first)))
	}
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
}

// editCount is the number of edits of a MultiEdit call (0 for others).
func editCount(a callArgs) int {
	edits, _ := a.m["edits"].([]any)
	return len(edits)
}

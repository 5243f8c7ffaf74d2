package extractors

import (
	"regexp"
	"strconv"
	"strings"
)

// envelope is a tool output with its agent-specific wrapping removed.
type envelope struct {
	// body is the command's own output.
	body string
	// exit is the exit status when known (hasExit).
	exit    int
	hasExit bool
	// timedOut is set when the harness killed the command.
	timedOut bool
	// elided is the number of characters the harness cut from the middle
	// of the output (mini-swe-agent's <elided_chars>), 0 when none.
	elided int
	// openFile and cwd come from SWE-agent's prompt suffix.
	openFile, cwd string
	// emptyNote is set when the harness said the command printed nothing.
	emptyNote bool
}

var (
	miniReturnRe  = regexp.MustCompile(`^\s*<returncode>\s*(-?\d+)\s*</returncode>`)
	elidedRe      = regexp.MustCompile(`<elided_chars>\s*(\d+) characters elided\s*</elided_chars>`)
	sweSuffixRe   = regexp.MustCompile(`^\(Open file: ([^\n]*)\)\n\(Current directory: ([^\n]*)\)\n?(?:bash-\$\s*)?$`)
	exitPhraseRe  = regexp.MustCompile(`(?i)(?:exit(?:ed)? (?:with )?(?:code|status)|exit_code|exitcode|return(?:ed)? (?:with )?code|returncode|returned non-zero exit status|process exited with code)[\s:=]*\(?(-?\d+)\)?`)
	timeoutNoteRe = regexp.MustCompile(`(?i)^\s*The last command <command>[\s\S]*?</command> timed out and has been killed`)
)

// unwrap removes the wrappers agents put around tool outputs: mini-swe-agent's
// <returncode>/<output>/<output_head>/<elided_chars>/<output_tail>/<warning>
// tags and timeout notice, SWE-agent's "(Open file: …)(Current directory:
// …)bash-$" suffix and "EXECUTION TIMED OUT", and exit status lines such as
// "exit code 1" or "Exit status 2" at the end of the output.
func unwrap(out string) envelope {
	var e envelope
	s := out
	// SWE-agent suffix "(Open file: …)\n(Current directory: …)\nbash-$".
	if i := strings.LastIndex(s[max(0, len(s)-2048):], "(Open file: "); i >= 0 {
		i += max(0, len(s)-2048)
		if i == 0 || s[i-1] == '\n' {
			if m := sweSuffixRe.FindStringSubmatch(s[i:]); m != nil {
				e.openFile = strings.TrimSpace(m[1])
				if e.openFile == "n/a" {
					e.openFile = ""
				}
				e.cwd = strings.TrimSpace(m[2])
				s = strings.TrimSuffix(s[:i], "\n")
			}
		}
	}
	// mini-swe-agent timeout notice.
	if strings.HasPrefix(strings.TrimSpace(s[:min(len(s), 200)]), "The last command <command>") && timeoutNoteRe.MatchString(s[:min(len(s), 4096)]) {
		e.timedOut = true
		if i := strings.Index(s, "<output>"); i >= 0 {
			s = s[i+len("<output>"):]
			if j := strings.LastIndex(s, "</output>"); j >= 0 {
				s = s[:j]
			}
		}
	}
	// mini-swe-agent return code envelope.
	if m := miniReturnRe.FindStringSubmatchIndex(s[:min(len(s), 200)]); m != nil {
		if n, err := strconv.Atoi(s[m[2]:m[3]]); err == nil {
			e.exit, e.hasExit = n, true
		}
		s = s[m[1]:]
		s = stripTagged(s, &e)
	}
	if t := strings.TrimSpace(s[:min(len(s), 300)]); strings.HasPrefix(t, "EXECUTION TIMED OUT") || strings.HasSuffix(strings.TrimSpace(s), "EXECUTION TIMED OUT") {
		e.timedOut = true
		s = strings.Replace(s, "EXECUTION TIMED OUT", "", 1)
	}
	if t := strings.TrimSpace(s); t == "Your command ran successfully and did not produce any output." {
		e.emptyNote = true
		s = ""
	}
	// Trailing exit status line ("exit code 1", "Exit status: 2", ...).
	if !e.hasExit {
		last := lastLine(s)
		if len(last) < 80 {
			if m := exitPhraseRe.FindStringSubmatch(last); m != nil {
				if n, err := strconv.Atoi(m[1]); err == nil {
					e.exit, e.hasExit = n, true
				}
			}
		}
	}
	e.body = s
	return e
}

// stripTagged handles the part after <returncode>: a <warning> block,
// <output>…</output> or <output_head>…</output_head><elided_chars>…
// </elided_chars><output_tail>…</output_tail>.
func stripTagged(s string, e *envelope) string {
	t := strings.TrimLeft(s, " \r\n")
	if strings.HasPrefix(t, "<warning>") {
		if j := strings.Index(t, "</warning>"); j >= 0 {
			t = strings.TrimLeft(t[j+len("</warning>"):], " \r\n")
		}
	}
	if strings.HasPrefix(t, "<output>") {
		t = strings.TrimPrefix(t, "<output>")
		if j := strings.LastIndex(t, "</output>"); j >= 0 {
			t = t[:j]
		}
		return strings.TrimPrefix(t, "\n")
	}
	if strings.HasPrefix(t, "<output_head>") {
		t = strings.TrimPrefix(t, "<output_head>")
		head, rest, ok := strings.Cut(t, "</output_head>")
		if !ok {
			return strings.TrimPrefix(t, "\n")
		}
		if m := elidedRe.FindStringSubmatch(rest[:min(len(rest), 200)]); m != nil {
			e.elided, _ = strconv.Atoi(m[1])
		}
		tail := ""
		if i := strings.Index(rest, "<output_tail>"); i >= 0 {
			tail = rest[i+len("<output_tail>"):]
			if j := strings.LastIndex(tail, "</output_tail>"); j >= 0 {
				tail = tail[:j]
			}
		}
		return strings.TrimPrefix(head, "\n") + "\n" + strings.TrimPrefix(tail, "\n")
	}
	return s
}

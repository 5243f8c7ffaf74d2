package extractors

import (
	"fmt"
	"strings"
)

// shellExtract is the extractor of shell tools (bash, execute, shell, ...).
// It parses the command line (argument "command", "cmd", ... or the raw
// input), routes the output to the matching analysis (file read, search,
// test run, git, HTTP, SQL, plain command) and adds the files the command
// writes (heredocs, redirections, sed -i, rm, mv, ...), the exit status in
// its common forms and the exceptions raised.
func shellExtract(call Call, output string) ToolSummary {
	a := parseArgs(call.Arguments)
	cmdline := a.str(commandKeys...)
	if cmdline == "" && a.m == nil {
		cmdline = a.raw
	}
	env := unwrap(output)
	plan := planShell(cmdline)
	return shellSummary(call.Name, cmdline, plan, env)
}

// shellSummary combines a plan and an output.
func shellSummary(tool, cmdline string, plan shellPlan, env envelope) ToolSummary {
	// The pipeline whose output is described: the highest-ranked one; the
	// last of equal rank.
	primary := -1
	var writes []shellWrite
	var reads []string
	for i, op := range plan.ops {
		writes = append(writes, op.writes...)
		reads = append(reads, op.reads...)
		if primary < 0 || op.kind >= plan.ops[primary].kind {
			primary = i
		}
	}
	var op shellOp
	if primary >= 0 {
		op = plan.ops[primary]
		if strings.Contains(strings.TrimSpace(cmdline), "\n") && op.text != "" {
			// Multi-line command (here-documents, scripts): show the
			// pipeline whose output this is.
			plan.display = shorten(op.text, 160)
		}
	}
	body := env.body
	var s ToolSummary
	showCmd := true
	switch op.kind {
	case opRead:
		p := strings.Join(dedupeStrings(reads), ", ")
		s = fileReadSummary(tool, p, env, op.rng)
		if len(reads) > 1 {
			// Several files: content facts would mix them.
			s.KeyFacts = keepPrefixed(s.KeyFacts, "File: ", "Lines: ", "Exceptions: ", "Error: ", "exit ")
			s.Metadata[MetaDefines] = ""
		}
		s.Metadata[MetaFilesRead] = strings.Join(dedupeStrings(reads), "\n")
		showCmd = false
	case opSearch:
		s = searchSummary(tool, op.search, env)
		showCmd = op.search.pattern == "" && len(op.search.paths) == 0
	case opGit:
		s = gitSummary(tool, op.gitSub, env)
	case opHTTP:
		s = httpSummary(tool, op.url, env)
	case opSQL:
		s = sqlSummary(tool, op.query, env)
	default:
		s = execSummary(tool, op.kind == opTest, env)
		if op.kind == opWrite || op.kind == opNone {
			showCmd = len(writes) == 0
		}
	}
	if s.Metadata == nil {
		s.Metadata = map[string]string{}
	}
	s.Metadata[MetaCommand] = commandSummary(cmdline, plan)
	if op.kind == opTest {
		s.Metadata[MetaKind] = KindTest
	}
	var head []string
	if showCmd && plan.display != "" {
		head = append(head, "$ "+plan.display)
	}
	if env.hasExit {
		s.Metadata[MetaExitCode] = itoa(env.exit)
		if env.exit != 0 {
			head = append(head, "exit "+itoa(env.exit))
			// grep/diff exit 1 means "no match"/"differs", not failure.
			if !(env.exit == 1 && (op.kind == opSearch || op.kind == opRead && strings.TrimSpace(body) == "")) {
				s.Status = StatusError
			}
		}
	}
	if env.timedOut {
		head = append(head, "timed out")
		s.Status = StatusError
		s.Metadata[MetaError] = "timed out"
	}
	if env.elided > 0 && !containsPrefix(s.KeyFacts, fmt.Sprintf("%d chars elided", env.elided)) {
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("%d chars elided", env.elided))
		s.Status = statusMax(s.Status, StatusPartial)
	}
	wf := writeFacts(writes)
	var modified []string
	for _, w := range writes {
		modified = append(modified, w.path)
	}
	if len(modified) > 0 {
		s.Metadata[MetaFilesModified] = strings.Join(dedupeStrings(modified), "\n")
	}
	// Files the command read but no fact names.
	if op.kind != opRead {
		var also []string
		for _, r := range reads {
			if !strings.Contains(plan.display, r) || !showCmd {
				also = append(also, r)
			}
		}
		if len(also) > 0 {
			wf = append(wf, "Also read: "+strings.Join(dedupeStrings(also), ", "))
			prev := s.Metadata[MetaFilesRead]
			if prev != "" {
				prev += "\n"
			}
			s.Metadata[MetaFilesRead] = prev + strings.Join(dedupeStrings(also), "\n")
		}
	}
	facts := make([]string, 0, len(head)+len(wf)+len(s.KeyFacts))
	facts = append(facts, head...)
	// Errors first among the output facts, then writes, then the rest.
	// Error facts in a fixed order: the main error (with the exception's
	// name and location), the other exceptions' names, the test summary,
	// the failing tests; so that a cap on the line cuts the longest last.
	errOrder := []string{"Error: ", "Exceptions: ", "Tests: ", "Failed: "}
	byKind := make([][]string, len(errOrder))
	var errs, rest []string
	for _, f := range s.KeyFacts {
		k := -1
		for i, p := range errOrder {
			if strings.HasPrefix(f, p) {
				k = i
				break
			}
		}
		switch {
		case k >= 0:
			byKind[k] = append(byKind[k], f)
		case f != "exit "+itoa(env.exit):
			rest = append(rest, f)
		}
	}
	for _, fs := range byKind {
		errs = append(errs, fs...)
	}
	if op.kind == opRead || op.kind == opSearch {
		// The file and pattern facts identify the call: keep them first.
		facts = append(facts, rest...)
		facts = append(facts, errs...)
		facts = append(facts, wf...)
	} else {
		facts = append(facts, errs...)
		facts = append(facts, wf...)
		facts = append(facts, rest...)
	}
	s.KeyFacts = facts
	s.Tool = tool
	return s
}

// execSummary summarizes a plain command's output: test summary,
// exceptions, first error line, size, first and last lines.
func execSummary(tool string, isTest bool, env envelope) ToolSummary {
	s := ToolSummary{Tool: tool, Status: StatusSuccess, Metadata: map[string]string{MetaKind: KindExec}}
	body := env.body
	lines := countLines(body)
	s.Metadata[MetaLines] = itoa(lines)
	s.Metadata[MetaBytes] = itoa(len(body))
	tr := scanTests(body)
	s.KeyFacts = append(s.KeyFacts, tr.facts()...)
	if tr.found && tr.failing {
		s.Status = StatusError
	}
	if tr.summary != "" {
		s.Metadata[MetaTests] = tr.summary
	}
	if len(tr.failed) > 0 {
		s.Metadata[MetaFailedTests] = strings.Join(tr.failed, "\n")
	}
	excs, firstErr := scanErrors(body)
	if len(excs) > 0 {
		names := make([]string, len(excs))
		full := make([]string, len(excs))
		for i, e := range excs {
			names[i], full[i] = e.name, e.String()
		}
		s.KeyFacts = append(s.KeyFacts, "Error: "+shorten(full[0], 160))
		if len(excs) > 1 {
			s.KeyFacts = append(s.KeyFacts, "Exceptions: "+strings.Join(names[1:], ", "))
		}
		s.Metadata[MetaExceptions] = strings.Join(full, "\n")
		s.Metadata[MetaError] = full[0]
		if !env.hasExit {
			s.Status = StatusError
		}
	} else if firstErr != "" && !tr.found {
		s.KeyFacts = append(s.KeyFacts, "Error: "+shorten(firstErr, 160))
		s.Metadata[MetaError] = firstErr
		if !env.hasExit {
			s.Status = StatusError
		}
	}
	if t := strings.TrimSpace(body); len(t) < 4<<20 && (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) {
		s.KeyFacts = append(s.KeyFacts, jsonFacts(t)...)
	}
	switch {
	case strings.TrimSpace(body) == "":
		if !env.timedOut {
			s.KeyFacts = append(s.KeyFacts, "no output")
		}
	case !tr.found || lines > 1:
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Output: %d %s", lines, plural(lines, "line", "lines")))
		first, last := firstLine(body), lastLine(body)
		if !tr.found {
			if first != "" {
				s.KeyFacts = append(s.KeyFacts, "First: "+shorten(first, 100))
			}
			if last != "" && last != first {
				s.KeyFacts = append(s.KeyFacts, "Last: "+shorten(last, 100))
			}
		}
	}
	return s
}

// keepPrefixed keeps the facts that start with one of prefixes.
func keepPrefixed(facts []string, prefixes ...string) []string {
	var out []string
	for _, f := range facts {
		for _, p := range prefixes {
			if strings.HasPrefix(f, p) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

func containsPrefix(facts []string, p string) bool {
	for _, f := range facts {
		if strings.HasPrefix(f, p) {
			return true
		}
	}
	return false
}

// commandSummary is the command as kept in metadata (and in the digest):
// the first line when the command is one line, else the pipelines' text
// joined with " && ", at most 300 bytes.
func commandSummary(cmdline string, plan shellPlan) string {
	c := strings.TrimSpace(cmdline)
	if !strings.Contains(c, "\n") {
		return shorten(c, 300)
	}
	parts := make([]string, 0, len(plan.ops))
	for _, op := range plan.ops {
		if op.text != "" {
			parts = append(parts, op.text)
		}
	}
	return shorten(strings.Join(parts, " && "), 300)
}

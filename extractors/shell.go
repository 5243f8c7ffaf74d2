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
	op, reads, writes := plan.primary()
	if strings.Contains(strings.TrimSpace(cmdline), "\n") && op.text != "" {
		// Multi-line command (here-documents, scripts): show the pipeline
		// whose output this is.
		plan.display = shorten(op.text, 160)
	}
	s, showCmd := opSummary(tool, op, reads, len(writes) > 0, env)
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
	head = append(head, exitFacts(&s, op, env)...)
	wf := writeFacts(writes)
	var modified []string
	for _, w := range writes {
		modified = append(modified, w.path)
	}
	if len(modified) > 0 {
		s.Metadata[MetaFilesModified] = strings.Join(dedupeStrings(modified), "\n")
	}
	if op.kind != opRead {
		wf = append(wf, alsoRead(&s, reads, plan.display, showCmd)...)
	}
	s.KeyFacts = orderFacts(head, s.KeyFacts, wf, op.kind, env.exit)
	s.Tool = tool
	opPaths(s.Metadata, plan.ops)
	return s
}

// opPaths records in md the paths every pipeline of a command names, by
// what it does to them: read, searched or listed, tested, run (the files
// written are recorded with the writes).
func opPaths(md map[string]string, ops []shellOp) {
	for _, o := range ops {
		switch o.kind {
		case opSearch:
			addMeta(md, searchPathsKey(o.search), o.search.paths...)
		case opTest:
			addMeta(md, MetaFilesTested, o.runs...)
		default:
			addMeta(md, MetaFilesRead, o.reads...)
			addMeta(md, MetaFilesRun, o.runs...)
		}
	}
}

// primary returns the pipeline whose output is described (the
// highest-ranked one; the last of equal rank), with the files all the
// pipelines read and write.
func (p shellPlan) primary() (op shellOp, reads []string, writes []shellWrite) {
	best := -1
	for i, o := range p.ops {
		writes = append(writes, o.writes...)
		reads = append(reads, o.reads...)
		if best < 0 || o.kind >= p.ops[best].kind {
			best = i
		}
	}
	if best >= 0 {
		op = p.ops[best]
	}
	return op, reads, writes
}

// opSummary summarizes the output by the kind of the primary pipeline op:
// a file read, a search, git, HTTP, SQL or a plain command (writes says
// whether the command writes files). It reports whether the command
// itself is worth a fact.
func opSummary(tool string, op shellOp, reads []string, writes bool, env envelope) (s ToolSummary, showCmd bool) {
	showCmd = true
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
			showCmd = !writes
		}
	}
	return s, showCmd
}

// exitFacts records the exit status, a time-out and elided output in s
// and returns the facts that lead the summary ("exit 1", "timed out"). A
// grep or diff exit 1 means "no match" or "differs", not a failure.
func exitFacts(s *ToolSummary, op shellOp, env envelope) []string {
	var head []string
	if env.hasExit {
		s.Metadata[MetaExitCode] = itoa(env.exit)
		if env.exit != 0 {
			head = append(head, "exit "+itoa(env.exit))
			if !(env.exit == 1 && (op.kind == opSearch || op.kind == opRead && strings.TrimSpace(env.body) == "")) {
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
	return head
}

// alsoRead records in s the files the command read that no fact names
// (not in the displayed command, or the command is not shown) and returns
// the fact "Also read: ..." for them, if any.
func alsoRead(s *ToolSummary, reads []string, display string, showCmd bool) []string {
	var also []string
	for _, r := range reads {
		if !strings.Contains(display, r) || !showCmd {
			also = append(also, r)
		}
	}
	if len(also) == 0 {
		return nil
	}
	prev := s.Metadata[MetaFilesRead]
	if prev != "" {
		prev += "\n"
	}
	s.Metadata[MetaFilesRead] = prev + strings.Join(dedupeStrings(also), "\n")
	return []string{"Also read: " + strings.Join(dedupeStrings(also), ", ")}
}

// orderFacts puts a shell summary's facts in order: head (the command,
// the exit status), then the error facts, the writes wf and the rest of
// the output facts; for reads and searches, whose file and pattern facts
// identify the call, the rest comes before the errors. The error facts
// come in a fixed order, so that a cap on the line cuts the longest last:
// the main error (with the exception's name and location), the other
// exceptions' names, the test summary, the failing tests. The output's
// own "exit N" fact is dropped (head has it).
func orderFacts(head, output, wf []string, kind opKind, exit int) []string {
	errOrder := []string{"Error: ", "Exceptions: ", "Tests: ", "Failed: "}
	byKind := make([][]string, len(errOrder))
	var errs, rest []string
	for _, f := range output {
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
		case f != "exit "+itoa(exit):
			rest = append(rest, f)
		}
	}
	for _, fs := range byKind {
		errs = append(errs, fs...)
	}
	facts := make([]string, 0, len(head)+len(wf)+len(output))
	facts = append(facts, head...)
	if kind == opRead || kind == opSearch {
		facts = append(facts, rest...)
		facts = append(facts, errs...)
		return append(facts, wf...)
	}
	facts = append(facts, errs...)
	facts = append(facts, wf...)
	return append(facts, rest...)
}

// execSummary summarizes a plain command's output: test summary,
// exceptions, first error line, size, first and last lines.
func execSummary(tool string, isTest bool, env envelope) ToolSummary {
	s := ToolSummary{Tool: tool, Status: StatusSuccess, Metadata: map[string]string{MetaKind: KindExec}}
	body := env.body
	lines := CountLines(body)
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
		names, full := excLists(excs)
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
// joined with " && ", at most 300 bytes. A first line that feeds a
// here-document is kept as written, its body elided ("cat <<'EOF' > f.py …
// && python3 f.py"): the command as the agent wrote it, which is how it is
// looked for.
func commandSummary(cmdline string, plan shellPlan) string {
	c := strings.TrimSpace(cmdline)
	first, _, multi := strings.Cut(c, "\n")
	if !multi {
		return shorten(c, 300)
	}
	verbatim := false
	for _, op := range plan.ops {
		verbatim = verbatim || (!op.laterLine && op.hereDoc)
	}
	parts := make([]string, 0, len(plan.ops)+1)
	if verbatim {
		parts = append(parts, strings.TrimSpace(first)+" …")
	}
	for _, op := range plan.ops {
		if op.text != "" && (!verbatim || op.laterLine) {
			parts = append(parts, op.text)
		}
	}
	return shorten(strings.Join(parts, " && "), 300)
}

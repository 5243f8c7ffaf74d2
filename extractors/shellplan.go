package extractors

import (
	"fmt"
	"path"
	"strings"

	"github.com/agentcompact/compact/internal/callpaths"
	"github.com/agentcompact/compact/internal/shellwords"
)

// opKind classifies one pipeline of a shell command.
type opKind int

const (
	opNone   opKind = iota // cd, export, ...: no output worth describing
	opWrite                // writes files, prints nothing
	opEcho                 // echo/printf to stdout
	opMisc                 // git add, mkdir -v, ...: little output
	opRead                 // cat, nl, head, tail, sed -n
	opSearch               // grep, rg, find, ls
	opGit                  // git diff/log/status/show
	opExec                 // python script, make, ...
	opHTTP                 // curl, wget
	opSQL                  // sqlite3, psql, mysql
	opTest                 // pytest, go test, runtests.py, ...
)

// shellOp is what one pipeline does.
type shellOp struct {
	kind   opKind
	reads  []string // files read
	rng    string   // line range of a read ("10-20", "1-50", "last 20")
	search searchOpts
	gitSub string
	url    string
	query  string
	writes []shellWrite
	runs   []string // path words of a command run (script, test files), as written
	text   string   // the pipeline, re-quoted
	// laterLine says the pipeline starts on a later line of the command
	// line than the first (after a newline, here-document bodies skipped).
	laterLine bool
	// hereDoc says a command of the pipeline is fed a here-document.
	hereDoc bool
}

// shellPlan is what a whole command line does.
type shellPlan struct {
	display string // the command, compacted for a fact
	ops     []shellOp
}

// testRunners are commands (base names) that run tests.
var testRunners = map[string]bool{
	"pytest": true, "py.test": true, "tox": true, "nox": true, "jest": true, "vitest": true,
	"mocha": true, "phpunit": true, "rspec": true, "ctest": true, "runtests.py": true,
	"runtests": true, "gotestsum": true, "nosetests": true, "trial": true, "ava": true,
}

// planShell parses a command line into the operations of its pipelines.
func planShell(cmdline string) shellPlan {
	cmds := shellwords.Parse(cmdline)
	var p shellPlan
	p.display = displayCommand(cmdline)
	for i := 0; i < len(cmds); {
		j := i + 1
		for j < len(cmds) && cmds[j].Sep == "|" {
			j++
		}
		op := classifyPipeline(cmds[i:j])
		op.text = pipelineText(cmds[i:j])
		op.laterLine = i > 0 && (cmds[i].Sep == "\n" || p.ops[len(p.ops)-1].laterLine)
		for _, c := range cmds[i:j] {
			op.hereDoc = op.hereDoc || c.HasHereDoc
		}
		p.ops = append(p.ops, op)
		i = j
	}
	return p
}

// displayCommand compacts a command line for a fact: first line, without a
// leading "cd DIR &&", at most 160 bytes.
func displayCommand(cmdline string) string {
	c := strings.TrimSpace(cmdline)
	for strings.HasPrefix(c, "cd ") {
		i := strings.Index(c, "&&")
		if i < 0 || strings.Contains(c[:i], "\n") {
			break
		}
		c = strings.TrimSpace(c[i+2:])
	}
	first := c
	if i := strings.IndexByte(c, '\n'); i >= 0 {
		first = strings.TrimSpace(c[:i])
		rest := strings.Count(c[i:], "\n")
		if rest > 0 {
			first += fmt.Sprintf(" … (+%d lines)", rest)
		}
	}
	return shorten(first, 160)
}

// classifyPipeline classifies one pipeline (commands joined by |).
func classifyPipeline(cmds []shellwords.Command) shellOp {
	c := cmds[0]
	name := c.Name()
	op := shellOp{}
	// Output redirected to a file: the pipeline writes that file.
	if w, ok := redirectWrite(c, cmds[len(cmds)-1]); ok {
		op.writes = append(op.writes, w)
		if name == "cat" || name == "echo" || name == "printf" || name == "tee" {
			op.kind = opWrite
			return op
		}
	}
	op.writes = append(op.writes, teeWrites(cmds)...)
	classifyCommand(&op, c, downstreamOf(cmds[1:]))
	return op
}

// redirectWrite returns the write of a pipeline whose last command's
// output goes to a file; first is the pipeline's first command, whose
// here-document or echoed words give the lines written.
func redirectWrite(first, last shellwords.Command) (shellWrite, bool) {
	f, appendMode := last.OutFile()
	if f == "" {
		return shellWrite{}, false
	}
	how := "wrote"
	if appendMode {
		how = "appended"
	}
	name := first.Name()
	lines := -1
	if first.HasHereDoc && (name == "cat" || name == "tee") {
		lines = lineCount(first.HereDoc)
	} else if name == "echo" || name == "printf" {
		lines = 1
		if len(first.Args) > 1 {
			lines = strings.Count(strings.Join(first.Args[1:], " "), "\n") + 1
		}
	}
	return shellWrite{path: f, how: how, lines: lines}, true
}

// teeWrites returns the files the tee commands of a pipeline write.
func teeWrites(cmds []shellwords.Command) []shellWrite {
	var out []shellWrite
	for _, x := range cmds {
		if x.Name() != "tee" {
			continue
		}
		for _, f := range fileArgs(x.Args, 1) {
			lines := -1
			if x.HasHereDoc {
				lines = lineCount(x.HereDoc)
			}
			out = append(out, shellWrite{path: f, how: "wrote", lines: lines})
		}
	}
	return out
}

// downstream is what the commands after the first of a pipeline do to its
// output: the line range they keep (sed -n 'a,bp', head, tail) and the
// grep they filter it with.
type downstream struct {
	rng  string
	grep *shellwords.Command
}

// downstreamOf reads the commands after the first of a pipeline.
func downstreamOf(rest []shellwords.Command) downstream {
	var down downstream
	for _, d := range rest {
		switch d.Name() {
		case "sed":
			if r := sedPrintRange(d.Args); r != "" {
				down.rng = r
			}
		case "head":
			down.rng = headRange(d.Args, true)
		case "tail":
			down.rng = headRange(d.Args, false)
		case "grep", "egrep", "fgrep", "rg":
			if down.grep == nil {
				dd := d
				down.grep = &dd
			}
		case "xargs":
			if len(d.Args) > 1 {
				sub := shellwords.Command{Args: shellwords.StripWrappers(fileArgsKeepAll(d.Args[1:]))}
				if n := sub.Name(); n == "grep" || n == "egrep" || n == "rg" {
					down.grep = &sub
				}
			}
		}
	}
	return down
}

// classifyCommand sets op's kind and what it reads, searches, writes or
// fetches from the first command c of a pipeline and what follows it.
func classifyCommand(op *shellOp, c shellwords.Command, down downstream) {
	name := c.Name()
	switch name {
	case "", "cd", "export", "source", ".", "set", "unset", "true", "false", ":", "pushd", "popd", "alias", "clear", "sleep", "wait":
		op.kind = opNone
	case "file", "wc", "stat", "md5sum", "sha256sum":
		op.kind = opExec
		op.reads = fileArgs(c.Args, 1)
	case "cat", "nl", "less", "more", "bat", "view", "head", "tail", "strings", "xxd", "hexdump", "od":
		classifyRead(op, c, down)
	case "sed", "gsed", "perl":
		classifySed(op, c, down)
	case "awk":
		op.kind = opRead
		op.reads = fileArgs(c.Args, 2)
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep":
		op.kind = opSearch
		op.search = grepOpts(c)
	case "find", "fd", "locate":
		op.kind = opSearch
		op.search = findOpts(c)
		if down.grep != nil {
			g := grepOpts(*down.grep)
			g.paths = op.search.paths
			g.multi = true
			op.search = g
		}
	case "ls", "tree", "dir", "du":
		op.kind = opSearch
		op.search = searchOpts{tool: name, paths: fileArgs(c.Args, 1), filesOnly: true}
		if down.grep != nil {
			op.search.pattern = grepOpts(*down.grep).pattern
		}
	case "echo", "printf":
		op.kind = opEcho
	case "rm", "rmdir", "unlink", "mkdir", "touch", "mv", "cp", "ln", "install":
		op.kind = opWrite
		op.writes = append(op.writes, fileOpWrites(name, c.Args)...)
	case "chmod", "chown":
		op.kind = opMisc
	case "git":
		op.kind, op.gitSub = gitOp(c.Args)
	case "curl", "wget", "http", "https", "httpie":
		op.kind = opHTTP
		op.url = firstURL(c.Args[1:])
	case "sqlite3", "psql", "mysql", "duckdb", "sqlcmd":
		op.kind = opSQL
		op.query = sqlQuery(c)
	case "jq":
		op.kind = opExec
	case "patch":
		op.kind = opWrite
	default:
		op.kind = opExec
		if isTestCommand(c.Args) {
			op.kind = opTest
		}
		op.runs = runWords(c.Args)
	}
}

// runWords returns the path words ([callpaths.Word]) of a command that
// runs something, as written ("tests/test_x.py::test_y" stays whole): the
// command word when it holds a '/' ("./build.sh"), then the operands, not
// options nor the code of python -c.
func runWords(args []string) []string {
	var out []string
	for k := 0; k < len(args); k++ {
		a := args[k]
		switch {
		case k == 0 && !strings.Contains(a, "/"):
			continue
		case k > 0 && a == "-c" && strings.HasPrefix(path.Base(args[0]), "python"):
			k++ // the code
			continue
		case k > 0 && strings.HasPrefix(a, "-"):
			continue
		}
		if _, ok := callpaths.Word(a); ok {
			out = append(out, strings.Trim(a, ",;"))
		}
	}
	return out
}

// classifyRead classifies a command that prints files (cat, nl, head,
// tail, ...): a read of a line range, or a search when grep filters it.
func classifyRead(op *shellOp, c shellwords.Command, down downstream) {
	op.kind = opRead
	op.reads = fileArgs(c.Args, 1)
	switch c.Name() {
	case "head":
		op.rng = headRange(c.Args, true)
		op.reads = fileArgsSkipValues(c.Args, "-n", "-c")
	case "tail":
		op.rng = headRange(c.Args, false)
		op.reads = fileArgsSkipValues(c.Args, "-n", "-c")
	}
	if down.rng != "" {
		op.rng = down.rng
	}
	if down.grep != nil {
		op.kind = opSearch
		op.search = grepOpts(*down.grep)
		op.search.paths = append(op.search.paths, op.reads...)
		op.search.multi = false
	}
	if len(op.reads) == 0 && op.kind == opRead {
		op.kind = opMisc
	}
}

// classifySed classifies sed and perl: an in-place edit (-i, perl -pi) of
// its files, else a read of a line range, or a search when grep filters
// it.
func classifySed(op *shellOp, c shellwords.Command, down downstream) {
	if hasFlagPrefix(c.Args, "-i") || c.Name() == "perl" && hasFlagPrefix(c.Args, "-pi") {
		op.kind = opWrite
		expr, files := sedExprFiles(c.Args)
		for _, f := range files {
			op.writes = append(op.writes, shellWrite{path: f, how: "edited", lines: -1, detail: expr})
		}
		return
	}
	op.kind = opRead
	op.rng = sedPrintRange(c.Args)
	_, op.reads = sedExprFiles(c.Args)
	if down.rng != "" {
		op.rng = down.rng
	}
	if down.grep != nil {
		op.kind = opSearch
		op.search = grepOpts(*down.grep)
		op.search.paths = op.reads
		op.search.multi = false
	}
}

// fileOpWrites returns the writes of a file operation: rm, rmdir, unlink
// (removed), mkdir, touch (created), mv, cp, ln, install (the destination,
// from the sources).
func fileOpWrites(name string, args []string) []shellWrite {
	var out []shellWrite
	switch name {
	case "rm", "rmdir", "unlink":
		for _, f := range fileArgs(args, 1) {
			out = append(out, shellWrite{path: f, how: "removed", lines: -1})
		}
	case "mkdir", "touch":
		for _, f := range fileArgs(args, 1) {
			out = append(out, shellWrite{path: f, how: "created", lines: -1})
		}
	default:
		fa := fileArgs(args, 1)
		if len(fa) >= 2 {
			how := map[string]string{"mv": "moved", "cp": "copied", "ln": "linked", "install": "installed"}[name]
			dst := fa[len(fa)-1]
			out = append(out, shellWrite{path: dst, how: how, lines: -1, detail: "from " + strings.Join(fa[:len(fa)-1], ", ")})
		}
	}
	return out
}

// firstURL returns the first argument that is a URL, or "".
func firstURL(args []string) string {
	for _, a := range args {
		if strings.HasPrefix(a, "http://") || strings.HasPrefix(a, "https://") || strings.Contains(a, "://") {
			return a
		}
	}
	return ""
}

// sqlQuery returns the query of a SQL client command: its here-document,
// else its last operand.
func sqlQuery(c shellwords.Command) string {
	if c.HasHereDoc {
		return c.HereDoc
	}
	if fa := fileArgs(c.Args, 1); len(fa) > 0 {
		return fa[len(fa)-1]
	}
	return ""
}

// gitOp classifies a git command.
func gitOp(args []string) (opKind, string) {
	sub := ""
	for k := 1; k < len(args); k++ {
		a := args[k]
		if a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" {
			k++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		sub = a
		break
	}
	switch sub {
	case "diff", "log", "show", "status", "blame", "grep", "branch", "stash", "apply", "checkout", "restore", "reset", "commit", "merge", "rebase", "cherry-pick", "shortlog", "ls-files", "rev-parse":
		if sub == "grep" {
			return opSearch, sub
		}
		return opGit, sub
	}
	return opMisc, sub
}

// isTestCommand reports whether argv runs a test suite.
func isTestCommand(args []string) bool {
	if len(args) == 0 {
		return false
	}
	base := path.Base(args[0])
	if testRunners[base] {
		return true
	}
	rest := args[1:]
	switch {
	case strings.HasPrefix(base, "python"):
		for k := 0; k < len(rest); k++ {
			a := rest[k]
			if a == "-m" && k+1 < len(rest) {
				m := rest[k+1]
				return m == "pytest" || m == "unittest" || m == "nose" || m == "tox" || m == "django" && k+2 < len(rest) && rest[k+2] == "test"
			}
			if strings.HasPrefix(a, "-") {
				continue
			}
			b := path.Base(a)
			return testRunners[b] || b == "manage.py" && k+1 < len(rest) && rest[k+1] == "test" || strings.HasPrefix(b, "test_") && strings.HasSuffix(b, ".py") && strings.Contains(a, "tests/")
		}
	case base == "go" || base == "cargo" || base == "dotnet" || base == "mvn" || base == "gradle" || base == "swift":
		return len(rest) > 0 && rest[0] == "test"
	case base == "npm" || base == "yarn" || base == "pnpm" || base == "bun":
		return len(rest) > 0 && (rest[0] == "test" || rest[0] == "run" && len(rest) > 1 && strings.HasPrefix(rest[1], "test"))
	case base == "npx" || base == "bunx":
		return len(rest) > 0 && testRunners[rest[0]]
	case base == "make":
		return len(rest) > 0 && (rest[0] == "test" || rest[0] == "check")
	case base == "test" && strings.Contains(args[0], "/"): // bin/test
		return true
	}
	return false
}

// pipelineText re-quotes a pipeline for display (here-document bodies are
// left out).
func pipelineText(cmds []shellwords.Command) string {
	var b strings.Builder
	for k, c := range cmds {
		if k > 0 {
			b.WriteString(" | ")
		}
		for i, a := range c.Args {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(shellQuote(a))
		}
		for _, r := range c.Redirections {
			if strings.HasPrefix(r.Target, "&") {
				continue
			}
			b.WriteString(" " + r.Op + " " + shellQuote(r.Target))
		}
		if b.Len() > 400 {
			break
		}
	}
	return b.String()
}

// shellQuote quotes a word for display when it needs it.
func shellQuote(w string) string {
	if w == "" {
		return "''"
	}
	if !strings.ContainsAny(w, " \t\n'\"$`\\|&;<>()*?[]{}!#~") {
		return w
	}
	if i := strings.IndexByte(w, '\n'); i >= 0 {
		w = w[:i] + "…"
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

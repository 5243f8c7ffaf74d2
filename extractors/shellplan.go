package extractors

import (
	"fmt"
	"path"
	"strings"

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
	text   string // the pipeline, re-quoted
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
	last := cmds[len(cmds)-1]
	if f, appendMode := last.OutFile(); f != "" {
		how := "wrote"
		if appendMode {
			how = "appended"
		}
		lines := -1
		if c.HasHereDoc && (name == "cat" || name == "tee") {
			lines = lineCount(c.HereDoc)
		} else if name == "echo" || name == "printf" {
			lines = 1
			if len(c.Args) > 1 {
				lines = strings.Count(strings.Join(c.Args[1:], " "), "\n") + 1
			}
		}
		op.writes = append(op.writes, shellWrite{path: f, how: how, lines: lines})
		if name == "cat" || name == "echo" || name == "printf" || name == "tee" {
			op.kind = opWrite
			return op
		}
	}
	for _, x := range cmds {
		if x.Name() == "tee" {
			for _, f := range fileArgs(x.Args, 1) {
				lines := -1
				if x.HasHereDoc {
					lines = lineCount(x.HereDoc)
				}
				op.writes = append(op.writes, shellWrite{path: f, how: "wrote", lines: lines})
			}
		}
	}
	// Downstream commands that shape a read: sed -n 'a,bp', head, tail, grep.
	downRange := ""
	var downGrep *shellwords.Command
	for k := 1; k < len(cmds); k++ {
		d := cmds[k]
		switch d.Name() {
		case "sed":
			if r := sedPrintRange(d.Args); r != "" {
				downRange = r
			}
		case "head":
			downRange = headRange(d.Args, true)
		case "tail":
			downRange = headRange(d.Args, false)
		case "grep", "egrep", "fgrep", "rg":
			if downGrep == nil {
				dd := d
				downGrep = &dd
			}
		case "xargs":
			if len(d.Args) > 1 {
				sub := shellwords.Command{Args: shellwords.StripWrappers(fileArgsKeepAll(d.Args[1:]))}
				if n := sub.Name(); n == "grep" || n == "egrep" || n == "rg" {
					dd := sub
					downGrep = &dd
				}
			}
		}
	}
	switch name {
	case "", "cd", "export", "source", ".", "set", "unset", "true", "false", ":", "pushd", "popd", "alias", "clear", "sleep", "wait":
		op.kind = opNone
	case "file", "wc", "stat", "md5sum", "sha256sum":
		op.kind = opExec
		op.reads = fileArgs(c.Args, 1)
	case "cat", "nl", "less", "more", "bat", "view", "head", "tail", "strings", "xxd", "hexdump", "od":
		op.kind = opRead
		op.reads = fileArgs(c.Args, 1)
		switch name {
		case "head":
			op.rng = headRange(c.Args, true)
			op.reads = fileArgsSkipValues(c.Args, "-n", "-c")
		case "tail":
			op.rng = headRange(c.Args, false)
			op.reads = fileArgsSkipValues(c.Args, "-n", "-c")
		}
		if downRange != "" {
			op.rng = downRange
		}
		if downGrep != nil {
			op.kind = opSearch
			op.search = grepOpts(*downGrep)
			op.search.paths = append(op.search.paths, op.reads...)
			op.search.multi = false
		}
		if len(op.reads) == 0 && op.kind == opRead {
			op.kind = opMisc
		}
	case "sed", "gsed", "perl":
		if hasFlagPrefix(c.Args, "-i") || name == "perl" && hasFlagPrefix(c.Args, "-pi") {
			op.kind = opWrite
			expr, files := sedExprFiles(c.Args)
			for _, f := range files {
				op.writes = append(op.writes, shellWrite{path: f, how: "edited", lines: -1, detail: expr})
			}
			return op
		}
		op.kind = opRead
		op.rng = sedPrintRange(c.Args)
		_, op.reads = sedExprFiles(c.Args)
		if downRange != "" {
			op.rng = downRange
		}
		if downGrep != nil {
			op.kind = opSearch
			op.search = grepOpts(*downGrep)
			op.search.paths = op.reads
			op.search.multi = false
		}
	case "awk":
		op.kind = opRead
		op.reads = fileArgs(c.Args, 2)
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep":
		op.kind = opSearch
		op.search = grepOpts(c)
	case "find", "fd", "locate":
		op.kind = opSearch
		op.search = findOpts(c)
		if downGrep != nil {
			g := grepOpts(*downGrep)
			g.paths = op.search.paths
			g.multi = true
			op.search = g
		}
	case "ls", "tree", "dir", "du":
		op.kind = opSearch
		op.search = searchOpts{tool: name, paths: fileArgs(c.Args, 1), filesOnly: true}
		if downGrep != nil {
			op.search.pattern = grepOpts(*downGrep).pattern
		}
	case "echo", "printf":
		op.kind = opEcho
	case "rm", "rmdir", "unlink":
		op.kind = opWrite
		for _, f := range fileArgs(c.Args, 1) {
			op.writes = append(op.writes, shellWrite{path: f, how: "removed", lines: -1})
		}
	case "mkdir", "touch":
		op.kind = opWrite
		for _, f := range fileArgs(c.Args, 1) {
			op.writes = append(op.writes, shellWrite{path: f, how: "created", lines: -1})
		}
	case "mv", "cp", "ln", "install":
		op.kind = opWrite
		fa := fileArgs(c.Args, 1)
		if len(fa) >= 2 {
			how := map[string]string{"mv": "moved", "cp": "copied", "ln": "linked", "install": "installed"}[name]
			dst := fa[len(fa)-1]
			op.writes = append(op.writes, shellWrite{path: dst, how: how, lines: -1, detail: "from " + strings.Join(fa[:len(fa)-1], ", ")})
		}
	case "chmod", "chown":
		op.kind = opMisc
	case "git":
		op.kind, op.gitSub = gitOp(c.Args)
	case "curl", "wget", "http", "https", "httpie":
		op.kind = opHTTP
		for _, a := range c.Args[1:] {
			if strings.HasPrefix(a, "http://") || strings.HasPrefix(a, "https://") || strings.Contains(a, "://") {
				op.url = a
				break
			}
		}
	case "sqlite3", "psql", "mysql", "duckdb", "sqlcmd":
		op.kind = opSQL
		if c.HasHereDoc {
			op.query = c.HereDoc
		} else if fa := fileArgs(c.Args, 1); len(fa) > 0 {
			op.query = fa[len(fa)-1]
		}
	case "jq":
		op.kind = opExec
	case "patch":
		op.kind = opWrite
	default:
		op.kind = opExec
		if isTestCommand(c.Args) {
			op.kind = opTest
		}
	}
	return op
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

package extractors

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/internal/shellwords"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	// measurePathRe: a word that looks like a file path.
	measurePathRe = regexp.MustCompile(`^[A-Za-z0-9_./~+-]+$`)
	measureExtRe  = regexp.MustCompile(`\.[A-Za-z][A-Za-z0-9]{0,5}$`)
	// measureExcRe: an exception name opening a line (traceback last line,
	// pytest "E   " lines), followed by ":" or the end of the line.
	measureExcRe = regexp.MustCompile(`(?m)^(?:E\s+)?((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Za-z0-9_]*(?:Error|Exception))(?::|\s*$)`)
	// patternFirst are commands whose first operand is a pattern or script,
	// not a file.
	patternFirst = map[string]bool{"sed": true, "grep": true, "egrep": true, "fgrep": true, "rg": true, "awk": true, "perl": true, "ag": true}
)

// namedPaths returns the file paths a call names: path-like arguments of
// its JSON (path, file_path, filename, file_name) and, for shell commands,
// the file operands of every simple command (patterns and sed expressions
// excluded) and redirection targets. Here-document bodies and inline code
// are not looked at.
func namedPaths(c Call) []string {
	a := parseArgs(c.Arguments)
	var out []string
	for _, k := range []string{"path", "file_path", "filename", "file_name"} {
		if v := a.str(k); v != "" && !strings.HasPrefix(v, "-") {
			out = append(out, v)
		}
	}
	if normName(c.Name) != "bash" {
		return out
	}
	for _, sc := range shellwords.Parse(a.str("command")) {
		if len(sc.Args) == 0 {
			continue
		}
		name := sc.Name()
		skipped := !patternFirst[name]
		for _, w := range sc.Args[1:] {
			if strings.HasPrefix(w, "-") {
				continue
			}
			if !skipped {
				skipped = true
				continue
			}
			if isMeasurePath(w) {
				out = append(out, w)
			}
		}
		for _, r := range sc.Redirections {
			if r.Op != "<<" && isMeasurePath(r.Target) && r.Target != "/dev/null" {
				out = append(out, r.Target)
			}
		}
	}
	return dedupeStrings(out)
}

func isMeasurePath(w string) bool {
	if len(w) < 3 || !measurePathRe.MatchString(w) || strings.Contains(w, "://") || strings.Contains(w, "..") && !strings.HasPrefix(w, "..") {
		return false
	}
	return strings.Contains(w, "/") || measureExtRe.MatchString(w)
}

// raisedExceptions returns the distinct exception names opening a line of
// out.
func raisedExceptions(out string) []string {
	var names []string
	for _, m := range measureExcRe.FindAllStringSubmatch(out, -1) {
		names = append(names, m[1])
	}
	return dedupeStrings(names)
}

func TestCorpusMeasure(t *testing.T) {
	corpus := loadCorpus(t, *corpusDir)
	reg := Default()
	counter, err := budget.NewCounter("gpt-4o")
	require.NoError(t, err)
	var (
		calls                              int
		bytesBefore, bytesAfter            int
		tokBefore, tokAfter                int
		paths, pathsInFacts, pathsInEither int
		excs, excsKept                     int
		exits, exitsKept                   int
		missedPaths, missedExcs            []string
		perTool                            = map[string][2]int{}
	)
	exitRe := regexp.MustCompile(`^\s*<returncode>(-?\d+)</returncode>`)
	for _, tr := range corpus {
		digest := reg.Digest(tr.msgs, Digest{}).Render(500, counter.Count)
		assert.LessOrEqual(t, counter.Count(digest), 500, "digest of %s within its cap", tr.name)
		assert.NotEmpty(t, digest)
		for _, c := range tr.calls {
			calls++
			line := Format(reg.Extract(c.call, c.output))
			bytesBefore += len(c.output)
			bytesAfter += len(line)
			tb, ta := counter.Count(c.output), counter.Count(line)
			tokBefore += tb
			tokAfter += ta
			pt := perTool[c.call.Name]
			perTool[c.call.Name] = [2]int{pt[0] + tb, pt[1] + ta}
			for _, p := range namedPaths(c.call) {
				paths++
				in := strings.Contains(line, p)
				if in {
					pathsInFacts++
				}
				if in || strings.Contains(digest, p) {
					pathsInEither++
				} else {
					missedPaths = append(missedPaths, fmt.Sprintf("%s %q in %s", tr.name, p, line))
				}
			}
			for _, e := range raisedExceptions(c.output) {
				excs++
				if strings.Contains(line, e) {
					excsKept++
				} else {
					missedExcs = append(missedExcs, fmt.Sprintf("%s %s in %s", tr.name, e, line))
				}
			}
			if m := exitRe.FindStringSubmatch(c.output); m != nil && m[1] != "0" {
				exits++
				if strings.Contains(line, "exit "+m[1]) {
					exitsKept++
				}
			}
		}
	}
	pct := func(a, b int) float64 {
		if b == 0 {
			return 100
		}
		return 100 * float64(a) / float64(b)
	}
	t.Logf("trajectories: %d, tool outputs: %d", len(corpus), calls)
	t.Logf("size: %d -> %d bytes (%.1f%% smaller)", bytesBefore, bytesAfter, 100-pct(bytesAfter, bytesBefore))
	t.Logf("tokens len/4: %d -> %d (%.1f%% smaller)", bytesBefore/4, bytesAfter/4, 100-pct(bytesAfter/4, bytesBefore/4))
	t.Logf("tokens gpt-4o (budget.NewCounter): %d -> %d (%.1f%% smaller)", tokBefore, tokAfter, 100-pct(tokAfter, tokBefore))
	tools := make([]string, 0, len(perTool))
	for k := range perTool {
		tools = append(tools, k)
	}
	sort.Strings(tools)
	for _, k := range tools {
		t.Logf("  %-12s %8d -> %6d tokens", k, perTool[k][0], perTool[k][1])
	}
	t.Logf("file paths named in calls: %d, in facts: %d (%.1f%%), in facts or digest: %d (%.1f%%)", paths, pathsInFacts, pct(pathsInFacts, paths), pathsInEither, pct(pathsInEither, paths))
	t.Logf("exception names in outputs: %d, in facts: %d (%.1f%%)", excs, excsKept, pct(excsKept, excs))
	t.Logf("non-zero exit statuses: %d, kept: %d (%.1f%%)", exits, exitsKept, pct(exitsKept, exits))
	for i, m := range missedPaths {
		if i == 15 {
			break
		}
		t.Logf("missed path: %s", m)
	}
	for i, m := range missedExcs {
		if i == 15 {
			break
		}
		t.Logf("missed exception: %s", m)
	}
	assert.GreaterOrEqual(t, 100-pct(tokAfter, tokBefore), 85.0, "token reduction")
	assert.GreaterOrEqual(t, pct(pathsInEither, paths), 98.0, "path retention")
	assert.GreaterOrEqual(t, pct(excsKept, excs), 90.0, "exception retention")
	assert.Equal(t, exits, exitsKept, "every non-zero exit status kept")
}

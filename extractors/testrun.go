package extractors

import (
	"fmt"
	"regexp"
	"strings"
)

var (
	// pytest: "==== 3 failed, 362 passed, 1 warnings in 4.31 seconds ====",
	// "1 failed, 2 passed in 0.12s" (-q).
	pytestSumRe  = regexp.MustCompile(`^=*\s*((?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)(?:, )?)+)(?: in [\d.]+ ?s(?:econds)?)?.*?=*$|^=+ (no tests ran)(?: in [\d.]+ ?s(?:econds)?)? =+$`)
	pytestFailRe = regexp.MustCompile(`^(?:FAILED|ERROR) (\S+::\S+|\S+\.py)`)
	// unittest / Django: "Ran 13 tests in 0.134s" then "OK (skipped=2)" or
	// "FAILED (errors=6, skipped=2)"; failing tests "ERROR: test_x (mod.Class)".
	unittestRanRe  = regexp.MustCompile(`^Ran (\d+) tests? in`)
	unittestEndRe  = regexp.MustCompile(`^(OK|FAILED)(?: \((.*)\))?$`)
	unittestFailRe = regexp.MustCompile(`^(ERROR|FAIL): (\S+)(?: \(([^)]*)\))?`)
	// go test.
	goOkRe   = regexp.MustCompile(`^ok\s+(\S+)`)
	goFailRe = regexp.MustCompile(`^FAIL\s+(\S+)`)
	goTestRe = regexp.MustCompile(`^\s*--- FAIL: (\S+)`)
	// jest / vitest: "Tests:       1 failed, 5 passed, 6 total".
	jestSumRe  = regexp.MustCompile(`^\s*Tests?:\s+(.*\d+ total.*)$`)
	jestFailRe = regexp.MustCompile(`^\s*(?:✕|×)\s+(.+?)(?: \(\d+ ?m?s\))?$`)
	// sympy's bin/test: "==== tests finished: 27 passed, 1 failed, in 0.35 seconds ====".
	sympySumRe = regexp.MustCompile(`^=+ tests finished: (.+?),? in [\d.]+ seconds =+$`)
	// The plain closing line "N passed, N failed".
	plainSumRe = regexp.MustCompile(`^(?:\w+: )?(\d+ passed, \d+ failed(?:, \d+ skipped)?)$`)
	// cargo test: "test result: FAILED. 1 passed; 1 failed; ...".
	cargoSumRe = regexp.MustCompile(`^test result: (ok|FAILED)\. (.*)$`)
)

// testReport is what a test run's output says.
type testReport struct {
	summary string   // "365 passed, 1 warnings" / "Ran 13 tests: FAILED (errors=6, skipped=2)"
	failed  []string // failing test names, first seen first
	failing bool     // the summary reports failures
	found   bool
}

// maxFailedTests bounds the failing tests listed.
const maxFailedTests = 5

// scanTests reads test runner output (pytest, unittest/Django, go test,
// jest/vitest, cargo) in one pass.
func scanTests(body string) testReport {
	sc := testScan{seen: map[string]bool{}}
	eachLine(body, sc.line)
	r := sc.r
	if sc.goOK+sc.goFail > 0 && !r.found {
		r.found = true
		r.summary = fmt.Sprintf("go test: %d ok, %d FAIL", sc.goOK, sc.goFail)
		r.failing = sc.goFail > 0
	}
	if len(r.failed) > 0 && !r.found {
		r.found, r.failing = true, true
	}
	return r
}

// testScan is the state of scanTests' pass over the lines.
type testScan struct {
	r            testReport
	seen         map[string]bool // failing tests seen
	ran          string          // unittest's "Ran N tests", until its closing line
	goOK, goFail int             // go test's package lines
}

// addFail records a failing test, once.
func (sc *testScan) addFail(name string) {
	if name == "" || sc.seen[name] {
		return
	}
	sc.seen[name] = true
	sc.r.failed = append(sc.r.failed, name)
}

// line reads one line; a regexp only runs on lines whose first byte can
// start what it matches.
func (sc *testScan) line(_ int, line string) bool {
	line = strings.TrimRight(line, "\r ")
	if line == "" || len(line) > 1000 {
		return true
	}
	c := line[0]
	switch {
	case c == '=' || c >= '0' && c <= '9':
		sc.summaryLine(line)
	case c == 'F' || c == 'E':
		sc.failLine(line)
		sc.unittestEnd(line)
	case c == 'O':
		sc.unittestEnd(line)
	case c == 'R':
		if m := unittestRanRe.FindStringSubmatch(line); m != nil {
			sc.ran = "Ran " + m[1] + " tests"
			sc.r.summary, sc.r.found = sc.ran, true
		}
	case c == 'o':
		if goOkRe.MatchString(line) {
			sc.goOK++
		}
	case c == 't':
		if m := cargoSumRe.FindStringSubmatch(line); m != nil {
			sc.r.summary, sc.r.found, sc.r.failing = m[1]+": "+m[2], true, m[1] == "FAILED"
		}
	}
	if c == ' ' || c == '\t' || c == '-' {
		if !strings.Contains(line, "--- FAIL") && !strings.Contains(line, "total") && !strings.Contains(line, "✕") && !strings.Contains(line, "×") {
			return true
		}
		sc.indentedLine(line)
	} else if c == 'T' {
		sc.jestSummary(line)
	}
	if !sc.r.found && strings.Contains(line, " passed, ") {
		if m := plainSumRe.FindStringSubmatch(line); m != nil {
			sc.r.summary, sc.r.found = m[1], true
			sc.r.failing = !strings.Contains(m[1], " 0 failed")
		}
	}
	return true
}

// summaryLine reads a line starting with "=" or a digit: sympy's and
// pytest's summaries.
func (sc *testScan) summaryLine(line string) {
	if m := sympySumRe.FindStringSubmatch(line); m != nil {
		sc.r.summary, sc.r.found = strings.TrimSuffix(m[1], ","), true
		sc.r.failing = strings.Contains(m[1], "failed") || strings.Contains(m[1], "exceptions")
	} else if m := pytestSumRe.FindStringSubmatch(line); m != nil {
		sum := strings.TrimSuffix(strings.TrimSpace(m[1]+m[2]), ",")
		sc.r.summary, sc.r.found = sum, true
		sc.r.failing = strings.Contains(sum, "failed") || strings.Contains(sum, "error")
	}
}

// failLine reads a line starting with "F" or "E": a failing test of
// pytest, unittest or go test.
func (sc *testScan) failLine(line string) {
	if m := pytestFailRe.FindStringSubmatch(line); m != nil {
		sc.addFail(m[1])
	} else if m := unittestFailRe.FindStringSubmatch(line); m != nil {
		name := m[2]
		if m[3] != "" {
			name = m[3] + "." + m[2]
		}
		sc.addFail(name)
	} else if m := goFailRe.FindStringSubmatch(line); m != nil {
		sc.goFail++
		sc.addFail(m[1])
	}
}

// unittestEnd reads the closing line of a unittest run ("OK", "FAILED
// (errors=2)") after its "Ran N tests".
func (sc *testScan) unittestEnd(line string) {
	if sc.ran == "" {
		return
	}
	if m := unittestEndRe.FindStringSubmatch(line); m != nil {
		sc.r.summary = sc.ran + ": " + line
		sc.r.found, sc.r.failing = true, m[1] == "FAILED"
		sc.ran = ""
	}
}

// indentedLine reads an indented line or one starting with "-": go test's
// "--- FAIL: TestX", jest's summary and failing tests.
func (sc *testScan) indentedLine(line string) {
	if m := goTestRe.FindStringSubmatch(line); m != nil {
		sc.addFail(m[1])
	} else if !sc.jestSummary(line) {
		if m := jestFailRe.FindStringSubmatch(line); m != nil {
			sc.addFail(strings.TrimSpace(m[1]))
		}
	}
}

// jestSummary reads jest's "Tests: 1 failed, 5 passed, 6 total" and
// reports whether line is one.
func (sc *testScan) jestSummary(line string) bool {
	m := jestSumRe.FindStringSubmatch(line)
	if m == nil {
		return false
	}
	sc.r.summary, sc.r.found = strings.TrimSpace(m[1]), true
	sc.r.failing = strings.Contains(m[1], "failed")
	return true
}

// facts renders a test report.
func (r testReport) facts() []string {
	if !r.found {
		return nil
	}
	var out []string
	if r.summary != "" {
		out = append(out, "Tests: "+r.summary)
	}
	if len(r.failed) > 0 {
		f := r.failed
		more := ""
		if len(f) > maxFailedTests {
			more = fmt.Sprintf(", +%d more", len(f)-maxFailedTests)
			f = f[:maxFailedTests]
		}
		out = append(out, "Failed: "+strings.Join(f, ", ")+more)
	}
	return out
}

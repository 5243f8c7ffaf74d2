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
	var r testReport
	seen := map[string]bool{}
	addFail := func(name string) {
		if name == "" || seen[name] {
			return
		}
		seen[name] = true
		r.failed = append(r.failed, name)
	}
	ran := ""
	goOK, goFail := 0, 0
	eachLine(body, func(_ int, line string) bool {
		line = strings.TrimRight(line, "\r ")
		if line == "" || len(line) > 1000 {
			return true
		}
		c := line[0]
		switch {
		case c == '=' || c >= '0' && c <= '9':
			if m := sympySumRe.FindStringSubmatch(line); m != nil {
				r.summary, r.found = strings.TrimSuffix(m[1], ","), true
				r.failing = strings.Contains(m[1], "failed") || strings.Contains(m[1], "exceptions")
			} else if m := pytestSumRe.FindStringSubmatch(line); m != nil {
				sum := strings.TrimSuffix(strings.TrimSpace(m[1]+m[2]), ",")
				r.summary, r.found = sum, true
				r.failing = strings.Contains(sum, "failed") || strings.Contains(sum, "error")
			}
		case c == 'F' || c == 'E':
			if m := pytestFailRe.FindStringSubmatch(line); m != nil {
				addFail(m[1])
			} else if m := unittestFailRe.FindStringSubmatch(line); m != nil {
				name := m[2]
				if m[3] != "" {
					name = m[3] + "." + m[2]
				}
				addFail(name)
			} else if m := goFailRe.FindStringSubmatch(line); m != nil {
				goFail++
				addFail(m[1])
			}
			if ran != "" {
				if m := unittestEndRe.FindStringSubmatch(line); m != nil {
					r.summary = ran + ": " + line
					r.found, r.failing = true, m[1] == "FAILED"
					ran = ""
				}
			}
		case c == 'O':
			if ran != "" {
				if m := unittestEndRe.FindStringSubmatch(line); m != nil {
					r.summary = ran + ": " + line
					r.found, r.failing = true, m[1] == "FAILED"
					ran = ""
				}
			}
		case c == 'R':
			if m := unittestRanRe.FindStringSubmatch(line); m != nil {
				ran = "Ran " + m[1] + " tests"
				r.summary, r.found = ran, true
			}
		case c == 'o':
			if goOkRe.MatchString(line) {
				goOK++
			}
		case c == 't':
			if m := cargoSumRe.FindStringSubmatch(line); m != nil {
				r.summary, r.found, r.failing = m[1]+": "+m[2], true, m[1] == "FAILED"
			}
		}
		if c == ' ' || c == '\t' || c == '-' {
			if !strings.Contains(line, "--- FAIL") && !strings.Contains(line, "total") && !strings.Contains(line, "✕") && !strings.Contains(line, "×") {
				return true
			}
			if m := goTestRe.FindStringSubmatch(line); m != nil {
				addFail(m[1])
			} else if m := jestSumRe.FindStringSubmatch(line); m != nil {
				r.summary, r.found = strings.TrimSpace(m[1]), true
				r.failing = strings.Contains(m[1], "failed")
			} else if m := jestFailRe.FindStringSubmatch(line); m != nil {
				addFail(strings.TrimSpace(m[1]))
			}
		} else if c == 'T' {
			if m := jestSumRe.FindStringSubmatch(line); m != nil {
				r.summary, r.found = strings.TrimSpace(m[1]), true
				r.failing = strings.Contains(m[1], "failed")
			}
		}
		if !r.found && strings.Contains(line, " passed, ") {
			m := plainSumRe.FindStringSubmatch(line)
			if m == nil {
				return true
			}
			r.summary, r.found = m[1], true
			r.failing = !strings.Contains(m[1], " 0 failed")
		}
		return true
	})
	if goOK+goFail > 0 && !r.found {
		r.found = true
		r.summary = fmt.Sprintf("go test: %d ok, %d FAIL", goOK, goFail)
		r.failing = goFail > 0
	}
	if len(r.failed) > 0 && !r.found {
		r.found, r.failing = true, true
	}
	return r
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

package extractors

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScanTests(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		summary string
		failed  []string
		failing bool
	}{
		{"pytest", "tests/test_a.py .F.\n=========================== short test summary info ============================\nFAILED tests/test_a.py::test_b - AssertionError\n========================= 1 failed, 2 passed in 0.12s ==========================\n",
			"1 failed, 2 passed", []string{"tests/test_a.py::test_b"}, true},
		{"pytest quiet", "..\n2 passed in 0.01s\n", "2 passed", nil, false},
		{"pytest no tests", "===== no tests ran in 0.01s =====\n", "no tests ran", nil, false},
		{"unittest", "..F\n======\nFAIL: test_x (pkg.tests.T)\n------\nRan 3 tests in 0.1s\n\nFAILED (failures=1)\n",
			"Ran 3 tests: FAILED (failures=1)", []string{"pkg.tests.T.test_x"}, true},
		{"go test", "--- FAIL: TestParse (0.00s)\n    x_test.go:12: bad\nFAIL\nFAIL\texample.com/p\t0.01s\nok  \texample.com/q\t0.02s\n",
			"go test: 1 ok, 1 FAIL", []string{"TestParse", "example.com/p"}, true},
		{"jest", "  ✕ adds numbers (3 ms)\nTests:       1 failed, 4 passed, 5 total\n", "1 failed, 4 passed, 5 total", []string{"adds numbers"}, true},
		{"cargo", "test result: FAILED. 3 passed; 1 failed; 0 ignored\n", "FAILED: 3 passed; 1 failed; 0 ignored", nil, true},
		{"sympy", "test_a ok\n================== tests finished: 26 passed, 1 failed, in 0.35 seconds ==================\n", "26 passed, 1 failed", nil, true},
		{"plain", "suite: 4 passed, 0 failed\n", "4 passed, 0 failed", nil, false},
		{"none", "hello\nworld\n", "", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := scanTests(tc.out)
			assert.Equal(t, tc.summary, r.summary)
			assert.Equal(t, tc.failed, r.failed)
			assert.Equal(t, tc.failing, r.failing)
		})
	}
}

package extractors

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFallback(t *testing.T) {
	tests := []struct {
		name   string
		out    string
		status Status
		facts  []string
		excs   string
	}{
		{"empty", "", StatusSuccess, []string{"Output: empty"}, ""},
		{"plain", "hello\nworld\n", StatusSuccess, []string{"Output: 2 lines, 12 B", "First: hello", "Last: world"}, ""},
		{"error line", "starting\nerror: disk full\ndone\n", StatusError, []string{"Error: error: disk full"}, ""},
		{"tracebacks", "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nKeyError: 'k'\nTraceback (most recent call last):\n  File \"b.py\", line 2, in <module>\nOSError: x\n",
			StatusError, []string{"Error: KeyError at a.py:1: 'k'", "Exceptions: KeyError, OSError"}, "OSError at b.py:2: x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := Fallback().Extract(Call{Name: "mystery"}, tc.out)
			assert.Equal(t, tc.status, s.Status)
			for _, f := range tc.facts {
				assert.Contains(t, s.KeyFacts, f)
			}
			if tc.excs != "" {
				assert.Contains(t, s.Metadata[MetaExceptions], tc.excs)
			}
		})
	}
}

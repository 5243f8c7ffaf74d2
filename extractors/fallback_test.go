package extractors

import (
	"strings"
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
		{"short", "hello\nworld\n", StatusSuccess, []string{"hello\nworld"}, ""},
		{"short error", "Error: not enough seats on flight HAT229", StatusError, []string{"Error: not enough seats on flight HAT229"}, ""},
		{"plain", "hello\n" + strings.Repeat("x", 200) + "\nworld\n", StatusSuccess, []string{"Output: 3 lines, 213 B", "First: hello", "Last: world"}, ""},
		{"error line", "starting\nerror: disk full\n" + strings.Repeat("y", 200) + "\ndone\n", StatusError, []string{"Error: error: disk full"}, ""},
		{"json", `{"reservation_id": "QX4Z2K", "status": "active", "flights": [{"flight_number": "HAT136"}, {"flight_number": "HAT039"}]}`,
			StatusSuccess, []string{"reservation QX4Z2K: status active", "flights[2]: HAT136, HAT039"}, ""},
		{"json ids beyond its lists", `{"user_id": "mia_li_3668", "reservations": ["NO6JO3", "AIXC49"], "payment_methods": {"gift_card_1": {"id": "gift_card_1", "amount": 10}}}`,
			StatusSuccess, []string{"user mia_li_3668", "reservations[2]: NO6JO3, AIXC49", "payment_methods[1]: gift_card_1 10"}, ""},
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

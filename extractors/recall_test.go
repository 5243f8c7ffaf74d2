package extractors

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRecallExtract checks the recall built-in on answers written with the
// format constants (package recall's own answers are checked in recall's
// tests) and on outputs that are not recall answers.
func TestRecallExtract(t *testing.T) {
	page := fmt.Sprintf(RecallPageHeader, "k3f2a9qx", 121, 240, 300, "tool read_file") + "\n121: x\n122: y\n" +
		`... 60 more lines: call recall with "ref:k3f2a9qx lines 241-300" for more`
	search := fmt.Sprintf(RecallSearchHeader, `helper17( "q"`, 3, 12, "+") + "\n(the query was cut to its first 200 bytes)\n" +
		fmt.Sprintf(RecallHitHeader, "aaaa2222", 1, 2, 2, "assistant", "") + "\n1: ref:zzzz lines 1-2 of 3 (x):\n2: b\n" +
		fmt.Sprintf(RecallHitHeader, "bbbb3333", 40, 42, 300, "tool grep", "; also matching lines 97") + "\n40: a\n41: b\n42: c\n" +
		fmt.Sprintf(RecallHitHeader, "cccc4444", 1, 1, 1, "user", "") + "\n1: x\n... 9 more matching originals: ref:dddd5555; call recall with \"ref:ID\" for one"
	var many strings.Builder
	many.WriteString(fmt.Sprintf(RecallSearchHeader, "x", 12, 12, ""))
	for i := 0; i < 12; i++ {
		many.WriteString("\n" + fmt.Sprintf(RecallHitHeader, fmt.Sprintf("ref%05d", i), 1, 1, 1, "user", "") + "\n1: x")
	}
	tests := []struct {
		name, output, want string
		status             Status
	}{
		{"page", page, "[✓ recall: ref:k3f2a9qx lines 121-240 of 300 | tool read_file]", StatusSuccess},
		{"page, CRLF", strings.ReplaceAll(page, "\n", "\r\n"), "[✓ recall: ref:k3f2a9qx lines 121-240 of 300 | tool read_file]", StatusSuccess},
		{"empty original", fmt.Sprintf(RecallPageHeader, "e", 0, 0, 0, "tool") + "\n(the original is empty)", "[✓ recall: ref:e lines 0-0 of 0 | tool]", StatusSuccess},
		{"page with an error inside", fmt.Sprintf(RecallPageHeader, "t", 1, 3, 3, "tool bash") + "\n1: Traceback (most recent call last):\n2:   File \"a.py\", line 1\n3: ValueError: x",
			"[✓ recall: ref:t lines 1-3 of 3 | tool bash]", StatusSuccess},
		{"search", search, `[✓ recall: search "helper17( "q"" | shown 3 of 12+ matching | ref:aaaa2222, ref:bbbb3333, ref:cccc4444]`, StatusSuccess},
		{"search, many hits", many.String(), `[✓ recall: search "x" | shown 12 of 12 matching | ref:ref00000, ref:ref00001, ref:ref00002, ref:ref00003, ref:ref00004, ref:ref00005, ref:ref00006, ref:ref00007 (+4 more)]`, StatusSuccess},
		{"search, no hit shown", fmt.Sprintf(RecallSearchHeader, "x", 0, 4, "") + "\n... 4 more matching originals: ref:a", `[✓ recall: search "x" | shown 0 of 4 matching]`, StatusSuccess},
		{"one-line answer", RecallNotePrefix + "no original with ref:zz in this session; give a ref a compaction marker shows.", "[✓ recall: no original with ref:zz in this session]", StatusSuccess},
		{"one-line answer, no clause", RecallNotePrefix + "something " + strings.Repeat("long ", 60), "[✓ recall: something long long long long long long long long long long long long long long long long long long long long long lo…]", StatusSuccess},
		{"not an answer", "plain output\nError: boom", "[❌ recall: plain output Error: boom]", StatusError},
		{"header not first", "x\n" + page, "[✓ recall: Output: 5 lines, 141 B | First: x | Last: ... 60 more lines: call recall with \"ref:k3f2a9qx lines 241-300\" for more]", StatusSuccess},
		{"empty", "", "[✓ recall: Output: empty]", StatusSuccess},
	}
	reg := Default()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := reg.Extract(Call{Name: "recall"}, tc.output)
			assert.Equal(t, tc.want, Format(s))
			assert.Equal(t, tc.status, s.Status)
		})
	}
}

func TestIsRecallAnswer(t *testing.T) {
	for text, want := range map[string]bool{
		fmt.Sprintf(RecallPageHeader, "k3f2a9qx", 1, 2, 2, "user") + "\n1: a\n2: b":                                    true,
		fmt.Sprintf(RecallPageHeader, "k3f2a9qx", 1, 2, 2, "user"):                                                     true,
		fmt.Sprintf(RecallSearchHeader, "q", 1, 1, "") + "\n" + fmt.Sprintf(RecallHitHeader, "r", 1, 1, 1, "user", ""): true,
		fmt.Sprintf(RecallHitHeader, "r", 1, 1, 1, "user", "; also matching lines 4"):                                  false,
		RecallNotePrefix + "no original with ref:x in this session":                                                    false,
		"ref:k3f2a9qx lines 1-2 of 2":                                      false,
		"x\n" + fmt.Sprintf(RecallPageHeader, "k3f2a9qx", 1, 2, 2, "user"): false,
		"": false,
	} {
		assert.Equal(t, want, IsRecallAnswer(text), text)
	}
}

package compact

import (
	"regexp"
	"strings"
	"testing"
)

// The expressions the word matchers of chatwords.go replace: they must
// agree on every sentence.
var (
	refTime = regexp.MustCompile(`(?i)\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|today|tomorrow|yesterday|tonight|weekend|morning|evening|afternoon|night|week|month|year|o'clock|[ap]\.?m\.?)\b`)
	refPref = regexp.MustCompile(`(?i)\b(like|likes|love|loves|enjoy|enjoys|favou?rite|prefer|prefers|hate|hates|dislike|want|wants|wish)\b`)
	refPlan = regexp.MustCompile(`(?i)\b(will|going to|gonna|plan|plans|planning|decided|decide|agreed|booked|'ll)\b`)
)

var chatWordSeeds = []string{
	"I'll call you at 5 o'clock on Monday", "we're going to Nagano, going  to ski", "see you at 9 a.m. or 10pm",
	"it was a.m", "PM me", "I love Mondays", "Weekend's plans", "'ll start", "x'll", "I’ll go", "unplanned",
	"the morning_star", "she decided: yes", "LIKES", "favourite and favorite", "a.mx", "p.m.", "am.", "o'clocks",
	"going to", "goingto", "Going To", "my weekly report", "nights", "a. m.", "i WILL", "o' clock", "",
}

// checkChatWords compares the matchers with the expressions on s. The two
// runes that Unicode folds to ASCII letters (the Kelvin sign to k, the long
// s to s) are letters to the expressions' (?i) and not words here: such
// text is left out.
func checkChatWords(t *testing.T, s string) {
	if strings.ContainsAny(s, "\u212A\u017F") {
		return
	}
	ws := sentenceWords(s)
	if got, want := hasTime(s, ws), refTime.MatchString(s); got != want {
		t.Errorf("hasTime(%q) = %v, the expression %v", s, got, want)
	}
	if got, want := hasPlan(s, ws), refPlan.MatchString(s); got != want {
		t.Errorf("hasPlan(%q) = %v, the expression %v", s, got, want)
	}
	if got, want := hasPref(ws), refPref.MatchString(s); got != want {
		t.Errorf("hasPref(%q) = %v, the expression %v", s, got, want)
	}
}

func TestChatWordsAgreeWithTheExpressions(t *testing.T) {
	for _, s := range chatWordSeeds {
		checkChatWords(t, s)
	}
}

func FuzzChatWords(f *testing.F) { fuzzText(f, checkChatWords, chatWordSeeds) }

// FuzzCountFields checks countFields against strings.Fields, with and
// without a limit.
func FuzzCountFields(f *testing.F) {
	fuzzText(f, func(t *testing.T, s string) {
		n := len(strings.Fields(s))
		if got := countFields(s, -1); got != n {
			t.Fatalf("countFields(%q, -1) = %d, strings.Fields has %d", s, got, n)
		}
		for _, limit := range []int{0, 1, 3} {
			if got := countFields(s, limit); got != min(n, limit) {
				t.Fatalf("countFields(%q, %d) = %d, want %d", s, limit, got, min(n, limit))
			}
		}
	}, chatWordSeeds, "", "  a \u00a0b\u2003c\x85d", "\xff \xfe x", "one\ttwo\nthree\vfour\ffive\rsix")
}

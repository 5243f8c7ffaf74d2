package compact

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentcompact/compact/internal/reclass"
)

// The kinds of words sentenceFact looks for, matched on the sentence's
// words (runs of ASCII letters, digits and underscores, lower-cased: the
// words between \b boundaries) rather than by case-insensitive
// alternations, which took most of a conversation digest's time (43 µs a
// sentence for the times alone). chatwords_test.go checks them against
// the regular expressions they replace.
var (
	timeWords = setOf(`monday tuesday wednesday thursday friday saturday sunday january february march
		april may june july august september october november december today tomorrow yesterday tonight
		weekend morning evening afternoon night week month year am pm`)
	prefWords = setOf(`like likes love loves enjoy enjoys favorite favourite prefer prefers hate hates
		dislike want wants wish`)
	planWords = setOf(`will gonna plan plans planning decided decide agreed booked`)
)

// setOf returns the set of the space-separated words of s.
func setOf(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// countFields returns len(strings.Fields(s)), counting no further than
// limit (a negative limit: all), without making the fields.
func countFields(s string, limit int) int {
	n, in := 0, false
	for i := 0; i < len(s) && n != limit; {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		switch {
		case unicode.IsSpace(r):
			in = false
		case !in:
			in = true
			n++
		}
	}
	return n
}

// sentWord is one word of a sentence: lower-cased, and its byte offsets.
type sentWord struct {
	w          string
	start, end int
}

// sentenceWords returns the words of s.
func sentenceWords(s string) []sentWord {
	var out []sentWord
	for i := 0; i < len(s); {
		if !reclass.Word(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && reclass.Word(s[j]) {
			j++
		}
		out = append(out, sentWord{w: strings.ToLower(s[i:j]), start: i, end: j})
		i = j
	}
	return out
}

// follows reports whether word k+1 of ws is next, right after sep.
func follows(s string, ws []sentWord, k int, sep, next string) bool {
	e := ws[k].end
	return k+1 < len(ws) && strings.HasPrefix(s[e:], sep) && ws[k+1].start == e+len(sep) && ws[k+1].w == next
}

// hasTime reports whether s names a day, month or time of day (factTime
// of the digest): a word of timeWords, "o'clock", "a.m." or "p.m.".
func hasTime(s string, ws []sentWord) bool {
	for k, w := range ws {
		switch {
		case timeWords[w.w]:
			return true
		case w.w == "o" && follows(s, ws, k, "'", "clock"):
			return true
		case (w.w == "a" || w.w == "p") && follows(s, ws, k, ".", "m"):
			return true
		}
	}
	return false
}

// hasPlan reports whether s states a plan or decision: a word of
// planWords, "going to", or "'ll" after a word.
func hasPlan(s string, ws []sentWord) bool {
	for k, w := range ws {
		switch {
		case planWords[w.w]:
			return true
		case w.w == "going" && follows(s, ws, k, " ", "to"):
			return true
		case w.w == "ll" && w.start >= 2 && s[w.start-1] == '\'' && reclass.Word(s[w.start-2]):
			return true
		}
	}
	return false
}

// hasPref reports whether s states a liking (a word of prefWords).
func hasPref(ws []sentWord) bool {
	for _, w := range ws {
		if prefWords[w.w] {
			return true
		}
	}
	return false
}

// b2n is 1 for true, 0 for false.
func b2n(b bool) int {
	if b {
		return 1
	}
	return 0
}

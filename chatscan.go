package compact

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentcompact/compact/internal/reclass"
)

// The hand-written scans of the conversation digest (chatdigest.go): each
// stands for, or guards, an expression, and a fuzz target of
// chatscan_test.go checks it against that expression.

// capitalNames calls each with the capitalized words of s that do not
// begin a sentence, in order, until each returns false: the words the
// expression `[^.!?\s]\s+([A-Z][\p{L}'-]+)` captures with
// FindAllStringSubmatch(s, -1), found by one scan instead of the
// expression's backtracking (the conversation digest reads every sentence
// of what it condenses). A word is an ASCII capital and at least one
// letter, apostrophe or hyphen after it, right after a run of ASCII
// white space that follows a character other than ".", "!", "?" and
// white space. As the expression's matches, they do not overlap: the
// character before a word's space must come after the previous match, so
// of "met Anna Bell Carter" the words are Anna and Carter.
func capitalNames(s string, each func(name string) bool) {
	pos := 0 // where the next match may begin
	for j := 0; j < len(s); j++ {
		if !reclass.Space(s[j]) {
			continue
		}
		k := j
		for k < len(s) && reclass.Space(s[k]) {
			k++
		}
		before, width := utf8.DecodeLastRuneInString(s[:j])
		if j-width >= pos && width > 0 && before != '.' && before != '!' && before != '?' {
			if e := nameEnd(s, k); e > 0 {
				if !each(s[k:e]) {
					return
				}
				pos, k = e, e
			}
		}
		j = k - 1
	}
}

// nameEnd returns the end of the word [A-Z][\p{L}'-]+ at s[k:], or 0 when
// none begins there.
func nameEnd(s string, k int) int {
	if k >= len(s) || s[k] < 'A' || s[k] > 'Z' {
		return 0
	}
	e := k + 1
	for e < len(s) {
		r, w := utf8.DecodeRuneInString(s[e:])
		if r != '\'' && r != '-' && !unicode.IsLetter(r) {
			break
		}
		e += w
	}
	if e == k+1 {
		return 0
	}
	return e
}

// hasCapitalName reports whether s holds a word capitalNames finds.
func hasCapitalName(s string) bool {
	found := false
	capitalNames(s, func(string) bool { found = true; return false })
	return found
}

// idCandidate is a necessary condition of a factID match in s, tested by
// one scan before the expression runs: an "@" (an e-mail address, or an
// identifier's separator), or a run of letters and digits holding an ASCII
// digit followed by one of "-_./" and by a letter, digit or one of
// "-_./@" (an identifier such as "PR-142", "v2.1" or "build_7/x").
func idCandidate(s string) bool {
	if strings.IndexByte(s, '@') >= 0 {
		return true
	}
	digit := false // the current run of letters and digits holds a digit
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case unicode.IsLetter(r):
		default:
			if digit && strings.ContainsRune("-_./", r) && i+w < len(s) {
				next, _ := utf8.DecodeRuneInString(s[i+w:])
				if next >= '0' && next <= '9' || unicode.IsLetter(next) || strings.ContainsRune("-_./@", next) {
					return true
				}
			}
			digit = false
		}
		i += w
	}
	return false
}

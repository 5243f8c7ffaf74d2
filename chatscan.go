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

// splitSentences returns s split at its sentence ends, as the expression
// `[.!?]+\s+|\n+` splits it with Split(s, -1): at a run of ".", "!" and
// "?" followed by ASCII white space (the run and all that white space),
// and at a run of newlines. Every piece is kept, empty ones too, and
// the empty string gives one empty piece.
func splitSentences(s string) []string {
	out := make([]string, 0, 4)
	beg := 0
	for i := 0; i < len(s); {
		j := i
		switch c := s[i]; {
		case c == '.' || c == '!' || c == '?':
			for j < len(s) && (s[j] == '.' || s[j] == '!' || s[j] == '?') {
				j++
			}
			if j == len(s) || !reclass.Space(s[j]) {
				i = j // no later position of the run is followed by space
				continue
			}
			for j < len(s) && reclass.Space(s[j]) {
				j++
			}
		case c == '\n':
			for j < len(s) && s[j] == '\n' {
				j++
			}
		default:
			i++
			continue
		}
		out = append(out, s[beg:i])
		beg, i = j, j
	}
	return append(out, s[beg:])
}

// factKeys returns the key terms of s, in order: what the expression
// `\b([A-Z][\p{L}'-]+|\d[\d.,:/-]*)\b` finds with FindAllString(s, -1),
// a capitalized word or a number (with its separators) between word
// boundaries, by one scan.
func factKeys(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if c := s[i]; (c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') && (i == 0 || !reclass.Word(s[i-1])) {
			if k := keyTermEnd(s, i); k > 0 {
				out = append(out, s[i:k])
				i = k
				continue
			}
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return out
}

// keyTermEnd returns the end of the key term that begins at s[i] (an ASCII
// capital or digit after a word boundary), or 0: the longest run of its
// class that ends at a word boundary, at least one rune after a capital.
func keyTermEnd(s string, i int) int {
	capital := s[i] >= 'A' && s[i] <= 'Z'
	ends := make([]int, 0, 16) // where the run may end, in order
	if !capital {
		ends = append(ends, i+1)
	}
	for e := i + 1; e < len(s); {
		r, w := utf8.DecodeRuneInString(s[e:])
		if capital && r != '\'' && r != '-' && !unicode.IsLetter(r) ||
			!capital && (r > unicode.MaxASCII || !strings.ContainsRune("0123456789.,:/-", r)) {
			break
		}
		e += w
		ends = append(ends, e)
	}
	for k := len(ends) - 1; k >= 0; k-- {
		if e := ends[k]; wordBoundary(s, e) {
			return e
		}
	}
	return 0
}

// wordBoundary reports whether \b holds at byte e of s (e at a rune
// start): ASCII word bytes on one side only, the ends of s counting as
// non-word.
func wordBoundary(s string, e int) bool {
	before := e > 0 && reclass.Word(s[e-1])
	after := e < len(s) && reclass.Word(s[e])
	return before != after
}

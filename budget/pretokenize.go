package budget

import (
	"unicode"
	"unicode/utf8"
)

// This file splits text into the pieces that o200k_base and cl100k_base
// byte-pair encode, exactly as tiktoken-go's regexp2 split patterns do
// (see encodingSpecs), but with a hand-written scanner: regexp2 is a
// backtracking engine over []rune and dominates tiktoken-go's run time.
// The scanner reproduces the patterns' leftmost-first alternation and
// backtracking; TestSplitMatchesRegexp and FuzzCountMatchesTiktoken check
// it against regexp2 on the corpus and on fuzzed input.
//
// Only valid UTF-8 is scanned; other text goes to tiktoken-go unchanged
// (regexp2 reads invalid bytes as U+FFFD, which the reference re-encodes).

// Character class bits, as the split patterns use them.
const (
	fLu    uint16 = 1 << iota // \p{Lu}
	fLl                       // \p{Ll}
	fLt                       // \p{Lt}
	fLm                       // \p{Lm}
	fLo                       // \p{Lo}
	fM                        // \p{M}
	fN                        // \p{N}
	fSpace                    // \s (unicode.IsSpace)
	fCRLF                     // \r or \n

	fL      = fLu | fLl | fLt | fLm | fLo
	fUpperX = fLu | fLt | fLm | fLo | fM // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	fLowerX = fLl | fLm | fLo | fM       // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
)

var asciiFlags = func() (t [utf8.RuneSelf]uint16) {
	for c := rune(0); c < utf8.RuneSelf; c++ {
		t[c] = runeFlags(c)
	}
	return t
}()

// runeFlags classifies r with the same tables regexp2 uses.
func runeFlags(r rune) uint16 {
	var f uint16
	switch {
	case unicode.Is(unicode.Lu, r):
		f |= fLu
	case unicode.Is(unicode.Ll, r):
		f |= fLl
	case unicode.Is(unicode.Lt, r):
		f |= fLt
	case unicode.Is(unicode.Lm, r):
		f |= fLm
	case unicode.Is(unicode.Lo, r):
		f |= fLo
	case unicode.Is(unicode.M, r):
		f |= fM
	case unicode.Is(unicode.N, r):
		f |= fN
	}
	if unicode.IsSpace(r) {
		f |= fSpace
	}
	if r == '\r' || r == '\n' {
		f |= fCRLF
	}
	return f
}

// at returns the class of the character starting at s[i] and its size.
func at(s string, i int) (uint16, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiFlags[c], 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	return runeFlags(r), size
}

// isPrefix reports [^\r\n\p{L}\p{N}].
func isPrefix(f uint16) bool { return f&(fCRLF|fL|fN) == 0 }

// isPunct reports [^\s\p{L}\p{N}].
func isPunct(f uint16) bool { return f&(fSpace|fL|fN) == 0 }

// contractionLen returns the length of (?i:'s|'t|'re|'ve|'m|'ll|'d) at
// s[i:], or 0.
func contractionLen(s string, i int) int {
	if i >= len(s) || s[i] != '\'' {
		return 0
	}
	lower := func(j int) (rune, int) {
		if j >= len(s) {
			return 0, 0
		}
		r, size := utf8.DecodeRuneInString(s[j:])
		return unicode.ToLower(r), size
	}
	c1, n1 := lower(i + 1)
	switch c1 {
	case 's', 't', 'm', 'd':
		return 1 + n1
	}
	c2, n2 := lower(i + 1 + n1)
	switch {
	case c1 == 'r' && c2 == 'e', c1 == 'v' && c2 == 'e', c1 == 'l' && c2 == 'l':
		return 1 + n1 + n2
	}
	return 0
}

// o200kLowerWord matches [UpperX]*[LowerX]+ contraction? at s[j:].
func o200kLowerWord(s string, j int) (int, bool) {
	k, lastBoth := j, -1
	for k < len(s) {
		f, size := at(s, k)
		if f&fUpperX == 0 {
			break
		}
		if f&fLowerX != 0 {
			lastBoth = k + size
		}
		k += size
	}
	end := lastBoth
	if k < len(s) {
		if f, size := at(s, k); f&fLowerX != 0 {
			k += size
			for k < len(s) {
				f, size := at(s, k)
				if f&fLowerX == 0 {
					break
				}
				k += size
			}
			end = k
		}
	}
	if end < 0 {
		return 0, false
	}
	return end + contractionLen(s, end), true
}

// o200kUpperWord matches [UpperX]+[LowerX]* contraction? at s[j:].
func o200kUpperWord(s string, j int) (int, bool) {
	k := j
	for k < len(s) {
		f, size := at(s, k)
		if f&fUpperX == 0 {
			break
		}
		k += size
	}
	if k == j {
		return 0, false
	}
	for k < len(s) {
		f, size := at(s, k)
		if f&fLowerX == 0 {
			break
		}
		k += size
	}
	return k + contractionLen(s, k), true
}

// digits matches \p{N}{1,3} at s[i:], whose first character is a number.
func digits(s string, i, size int) int {
	k := i + size
	for n := 1; n < 3 && k < len(s); n++ {
		f, size := at(s, k)
		if f&fN == 0 {
			break
		}
		k += size
	}
	return k
}

// punctRun matches " ?[^\s\p{L}\p{N}]+" followed by [\r\n/]* (o200k, slash
// true) or [\r\n]* at s[i:].
func punctRun(s string, i int, slash bool) (int, bool) {
	j := i
	if s[i] == ' ' {
		j++
	}
	if j >= len(s) {
		return 0, false
	}
	if f, _ := at(s, j); !isPunct(f) {
		return 0, false
	}
	for j < len(s) {
		f, size := at(s, j)
		if !isPunct(f) {
			break
		}
		j += size
	}
	for j < len(s) && (s[j] == '\r' || s[j] == '\n' || (slash && s[j] == '/')) {
		j++
	}
	return j, true
}

// spaceRun matches \s*[\r\n]+ | \s+(?!\S) | \s+ at s[i:].
func spaceRun(s string, i int) int {
	k, lastNL, lastStart, n := i, -1, i, 0
	for k < len(s) {
		f, size := at(s, k)
		if f&fSpace == 0 {
			break
		}
		if f&fCRLF != 0 {
			lastNL = k + size
		}
		lastStart = k
		n++
		k += size
	}
	switch {
	case n == 0: // not whitespace: unreachable for valid input; one character
		_, size := at(s, i)
		return i + size
	case lastNL >= 0: // \s*[\r\n]+ ends at the last line break
		return lastNL
	case k == len(s), n == 1: // \s+(?!\S) to the end, or \s+ of one
		return k
	default: // \s+(?!\S) leaves the last space to prefix what follows
		return lastStart
	}
}

// nextO200k returns the end of the o200k_base piece starting at s[i].
func nextO200k(s string, i int) int {
	f, size := at(s, i)
	if isPrefix(f) && i+size < len(s) {
		if e, ok := o200kLowerWord(s, i+size); ok {
			return e
		}
	}
	if e, ok := o200kLowerWord(s, i); ok {
		return e
	}
	if isPrefix(f) && i+size < len(s) {
		if e, ok := o200kUpperWord(s, i+size); ok {
			return e
		}
	}
	if e, ok := o200kUpperWord(s, i); ok {
		return e
	}
	if f&fN != 0 {
		return digits(s, i, size)
	}
	if e, ok := punctRun(s, i, true); ok {
		return e
	}
	return spaceRun(s, i)
}

// letters returns the end of the \p{L}+ run at s[j:] (j if none).
func letters(s string, j int) int {
	for j < len(s) {
		f, size := at(s, j)
		if f&fL == 0 {
			break
		}
		j += size
	}
	return j
}

// nextCL100k returns the end of the cl100k_base piece starting at s[i].
func nextCL100k(s string, i int) int {
	if n := contractionLen(s, i); n > 0 {
		return i + n
	}
	f, size := at(s, i)
	if isPrefix(f) {
		if e := letters(s, i+size); e > i+size {
			return e
		}
	}
	if f&fL != 0 {
		return letters(s, i)
	}
	if f&fN != 0 {
		return digits(s, i, size)
	}
	if e, ok := punctRun(s, i, false); ok {
		return e
	}
	return spaceRun(s, i)
}

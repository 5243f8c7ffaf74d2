package budget

import (
	"unicode"
	"unicode/utf8"
)

// estParams are the constants of the estimate; see estimateWith.
type estParams struct {
	lower  int // lowercase letters per token inside a word piece
	upper  int // uppercase letters per token inside a word piece
	punct  int // punctuation characters per token in a mixed run
	repeat int // characters per token in a run of one repeated punctuation character
	margin int // final multiplier, in percent
}

var defaultEst = estParams{lower: 6, upper: 2, punct: 3, repeat: 8, margin: 120}

// EstimateTokens returns a conservative token estimate of text for models
// without a public tokenizer. See the package documentation for its design
// and its measured ratio to o200k_base. It is cheap (one pass over the
// bytes, no allocation) and safe for concurrent use.
func EstimateTokens(text string) int {
	return estimateWith(text, &defaultEst)
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

const (
	clsOther = iota
	clsLower
	clsUpper
	clsDigit
	clsSpace
	clsNewline
	clsHigh // byte >= 0x80
)

var asciiClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 'a' && c <= 'z':
			t[c] = clsLower
		case c >= 'A' && c <= 'Z':
			t[c] = clsUpper
		case c >= '0' && c <= '9':
			t[c] = clsDigit
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
			t[c] = clsSpace
		case c == '\n' || c == '\r':
			t[c] = clsNewline
		case c >= 0x80:
			t[c] = clsHigh
		default:
			t[c] = clsOther
		}
	}
	return t
}()

// classAt returns the class of the character at s[i] and its size in
// bytes. A non-ASCII letter of 2 bytes (Latin with accents, Greek, Cyrillic,
// Hebrew, Arabic) counts as a lowercase letter; other non-ASCII characters
// are clsHigh.
func classAt(s string, i int) (uint8, int) {
	c := asciiClass[s[i]]
	if c != clsHigh {
		return c, 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if size == 2 && unicode.IsLetter(r) {
		return clsLower, 2
	}
	return clsHigh, size
}

// estimateWith scans text once, splitting it into pieces the way the
// o200k_base pre-tokenizer does (words with one leading space or
// punctuation character, digit groups, punctuation runs, whitespace runs,
// line breaks), and charges each piece what byte-pair encoding typically
// needs for it, then applies the safety margin.
func estimateWith(s string, p *estParams) int {
	if s == "" {
		return 0
	}
	units := 0
	i := 0
	for i < len(s) {
		cls, size := classAt(s, i)
		switch cls {
		case clsLower, clsUpper:
			// [Upper]*[lower]+ or [Upper]+[lower]*: one word piece.
			up, low := 0, 0
			for i < len(s) {
				c, sz := classAt(s, i)
				if c != clsUpper || low > 0 {
					break
				}
				up++
				i += sz
			}
			for i < len(s) {
				c, sz := classAt(s, i)
				if c != clsLower {
					break
				}
				low++
				i += sz
			}
			units += ceilDiv(low, p.lower) + ceilDiv(up, p.upper)
			if low > 0 && up > 0 {
				units-- // "Word": the capital merges with the rest
			}
		case clsDigit:
			n := 0
			for i < len(s) && asciiClass[s[i]] == clsDigit {
				n++
				i++
			}
			units += ceilDiv(n, 3)
		case clsOther:
			start := i
			same := true
			for i < len(s) && asciiClass[s[i]] == clsOther {
				if s[i] != s[start] {
					same = false
				}
				i++
			}
			n := i - start
			if i < len(s) {
				if c, _ := classAt(s, i); c == clsLower || c == clsUpper {
					n-- // the last one prefixes the next word
				}
			}
			if n > 0 {
				if same {
					units += ceilDiv(n, p.repeat)
				} else {
					units += ceilDiv(n, p.punct)
				}
			}
		case clsSpace:
			n := 0
			for i < len(s) && asciiClass[s[i]] == clsSpace {
				n++
				i++
			}
			next := uint8(clsNewline) // end of text: the run is one piece
			if i < len(s) {
				next, _ = classAt(s, i)
			}
			switch next {
			case clsLower, clsUpper, clsOther:
				// One space prefixes the next word or punctuation; the
				// rest of the run is one piece.
				if n > 1 {
					units++
				}
			case clsNewline:
				// The run belongs to the line-break piece.
			default:
				// Digits and other characters take no space prefix.
				units++
				if n > 1 {
					units++
				}
			}
		case clsNewline:
			for i < len(s) && asciiClass[s[i]] == clsNewline {
				i++
			}
			units++
		default: // non-ASCII symbol, CJK, emoji: byte-level fallback
			units += size - 1
			i += size
		}
	}
	return ceilDiv(units*p.margin, 100)
}

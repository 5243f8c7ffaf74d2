package budget

import (
	"unicode"
	"unicode/utf8"
)

// estParams are the constants of the estimate; see estimateWith and the
// package documentation.
type estParams struct {
	wordDiv  int // weight of one token of a word piece's lowercase part
	wASCII   int // weight of an ASCII lowercase letter
	w2       int // weight of a 2-byte letter (accented Latin, Greek, Cyrillic, Arabic, Hebrew)
	w3       int // weight of a 3- or 4-byte letter or mark (CJK, kana, Hangul, Indic)
	upper    int // ASCII capitals per token
	punct    int // punctuation characters per token in a mixed run
	repeat   int // characters per token in a run of one repeated punctuation character
	spaces   int // spaces per token in a whitespace run
	newlines int // line breaks per token in a run of line breaks
	// An alphanumeric run (word pieces and digit groups with nothing between
	// them) of at least idMin bytes with at least idBreaksPct breaks per 100
	// bytes is an opaque identifier (random id, hash, base64, key) and costs
	// at least idTokens tokens per idBytes bytes. A break is a boundary
	// between two of its pieces (lower to upper case, letter to digit or
	// back) or an acronym followed by a lowercase tail ("HTTPServer").
	idMin, idBreaksPct, idTokens, idBytes int
	marginPct                             int // final multiplier, in percent
}

var defaultEst = estParams{
	wordDiv: 16, wASCII: 2, w2: 4, w3: 10, // 8 ASCII, 4 two-byte, 1.6 CJK letters per token
	upper: 2, punct: 3, repeat: 8, spaces: 64, newlines: 8,
	idMin: 8, idBreaksPct: 30, idTokens: 3, idBytes: 5, // 1.67 bytes per token
	marginPct: 120,
}

// EstimateTokens returns a conservative token estimate of text for models
// without a public tokenizer (Claude, Gemini, Llama, Mistral, DeepSeek,
// Qwen, unknown models). It splits text the way BPE pre-tokenizers do and
// charges each piece what byte-pair encoding typically needs for it, then
// adds a 20% safety margin; see the package documentation for the design
// and its measured ratio to o200k_base. It makes one pass over text without
// allocating, never panics, and is safe for concurrent use.
func EstimateTokens(text string) int {
	return estimateWith(text, &defaultEst)
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// Estimate character classes.
const (
	clsOther   = iota // ASCII punctuation and control characters
	clsLower          // ASCII lowercase letter
	clsUpper          // ASCII capital letter
	clsDigit          // ASCII digit
	clsSpace          // ASCII space, tab, vertical tab, form feed
	clsNewline        // \r or \n
	clsHigh           // byte >= 0x80: look at the rune
	clsLetterX        // non-ASCII letter or mark (a rune class, never in asciiClass)
	clsSymbolX        // other non-ASCII character (a rune class)
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
		case c >= utf8.RuneSelf:
			t[c] = clsHigh
		default:
			t[c] = clsOther
		}
	}
	return t
}()

// classAt returns the estimate class of the character at s[i] and its size
// in bytes. Invalid UTF-8 bytes are clsSymbolX of size 1.
func classAt(s string, i int) (uint8, int) {
	if c := asciiClass[s[i]]; c != clsHigh {
		return c, 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if unicode.IsLetter(r) || unicode.Is(unicode.M, r) {
		return clsLetterX, size
	}
	return clsSymbolX, size
}

// isWordStart reports whether class c starts or continues a word piece.
func isWordStart(c uint8) bool { return c == clsLower || c == clsUpper || c == clsLetterX }

// estimateWith scans text once, splitting it into pieces as the o200k_base
// pre-tokenizer does (words with one leading space or punctuation
// character, digit groups, punctuation runs, whitespace runs, line breaks)
// and charging each piece what byte-pair encoding typically needs for it;
// an alphanumeric run that reads as an opaque identifier costs at least
// one token per idBytes/idTokens bytes (see idRun). It then applies the
// safety margin.
func estimateWith(s string, p *estParams) int {
	if s == "" {
		return 0
	}
	units := 0
	var run idRun
	for i := 0; i < len(s); {
		cls, size := classAt(s, i)
		var u int
		switch cls {
		case clsLower, clsUpper, clsLetterX, clsDigit:
			if i != run.end {
				units += run.flush(p) // something came between: a new run
			}
			start, split := i, false
			if cls == clsDigit {
				n := runOf(s, i, clsDigit)
				u, i = ceilDiv(n, 3), i+n
			} else {
				u, i, split = estWord(s, i, p)
			}
			run.add(start, i, u, split)
			continue
		case clsOther:
			u, i = estPunct(s, i, p)
		case clsSpace:
			if i+1 < len(s) && isWordStart(asciiClass[s[i+1]]) {
				i++ // the common case: one space, the prefix of the next word
				continue
			}
			u, i = estSpaces(s, i, p)
		case clsNewline:
			n := runOf(s, i, clsNewline)
			u, i = ceilDiv(n, p.newlines), i+n
		default: // non-ASCII symbol, punctuation, emoji; invalid bytes
			u = 1
			if size == 4 {
				u = 2
			}
			i += size
		}
		units += u
	}
	units += run.flush(p)
	return ceilDiv(units*p.marginPct, 100)
}

// idRun accumulates an alphanumeric run: word pieces and digit groups that
// follow each other with nothing between them, as in "getUserName",
// "utf8", "2oRVlzswhUOTAgegHKEyEvnz" or "c350ae44".
type idRun struct {
	start, end int // byte span of the run
	units      int // the sum of its pieces' units
	breaks     int // piece boundaries and acronym splits in it
}

// add appends the piece s[start:end] of u units to the run, which ends at
// start or is empty. split reports a word piece of capitals and a
// lowercase tail ("HTTPServer", "RVlzswh").
func (r *idRun) add(start, end, u int, split bool) {
	if r.end > r.start {
		r.breaks++ // a piece boundary inside the run
	} else {
		r.start = start
	}
	if split {
		r.breaks++
	}
	r.end, r.units = end, r.units+u
}

// flush returns the units of the run and empties it. A run of at least
// idMin bytes whose breaks are at least idBreaksPct per 100 bytes reads
// as an opaque identifier: BPE has no tokens for such letter and digit
// mixes and needs a token per 1.5 bytes (1.7 for hex, 1.5 for base62 ids,
// against 6 for code identifiers), so it costs at least idTokens per
// idBytes bytes.
func (r *idRun) flush(p *estParams) int {
	u := r.units
	if n := r.end - r.start; n >= p.idMin && 100*r.breaks >= p.idBreaksPct*n {
		u = max(u, ceilDiv(n*p.idTokens, p.idBytes))
	}
	*r = idRun{}
	return u
}

// runOf returns the length of the run of ASCII bytes of class cls at s[i:].
func runOf(s string, i int, cls uint8) int {
	n := 0
	for i+n < len(s) && asciiClass[s[i+n]] == cls {
		n++
	}
	return n
}

// estWord estimates the word piece at s[i:], [Upper]*[lower]+ or
// [Upper]+[lower]*, and returns its units, where it ends, and whether it
// is two or more capitals and a lowercase tail ("HTTPServer"), which BPE
// splits.
func estWord(s string, i int, p *estParams) (int, int, bool) {
	up := runOf(s, i, clsUpper)
	i += up
	low := 0
	for i < len(s) {
		c, sz := classAt(s, i)
		switch c {
		case clsLower:
			low += p.wASCII
		case clsLetterX:
			if sz == 2 {
				low += p.w2
			} else {
				low += p.w3
			}
		default:
			sz = 0
		}
		if sz == 0 {
			break
		}
		i += sz
	}
	units := ceilDiv(low, p.wordDiv) + ceilDiv(up, p.upper)
	if low > 0 && up > 0 {
		units-- // "Word": the capital merges with the rest
	}
	return units, i, up >= 2 && low > 0
}

// estPunct estimates the run of ASCII punctuation at s[i:]. A lone mark
// right before a word prefixes it (".py", "_id") and costs nothing itself.
func estPunct(s string, i int, p *estParams) (int, int) {
	start, same := i, true
	for i < len(s) && asciiClass[s[i]] == clsOther {
		same = same && s[i] == s[start]
		i++
	}
	n := i - start
	if n == 1 && i < len(s) && (start == 0 || s[start-1] != ' ') {
		if c, _ := classAt(s, i); isWordStart(c) {
			return 0, i
		}
	}
	if same {
		return ceilDiv(n, p.repeat), i
	}
	return ceilDiv(n, p.punct), i
}

// estSpaces estimates the run of spaces at s[i:]: one space prefixes the
// word or punctuation after it, a run before a line break belongs to it.
func estSpaces(s string, i int, p *estParams) (int, int) {
	n := runOf(s, i, clsSpace)
	i += n
	if i == len(s) {
		return ceilDiv(n, p.spaces), i
	}
	switch c, _ := classAt(s, i); {
	case c == clsNewline:
		return 0, i
	case isWordStart(c) || c == clsOther:
		return ceilDiv(n-1, p.spaces), i
	default:
		// Digits and symbols take no space prefix.
		return 1 + ceilDiv(n-1, p.spaces), i
	}
}

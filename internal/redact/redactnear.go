package redact

import (
	"strings"

	"github.com/agentcompact/compact/internal/reclass"
)

// The necessary conditions (secretRule.near) of the rules that assign a
// value to a secret-named key: the key's last word, then what the
// expression needs after it. A hint ("key", "token") occurs in much text
// that assigns nothing ("keyboard", "tokens: 12", "the key is in the
// drawer", "key=key"), and the expressions, with their optional prefixes,
// backtrack over every word of such a window; the condition, one scan,
// lets the expression run only where a match can be. Each must hold of
// every string its rule's expression matches (FuzzNearIsNecessary), and a
// local one's spans must hold every match (FuzzRedactWindows).

// Last words of the key names, by rule; a bare "key" is not a key name,
// so the words ending in it are the names' own forms.
var (
	envWords        = []string{"SECRET", "TOKEN", "PASSWORD", "PASSWD", "PASSPHRASE", "KEY", "CREDENTIAL", "AUTH"}
	keyValueWords   = []string{"apikey", "api_key", "api-key", "secret_key", "privatekey", "private_key", "access_key", "token", "secret", "password", "passwd", "pwd"}
	assignmentWords = []string{"secret", "token", "password", "passwd", "passphrase", "apikey", "api_key", "accesskey", "access_key", "privatekey", "private_key", "credential", "credentials"}
	proseWords      = []string{"password", "passwd", "passphrase", "pwd", "secret", "token", "apikey", "api key", "api_key", "api-key"}
)

// nearCond is a necessary condition of a rule's match: one of words (the
// last word of the key names) with next accepting what follows it. Made
// by newNearCond; immutable after init.
type nearCond struct {
	// fold: the expression is case-insensitive, so the words (lower-case)
	// are looked for in the lower-cased input.
	fold bool
	// next returns how many bytes of rest (what follows a word) a match
	// goes on over, or -1 when no match can go on from there.
	next func(rest string) int
	// local: a match whose word is at pos lies in the span from the start
	// of the key characters ([A-Za-z0-9_.-]) that end at pos, and a quote
	// before them, to the end next returned, and each end is the end of
	// the expression's last greedy run. A large input is then matched in
	// those spans only (redactwindow.go).
	local bool
	// first lists the words by their first byte; second holds, for a
	// first byte, the bytes that can follow it in a word.
	first  [256][]string
	second [256][4]uint64
}

func newNearCond(words []string, fold, local bool, next func(rest string) int) *nearCond {
	c := &nearCond{fold: fold, local: local, next: next}
	for _, w := range words {
		c.first[w[0]] = append(c.first[w[0]], w)
		c.second[w[0]][w[1]/64] |= 1 << (w[1] % 64)
	}
	return c
}

// holds reports whether the condition holds somewhere in s.
func (c *nearCond) holds(s string) bool {
	if !c.scannable(s) {
		return true
	}
	found := false
	c.scan(s, func(int, int) int { found = true; return -1 })
	return found
}

// scannable reports whether scan sees every key word of s that the
// expression does. A folded expression also matches the runes that fold
// to ASCII letters, the Kelvin sign (k) and the long s (s: no other rune
// folds to an ASCII letter, TestFoldRunes), which scan does not.
func (c *nearCond) scannable(s string) bool {
	return !c.fold || !strings.Contains(s, "\u212A") && !strings.Contains(s, "\u017F")
}

// scan calls add with the position of each occurrence of a word in s that
// next accepts and the end next gives it, in order, and goes on looking
// after the position add returns; a negative position stops the scan.
// A folded condition scans s with its ASCII letters lower-cased, every
// byte where it was; callers pass only scannable input. What next counts
// in bytes the expression counts in runes, never more.
func (c *nearCond) scan(s string, add func(pos, end int) int) {
	if c.fold {
		s = lowerASCII(s)
	}
	for i := 0; i+1 < len(s); i++ {
		b, d := s[i], s[i+1]
		if c.second[b][d/64]&(1<<(d%64)) == 0 {
			continue
		}
		for _, w := range c.first[b] {
			if !strings.HasPrefix(s[i:], w) {
				continue
			}
			n := c.next(s[i+len(w):])
			if n < 0 {
				continue
			}
			off := add(i, i+len(w)+n)
			if off < 0 {
				return
			}
			if off > i {
				i = off
				break
			}
		}
	}
}

// keyStart returns where the key characters that end at pos begin, or
// the quote before them.
func keyStart(s string, pos int) int {
	for pos > 0 && isKeyByte(s[pos-1]) {
		pos--
	}
	if pos > 0 && (s[pos-1] == '"' || s[pos-1] == '\'') {
		pos--
	}
	return pos
}

func isKeyByte(c byte) bool {
	return reclass.Word(c) || c == '.' || c == '-'
}

// nearEnv: an upper-case key word, more key characters, then "=".
var nearEnv = newNearCond(envWords, false, false, func(rest string) int {
	r := strings.TrimLeft(rest, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
	if !strings.HasPrefix(reclass.SkipSpace(r), "=") {
		return -1
	}
	return 0
})

// nearKeyValue: a key word, ":" or "=", then eight bytes or more of an
// unquoted value.
var nearKeyValue = newNearCond(keyValueWords, true, true, func(rest string) int {
	return assigned(rest, func(v string) int {
		n := runLen(v, func(c byte) bool { return !reclass.Space(c) && strings.IndexByte(`"'[,;(){}<>`, c) < 0 })
		return atLeast(n, 8)
	})
})

// nearAssignment: a key word, an optional quote, ":" or "=", then a quoted
// literal of four bytes or more.
var nearAssignment = newNearCond(assignmentWords, true, true, func(rest string) int {
	quoted := rest != "" && (rest[0] == '"' || rest[0] == '\'')
	if quoted {
		rest = rest[1:]
	}
	n := assigned(rest, func(v string) int {
		if v == "" || v[0] != '"' && v[0] != '\'' {
			return -1
		}
		q := v[0]
		n := runLen(v[1:], func(c byte) bool { return c != q && c != '[' && !reclass.Space(c) })
		if n < 4 || 1+n >= len(v) || v[1+n] != q {
			return -1
		}
		return n + 2
	})
	if n >= 0 && quoted {
		n++
	}
	return n
})

// nearProse: a key word, white space, "is", "was", "=" or ":", white
// space, an optional quote, then six bytes or more of a value.
var nearProse = newNearCond(proseWords, true, true, func(rest string) int {
	r := reclass.SkipSpace(rest)
	if len(r) == len(rest) {
		return -1
	}
	for _, verb := range []string{"is", "was", "=", ":"} {
		after, ok := strings.CutPrefix(r, verb)
		if !ok || after == "" || !reclass.Space(after[0]) {
			continue
		}
		v := reclass.SkipSpace(after)
		if v != "" && strings.IndexByte("\"'`", v[0]) >= 0 {
			v = v[1:]
		}
		n := runLen(v, func(c byte) bool { return !reclass.Space(c) && strings.IndexByte("\"'`[", c) < 0 })
		if n >= 6 {
			return len(rest) - len(v) + n
		}
	}
	return -1
})

// assigned returns how many bytes of rest a separator (":" or "=", white
// space around it) and then a value take, value giving the value's
// length, or -1.
func assigned(rest string, value func(v string) int) int {
	r := reclass.SkipSpace(rest)
	if r == "" || r[0] != ':' && r[0] != '=' {
		return -1
	}
	v := reclass.SkipSpace(r[1:])
	n := value(v)
	if n < 0 {
		return -1
	}
	return len(rest) - len(v) + n
}

// runLen returns the length of the prefix of s whose bytes in accepts.
func runLen(s string, in func(c byte) bool) int {
	for i := 0; i < len(s); i++ {
		if !in(s[i]) {
			return i
		}
	}
	return len(s)
}

// atLeast returns n when it is at least min, else -1.
func atLeast(n, min int) int {
	if n < min {
		return -1
	}
	return n
}

// lowerASCII returns s with its ASCII letters lower-cased and every other
// byte kept.
func lowerASCII(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if c := b[i]; c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

package redact

import (
	"regexp"
	"strings"
	"unicode"
)

// secretScanBytes bounds how much of one text SecretValues reads: the
// head and the tail of a longer text, each half of it.
const secretScanBytes = 1 << 20

// secretMark replaces a known secret value.
const secretMark = "[REDACTED:secret]"

// minSecretValue is the shortest value SecretValues reports.
const minSecretValue = 6

// SecretValues returns the secret values [Secrets] removes from s, distinct,
// in the order found: the words (runs of letters, digits and "_-+/.~") of
// the spans Secrets replaces, that look like a secret (letters with digits,
// a capitalized mixed-case word, letters with punctuation) or are at least
// 16 bytes long, and are at least 6 bytes long. Words of a form, such as
// the PRIVATE of a key block, are not values. A text over 1 MiB is read at
// its head and tail only. It lets a summary written from unredacted text
// (a model that saw the conversation) be cleared of the bare values it
// repeats ([Values]).
func SecretValues(s string) []string {
	if len(s) > secretScanBytes {
		return append(SecretValues(s[:secretScanBytes/2]), SecretValues(s[len(s)-secretScanBytes/2:])...)
	}
	r := Secrets(s)
	if r == s {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, span := range replacedSpans(s, r) {
		for _, w := range strings.FieldsFunc(span, notWordRune) {
			if len(w) >= minSecretValue && (looksSecret(w) || len(w) >= 16) && !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// redactionMarkRE matches the marks Secrets writes.
var redactionMarkRE = regexp.MustCompile(`\[REDACTED:[a-z-]+\]`)

// replacedSpans returns the spans of s that r, Secrets of s, shows as
// redaction marks: the text between two marks is unchanged, so each
// mark's span runs from the end of the text before it to the start of the
// text after it (the next text that is not empty: marks side by side
// share one span). It stops at the first text it cannot align.
func replacedSpans(s, r string) []string {
	marks := redactionMarkRE.FindAllStringIndex(r, -1)
	var out []string
	i, prev := 0, 0 // positions in s and r
	for k := 0; k < len(marks); k++ {
		lit := r[prev:marks[k][0]]
		if !strings.HasPrefix(s[i:], lit) {
			return out
		}
		i += len(lit)
		for k+1 < len(marks) && marks[k+1][0] == marks[k][1] { // side by side
			k++
		}
		next := r[marks[k][1]:]
		if k+1 < len(marks) {
			next = r[marks[k][1]:marks[k+1][0]]
		}
		j := len(s)
		if next != "" {
			if j = strings.Index(s[i:], next); j < 0 {
				return out
			}
			j += i
		}
		out = append(out, s[i:j])
		i, prev = j, marks[k][1]
	}
	return out
}

func notWordRune(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_-+/.~", r)
}

// Values returns [Secrets] of s with, in addition, every occurrence
// of the given secret values (from [SecretValues]) replaced by
// "[REDACTED:secret]", longest first. Values shorter than 6 bytes are
// ignored. It is idempotent.
func Values(s string, values []string) string {
	s = Secrets(s)
	if len(values) == 0 || s == "" {
		return s
	}
	var pairs []string
	for _, v := range longestFirst(values) {
		if len(v) >= minSecretValue && !strings.Contains(secretMark, v) && strings.Contains(s, v) {
			pairs = append(pairs, v, secretMark)
		}
	}
	if len(pairs) == 0 {
		return s
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// longestFirst returns a sorted copy of values, longest first, so that a
// value containing another is replaced whole.
func longestFirst(values []string) []string {
	out := append([]string(nil), values...)
	for i := 1; i < len(out); i++ { // few values: insertion sort
		for j := i; j > 0 && len(out[j]) > len(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

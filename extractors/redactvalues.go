package extractors

import (
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

// SecretValues returns the secret values [Redact] removes from s, distinct,
// in the order found: the words of s (runs of letters, digits and
// "_-+/.~") that Redact's output no longer holds and that look like a
// secret (letters with digits, a capitalized mixed-case word, or letters
// with punctuation; at least 6 bytes). Words of a form, such as the
// PRIVATE of a key block, are not values. A text over 1 MiB is read at
// its head and tail only. It lets a summary written from unredacted text
// (a model that saw the conversation) be cleared of the bare values it
// repeats ([RedactValues]).
func SecretValues(s string) []string {
	if len(s) > secretScanBytes {
		return append(SecretValues(s[:secretScanBytes/2]), SecretValues(s[len(s)-secretScanBytes/2:])...)
	}
	r := Redact(s)
	if r == s {
		return nil
	}
	kept := map[string]bool{}
	for _, w := range strings.FieldsFunc(r, notWordRune) {
		kept[w] = true
	}
	var out []string
	for _, w := range strings.FieldsFunc(s, notWordRune) {
		if len(w) >= minSecretValue && !kept[w] && looksSecret(w) {
			kept[w] = true
			out = append(out, w)
		}
	}
	return out
}

func notWordRune(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_-+/.~", r)
}

// RedactValues returns [Redact] of s with, in addition, every occurrence
// of the given secret values (from [SecretValues]) replaced by
// "[REDACTED:secret]", longest first. Values shorter than 6 bytes are
// ignored. It is idempotent.
func RedactValues(s string, values []string) string {
	s = Redact(s)
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

package redact

import (
	"strings"

	"github.com/agentcompact/compact/internal/reclass"
)

// The necessary conditions (secretRule.near) of the rules that assign a
// value to a secret-named key: the key's last word, then what the
// expression needs right after it. A hint ("key", "token") occurs in much
// text that assigns nothing ("keyboard", "tokens: 12", "the key is in the
// drawer"), and the expressions, with their optional prefixes, backtrack
// over every word of such a window; the condition, one scan, lets the
// expression run only where a match can begin. Each must hold of every
// string its rule's expression matches (FuzzNearIsNecessary).

// Last words of the key names, by rule.
var (
	envWords        = []string{"SECRET", "TOKEN", "PASSWORD", "PASSWD", "PASSPHRASE", "KEY", "CREDENTIAL", "AUTH"}
	keyValueWords   = []string{"key", "token", "secret", "password", "passwd", "pwd"}
	assignmentWords = []string{"secret", "token", "password", "passwd", "passphrase", "key", "credential"}
	proseWords      = []string{"password", "passwd", "passphrase", "pwd", "secret", "token", "key"}
)

// nearEnv: an upper-case key word, more key characters, then "=".
func nearEnv(s string) bool {
	return followedBy(s, envWords, func(rest string) bool {
		rest = strings.TrimLeft(rest, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
		return strings.HasPrefix(reclass.SkipSpace(rest), "=")
	})
}

// nearKeyValue: a key word, then ":" or "=".
func nearKeyValue(s string) bool {
	return foldedFollowedBy(s, keyValueWords, func(rest string) bool {
		return startsAssign(reclass.SkipSpace(rest))
	})
}

// nearAssignment: a key word, an optional quote, ":" or "=", then a quote.
func nearAssignment(s string) bool {
	return foldedFollowedBy(s, assignmentWords, func(rest string) bool {
		if rest != "" && (rest[0] == '"' || rest[0] == '\'') {
			rest = rest[1:]
		}
		if rest = reclass.SkipSpace(rest); !startsAssign(rest) {
			return false
		}
		rest = reclass.SkipSpace(rest[1:])
		return rest != "" && (rest[0] == '"' || rest[0] == '\'')
	})
}

// nearProse: a key word, white space, "is", "was", "=" or ":", white space.
func nearProse(s string) bool {
	return foldedFollowedBy(s, proseWords, func(rest string) bool {
		r := reclass.SkipSpace(rest)
		if len(r) == len(rest) {
			return false
		}
		for _, verb := range []string{"is", "was", "=", ":"} {
			if after, ok := strings.CutPrefix(r, verb); ok && after != "" && reclass.Space(after[0]) {
				return true
			}
		}
		return false
	})
}

// foldedFollowedBy is followedBy for a case-insensitive expression: on the
// lower-cased input when it is ASCII; other input may hold runes that fold
// to ASCII letters (the Kelvin sign, the long s), and passes.
func foldedFollowedBy(s string, words []string, next func(rest string) bool) bool {
	if !isASCII(s) {
		return true
	}
	return followedBy(strings.ToLower(s), words, next)
}

// followedBy reports whether one of words occurs in s with next accepting
// what follows it.
func followedBy(s string, words []string, next func(rest string) bool) bool {
	for _, w := range words {
		for off := 0; off < len(s); {
			i := strings.Index(s[off:], w)
			if i < 0 {
				break
			}
			if next(s[off+i+len(w):]) {
				return true
			}
			off += i + 1
		}
	}
	return false
}

func startsAssign(s string) bool { return s != "" && (s[0] == ':' || s[0] == '=') }

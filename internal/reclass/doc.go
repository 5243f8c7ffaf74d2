// Package reclass holds the character classes of RE2 (Go's regexp) that
// hand-written scanners share with the expressions they replace or guard,
// so that a scanner and its expression agree on what, say, \s is. It
// imports nothing of this module.
package reclass

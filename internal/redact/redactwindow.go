package redact

import (
	"sort"
	"strings"

	"github.com/agentcompact/compact/internal/reclass"
)

// redactWindowMin is the input size from which a rule is matched window by
// window rather than against the whole input. Below it Go's regexp runs its
// backtracker, which is fast; above it, the NFA, which scans a large tool
// output (a recursive listing, a log) at a few MB/s even when only one line
// holds the word that made the rule worth trying.
const redactWindowMin = 1024

// span is a half-open byte range [lo, hi) of a string.
type span struct{ lo, hi int }

// applyWindows replaces r's matches in s, matching only the windows around
// the lines that hold one of r's hints (or where its necessary condition
// holds; a local condition gives the span of each possible match instead,
// redactnear.go). Every match of a line-local rule
// (all but the private key block) starts on a line holding a hint (the
// secret-named key, or the secret's own prefix) and ends at most two
// non-blank lines later (key, then "=" or ":", then the value, each
// possibly after blank lines, since \s matches a newline). A window is
// that stretch of lines; overlapping windows are merged. Windows start at a
// line start and end at a line end, so \b, ^ and the character classes see
// what they see in the whole input, and the result is the same as
// applyWhole's (FuzzRedactWindows checks it against a whole-input
// reference).
func (r *secretRule) applyWindows(s string) (string, bool) {
	wins := r.windows(s)
	var b strings.Builder
	last, changed := 0, false
	for _, w := range wins {
		out, ok := r.applyWhole(s[w.lo:w.hi])
		if !ok {
			continue
		}
		if !changed {
			b.Grow(len(s))
			changed = true
		}
		b.WriteString(s[last:w.lo])
		b.WriteString(out)
		last = w.hi
	}
	if !changed {
		return s, false
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// windows returns the merged windows of s around r's hints, in order.
func (r *secretRule) windows(s string) []span {
	var wins []span
	// add adds the window of the hint at pos and returns the end of the
	// hint's own line: a hint further on, even inside this window, needs its
	// own window, which may reach further.
	add := func(pos int) int {
		end := lineEnd(s, pos)
		wins = append(wins, span{lo: strings.LastIndexByte(s[:pos], '\n') + 1, hi: extendOverLines(s, end, 2)})
		return end
	}
	switch {
	case r.near != nil && r.near.scannable(s):
		// Every match has its key word where the condition holds: a local
		// condition's span holds the match; otherwise it starts on that
		// word's line (or, for env, before it, where the window's line
		// start gives the same replacement). Every occurrence gets its
		// span, so that a window ends where each run it holds ends.
		r.near.scan(s, func(pos, end int) int {
			if !r.near.local {
				return add(pos)
			}
			wins = append(wins, span{lo: keyStart(s, pos), hi: end})
			return pos
		})
	case r.exact:
		hintPositions(s, r.hints, add)
	case isASCII(s):
		// strings.ToLower of ASCII text keeps every byte where it was.
		hintPositions(strings.ToLower(s), r.hints, add)
	default:
		// Lower-casing other text may move bytes (and turns the Kelvin
		// sign into a "k"): test line by line, as the whole-input hint
		// test does.
		for lo := 0; lo < len(s); {
			hi := lineEnd(s, lo)
			if containsAny(strings.ToLower(s[lo:hi]), r.hints) {
				add(lo)
			}
			lo = hi + 1
		}
	}
	return mergeSpans(wins)
}

// hintPositions calls add with the position of every occurrence of each
// hint in hay, skipping to the position add returns (the end of the
// hint's line: one window per line and hint is enough).
func hintPositions(hay string, hints []string, add func(pos int) int) {
	for _, h := range hints {
		for off := 0; off < len(hay); {
			i := strings.Index(hay[off:], h)
			if i < 0 {
				break
			}
			off = add(off+i) + 1
		}
	}
}

// lineEnd returns the index of the newline ending the line that holds
// position pos, or len(s).
func lineEnd(s string, pos int) int {
	if i := strings.IndexByte(s[pos:], '\n'); i >= 0 {
		return pos + i
	}
	return len(s)
}

// extendOverLines extends a window ending at hi (a newline or len(s)) over
// the following lines up to and including the n-th one that is not blank
// for a regular expression's \s ([\t\n\f\r ]).
func extendOverLines(s string, hi, n int) int {
	for n > 0 && hi < len(s) {
		next := hi + 1
		hi = lineEnd(s, next)
		if reclass.SkipSpace(s[next:hi]) != "" {
			n--
		}
	}
	return hi
}

// mergeSpans sorts spans and merges those that overlap or touch.
func mergeSpans(spans []span) []span {
	if len(spans) < 2 {
		return spans
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].lo < spans[j].lo })
	out := spans[:1]
	for _, w := range spans[1:] {
		last := &out[len(out)-1]
		if w.lo <= last.hi+1 {
			if w.hi > last.hi {
				last.hi = w.hi
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

package extractors

import (
	"slices"
	"strings"
)

// The file index of a rendered digest: every path of the summarized calls
// on one line, grouped by what was done to them ("Files modified: a.go
// b.go | read: c.go | +3 more paths ..."), each written whole as the call
// wrote it, so that a substring search for a path finds it.

// indexSep separates the paths of one group on the index line: a space
// costs no token of its own (it joins the next path's first one).
const indexSep = " "

// maxIndexGroupItems bounds the paths a [Digest] keeps per group, and
// maxKeyPointBytes the bytes of a key point line of paths: a few hundred
// paths of a long run are carried whole along the chain.
const (
	maxIndexGroupItems = 600
	maxKeyPointBytes   = 24_000
)

// indexNote is the note of the paths left out of the index: how many and
// how to find them.
func indexNote(n int) string {
	return "+" + itoa(n) + " more paths (recall finds them by name)"
}

// uncovered returns the path lists without the paths another path of any
// list holds as whole path components ("src/a.py" and "/repo/src" in
// "/repo/src/a.py", "tests/t.py" in "tests/t.py::test_x"; not "a.py" in
// "data.py"), for which a substring search finds the longer one. The
// lists are new; groups is not modified.
func uncovered(groups [numPathGroups][]string) [numPathGroups][]string {
	held := map[string]bool{}
	for _, l := range groups {
		for _, q := range l {
			heldParts(q, held)
		}
	}
	var out [numPathGroups][]string
	for g, l := range groups {
		out[g] = make([]string, 0, len(l))
		for _, p := range l {
			if !held[p] {
				out[g] = append(out[g], p)
			}
		}
	}
	return out
}

// heldParts adds to held every shorter path q holds as whole components:
// its substrings that start at its start or at a '/' (or just after one)
// and end at its end, at a '/' (or just after one) or before a ':'.
func heldParts(q string, held map[string]bool) {
	var starts, ends []int
	starts = append(starts, 0)
	for i := 0; i < len(q); i++ {
		switch q[i] {
		case '/':
			starts = append(starts, i, i+1)
			ends = append(ends, i, i+1)
		case ':':
			ends = append(ends, i)
		}
	}
	ends = append(ends, len(q))
	for _, s := range starts {
		for _, e := range ends {
			if e > s && e-s < len(q) {
				held[q[s:e]] = true
			}
		}
	}
}

// withoutRepeats returns the path lists without the repeats of a path an
// earlier group lists (a file modified and read shows once, as modified).
// The lists are new; groups is not modified.
func withoutRepeats(groups [numPathGroups][]string) [numPathGroups][]string {
	seen := map[string]bool{}
	var out [numPathGroups][]string
	for g, l := range groups {
		out[g] = make([]string, 0, len(l))
		for _, p := range l {
			if !seen[p] {
				seen[p] = true
				out[g] = append(out[g], p)
			}
		}
	}
	return out
}

// byDirectory returns paths sorted so that those of one directory stand
// together; a new slice.
func byDirectory(paths []string) []string {
	out := slices.Clone(paths)
	slices.Sort(out)
	return out
}

// distinctRecords returns the records (most recent first) as the rendered
// digest shows them: a successful call's record with only the identifiers
// no more recent record shows ("get_user_details: mia_li_3668, ..." once,
// not in every later lookup), left out when none is left; a failed call's
// record whole. Each identifier stays findable in the most recent record
// that names it. A new slice.
func distinctRecords(records []string) []string {
	seen := map[string]bool{}
	out := make([]string, 0, len(records))
	for _, r := range records {
		tool, list, ok := strings.Cut(r, ": ")
		if !ok || strings.HasSuffix(r, " (error)") {
			out = append(out, r)
			for _, id := range strings.Split(strings.TrimSuffix(list, " (error)"), ", ") {
				seen[id] = true
			}
			continue
		}
		var fresh []string
		for _, id := range strings.Split(list, ", ") {
			if !seen[id] || strings.HasPrefix(id, "+") {
				seen[id] = true
				fresh = append(fresh, id)
			}
		}
		if len(fresh) > 0 && !(len(fresh) == 1 && strings.HasPrefix(fresh[0], "+")) {
			out = append(out, tool+": "+strings.Join(fresh, ", "))
		}
	}
	return out
}

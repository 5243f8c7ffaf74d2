// Package recallcheck checks that the recall tool gives compacted originals
// back (design invariant I8), as an agent would ask for them: by the ref a
// compaction marker shows, paging through "ref:ID lines A-B" as the answers
// say, and by a search for a line of the original. The evaluation harness
// (cmd/compact-eval) and the adapters' property tests share it.
//
// It reads the answers in the formats package recall documents (the page
// header is extractors.RecallPageHeader); a change of format makes its
// checks fail rather than pass.
package recallcheck

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/internal/refid"
	"github.com/agentcompact/compact/recall"
)

// Caller calls a recall tool with one input, as tools.Tool.Call does.
type Caller func(ctx context.Context, input string) (string, error)

// refID matches a ref id ([A-Za-z0-9_.-]+, store.ValidRef).
const refID = `[A-Za-z0-9_.-]+`

// pageHeaderRE reads extractors.RecallPageHeader: ref, from, last, lines, what.
var pageHeaderRE = regexp.MustCompile("^" + formatRE(extractors.RecallPageHeader, `(`+refID+`)`, `(.*)`) + "$")

// nextPageRE reads the last line of a page that stops before the end of its
// original (recall's next-page line): the lines left and the next input.
var nextPageRE = regexp.MustCompile(`^\.\.\. (\d+) more lines?: call recall with "(ref:` + refID + ` lines \d+-\d+)" for more$`)

// emptyOriginal follows the header of an empty original.
const emptyOriginal = "(the original is empty)"

// formatRE turns a printf format of %s and %d verbs into a regular
// expression: each %d a number group, the first %s first, the second %s
// second, the rest quoted.
func formatRE(format, first, second string) string {
	var b strings.Builder
	strs := 0
	for i := 0; i < len(format); i++ {
		if format[i] == '%' && i+1 < len(format) {
			switch format[i+1] {
			case 'd':
				b.WriteString(`(\d+)`)
				i++
				continue
			case 's':
				if strs == 0 {
					b.WriteString(first)
				} else {
					b.WriteString(second)
				}
				strs++
				i++
				continue
			}
		}
		b.WriteString(regexp.QuoteMeta(format[i : i+1]))
	}
	return b.String()
}

// Lines returns the lines a page-through of an original's text brings back:
// its lines without their line breaks (a final line break ends the last
// line, it adds none), invalid UTF-8 replaced by U+FFFD, as recall numbers
// and shows them.
func Lines(text string) []string {
	if text == "" {
		return nil
	}
	ls := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range ls {
		ls[i] = strings.ToValidUTF8(l, "\uFFFD")
	}
	return ls
}

// ByRef asks call for "ref:"+ref, follows each page's next-page line, and
// returns nil when the pages bring back text whole: every line of
// [Lines](text), in order, none cut. Otherwise its error says what went
// wrong (an answer that is not a page, a page out of order, a line cut or
// different). It returns the number of pages read.
func ByRef(ctx context.Context, call Caller, ref, text string) (int, error) {
	want := Lines(text)
	input := RefInput(ref)
	var got []string
	pages := 0
	for { // each page must move on (from == len(got)+1, last >= from): at most n pages
		answer, err := call(ctx, input)
		if err != nil {
			return pages, fmt.Errorf("call recall with %q: %w", input, err)
		}
		pages++
		ls := strings.Split(answer, "\n")
		m := pageHeaderRE.FindStringSubmatch(ls[0])
		if m == nil {
			return pages, fmt.Errorf("recall with %q answered %q, not a page", input, Clip(ls[0], 160))
		}
		if m[1] != ref {
			return pages, fmt.Errorf("recall with %q answered with ref:%s", input, m[1])
		}
		from, last, n := atoi(m[2]), atoi(m[3]), atoi(m[4])
		if n != len(want) {
			return pages, fmt.Errorf("ref:%s: the page says %d lines, the original has %d", ref, n, len(want))
		}
		if n == 0 {
			if len(ls) != 2 || ls[1] != emptyOriginal {
				return pages, fmt.Errorf("ref:%s: an empty original answered %q", ref, Clip(answer, 160))
			}
			return pages, nil
		}
		if from != len(got)+1 || last < from || last > n {
			return pages, fmt.Errorf("recall with %q answered lines %d-%d of %d; want a page from line %d", input, from, last, n, len(got)+1)
		}
		body := ls[1:]
		if len(body) < last-from+1 {
			return pages, fmt.Errorf("recall with %q: the page holds %d lines, its header says %d", input, len(body), last-from+1)
		}
		for i := from; i <= last; i++ {
			l, ok := strings.CutPrefix(body[i-from], strconv.Itoa(i)+": ")
			if !ok {
				return pages, fmt.Errorf("recall with %q: line %d of the page is %q, not numbered %d", input, i-from+2, Clip(body[i-from], 80), i)
			}
			got = append(got, l)
		}
		rest := body[last-from+1:]
		if last == n {
			if len(rest) > 0 {
				return pages, fmt.Errorf("recall with %q: the last page goes on after line %d: %q", input, n, Clip(rest[0], 120))
			}
			break
		}
		var next []string
		if len(rest) == 1 {
			next = nextPageRE.FindStringSubmatch(rest[0])
		}
		if next == nil {
			return pages, fmt.Errorf("recall with %q: a page that stops at line %d of %d ends with %q, not the next-page line", input, last, n, Clip(strings.Join(rest, "\n"), 120))
		}
		if atoi(next[1]) != n-last {
			return pages, fmt.Errorf("recall with %q: the next-page line says %s more lines, %d are left", input, next[1], n-last)
		}
		input = next[2]
	}
	for i := range want {
		if got[i] == want[i] {
			continue
		}
		if strings.Contains(got[i], "[… recall: line ") {
			return pages, fmt.Errorf("ref:%s: line %d of %d (%d bytes) comes back cut: it is longer than a page", ref, i+1, len(want), len(want[i]))
		}
		return pages, fmt.Errorf("ref:%s: line %d of %d comes back as %q, want %q", ref, i+1, len(want), Clip(got[i], 60), Clip(want[i], 60))
	}
	return pages, nil
}

// RefInput is the tool input asking for the whole original of ref.
func RefInput(ref string) string { return "ref:" + ref }

// BySearch asks call for query (words to search) and returns nil when the
// answer names ref (in a hit, or in the list of further matches).
func BySearch(ctx context.Context, call Caller, ref, query string) error {
	answer, err := call(ctx, query)
	if err != nil {
		return fmt.Errorf("call recall with %q: %w", Clip(query, 80), err)
	}
	if !refid.Names(answer, ref) {
		first, _, _ := strings.Cut(answer, "\n")
		return fmt.Errorf("a search for %q does not name ref:%s; it answered %q", Clip(query, 80), ref, Clip(first, 160))
	}
	return nil
}

// MinLineRunes is the shortest line [SearchLine] picks, in characters.
const MinLineRunes = 12

// maxLineTries bounds the candidate lines SearchLine offers to unique.
const maxLineTries = 64

// SearchLine returns a line of text that an agent could search for as it
// is, and that unique accepts: trimmed, at least [MinLineRunes] characters
// and at most recall.MaxQueryBytes bytes (so the tool searches it whole),
// valid UTF-8, one space between words and no control characters (the
// tool collapses blanks before searching the phrase), at least one letter
// or digit, and not a form the tool reads otherwise (a ref, a quoted or
// JSON string). Of such lines it prefers those of fewer words (a path, a
// name: what an agent searches for, and what the tool searches fastest),
// then the earlier; unique is asked about at most 64 lines. It reports
// false when no line fits.
func SearchLine(text string, unique func(line string) bool) (string, bool) {
	type cand struct {
		line  string
		words int
	}
	var cands []cand
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); searchable(l) {
			cands = append(cands, cand{l, strings.Count(l, " ") + 1})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return a.words - b.words })
	for i, c := range cands {
		if i == maxLineTries {
			break
		}
		if unique(c.line) {
			return c.line, true
		}
	}
	return "", false
}

// searchable reports whether line l can be searched for as it is.
func searchable(l string) bool {
	if len(l) > recall.MaxQueryBytes || utf8.RuneCountInString(l) < MinLineRunes || !utf8.ValidString(l) {
		return false
	}
	if len(l) >= 4 && strings.EqualFold(l[:4], "ref:") {
		return false
	}
	if f, e := l[0], l[len(l)-1]; f == e && (f == '"' || f == '\'' || f == '`') || f == '{' && e == '}' {
		return false
	}
	alnum := false
	prevSpace := false
	for _, r := range l {
		switch {
		case r == ' ':
			if prevSpace {
				return false
			}
			prevSpace = true
			continue
		case unicode.IsSpace(r), unicode.IsControl(r), r == '\u2028', r == '\u2029', r == '\uFEFF':
			return false
		case unicode.IsLetter(r), unicode.IsDigit(r):
			alnum = true
		}
		prevSpace = false
	}
	return alnum
}

// Clip returns s cut to about n bytes at a rune boundary, with "…" when cut.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

package recall

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/internal/refid"
	"github.com/agentcompact/compact/store"
)

// Search answers. A search answer is the header, the notes, the hits and,
// when more matched than are shown, the more line.
const (
	noteQueryCut = "(the query was cut to its first %d bytes)"
	noteWordsCut = "(only its first %d distinct words were searched)"
	moreFormat   = `... %d more matching %s%s: %s; call recall with "ref:ID" for one, or search with more words`
	mayMoreLine  = `... more originals may match than were read; search with more words to narrow`
	// moreRefs is how many refs the more line lists.
	moreRefs = 10
	// snippetLineBytes bounds one snippet line (cut around its match).
	snippetLineBytes = 200
	// otherLines is how many other matching line numbers a hit lists.
	otherLines = 5
)

// hit is one original a search found, with its rank.
type hit struct {
	o      store.Original
	words  int  // distinct query words it contains
	phrase bool // it contains the whole query, literally
	lines  int  // its line count
	order  int  // when it was found: the phrase's matches, then each word's
}

// search answers the search form. It asks the source for the phrase (when
// the query has several words) and then for each word, each a literal
// search of at most the search limit, and ranks what they found:
//
//  1. more distinct query words first (all of them above some of them);
//  2. then a literal match of the whole query above scattered words;
//  3. then shorter originals (fewer lines) first;
//  4. then in the order found: the phrase's matches, then the first
//     word's, the second's, ..., each in the source's order (the order
//     stored, earlier first).
//
// Originals that are recall answers themselves (extractors.IsRecallAnswer)
// are left out: they repeat originals the source holds.
func (t *Tool) search(ctx context.Context, src Source, req request) (string, error) {
	var queries []string
	if req.phraseSet {
		queries = append(queries, req.query)
	}
	queries = append(queries, req.words...)
	fwords := make([]string, len(req.words))
	for i, w := range req.words {
		fwords[i] = store.FoldCase(w)
	}
	fphrase := store.FoldCase(req.query)
	var hits []hit
	seen := map[string]bool{}
	more := false
	for _, q := range queries {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		found, err := src.Search(ctx, q, t.searchLimit)
		if err != nil {
			return "", err
		}
		if len(found) >= t.searchLimit {
			more = true
			found = found[:t.searchLimit]
		}
		for _, o := range found {
			if seen[o.Ref] || !store.ValidRef(o.Ref) {
				continue
			}
			seen[o.Ref] = true
			if extractors.IsRecallAnswer(o.Text) {
				continue
			}
			h := rank(o, fwords, fphrase, req.phraseSet, len(hits))
			if h.words > 0 { // a source may return more than asked for
				hits = append(hits, h)
			}
		}
	}
	if len(hits) == 0 {
		return answerNoMatch(req.query), nil
	}
	slices.SortStableFunc(hits, compareHits)
	return t.fitSearch(req, hits, fwords, fphrase, more), nil
}

// rank scores one original against the folded query.
func rank(o store.Original, fwords []string, fphrase string, phraseSet bool, order int) hit {
	f := store.FoldCase(o.Text)
	h := hit{o: o, lines: extractors.CountLines(o.Text), order: order}
	for _, w := range fwords {
		if strings.Contains(f, w) {
			h.words++
		}
	}
	h.phrase = h.words == len(fwords) && (!phraseSet || strings.Contains(f, fphrase))
	return h
}

// compareHits orders hits best first (see search).
func compareHits(a, b hit) int {
	switch {
	case a.words != b.words:
		return b.words - a.words
	case a.phrase != b.phrase:
		if a.phrase {
			return -1
		}
		return 1
	case a.lines != b.lines:
		return a.lines - b.lines
	}
	return a.order - b.order
}

// fitSearch renders the best hits the cap holds, in rank order.
func (t *Tool) fitSearch(req request, hits []hit, fwords []string, fphrase string, more bool) string {
	plus := ""
	if more {
		plus = "+"
	}
	var notes []string
	if req.queryCut {
		notes = append(notes, fmt.Sprintf(noteQueryCut, MaxQueryBytes))
	}
	if req.wordsCut {
		notes = append(notes, fmt.Sprintf(noteWordsCut, MaxQueryWords))
	}
	header := func(k int) string {
		return strings.Join(append([]string{fmt.Sprintf(extractors.RecallSearchHeader, req.query, k, len(hits), plus)}, notes...), "\n")
	}
	footer := func(k int) string {
		switch {
		case k < len(hits):
			return "\n" + moreLine(hits[k:], more)
		case more:
			return "\n" + mayMoreLine
		}
		return ""
	}
	// Add hits while the whole still fits; a block of a hit is counted
	// once, the header and the more line for each k.
	var blocks []string
	used := 0
	for k := 0; k < len(hits); k++ {
		b := "\n" + snippet(hits[k], fwords, fphrase, req.phraseSet)
		c := t.tokens(b)
		if t.tokens(header(k+1))+used+c+t.tokens(footer(k+1)) > t.maxTokens {
			break
		}
		blocks = append(blocks, b)
		used += c
	}
	for {
		k := len(blocks)
		out := header(k) + strings.Join(blocks, "") + footer(k)
		if k == 0 || t.tokens(out) <= t.maxTokens {
			return out
		}
		blocks = blocks[:k-1] // the whole counts more than its parts
	}
}

// moreLine lists the refs of the hits not shown.
func moreLine(rest []hit, more bool) string {
	refs := make([]string, 0, moreRefs+1)
	for i, h := range rest {
		if i == moreRefs {
			refs = append(refs, "+"+strconv.Itoa(len(rest)-moreRefs)+" more")
			break
		}
		refs = append(refs, refid.Prefix+h.o.Ref)
	}
	atLeast := ""
	if more {
		atLeast = " (or more)"
	}
	return fmt.Sprintf(moreFormat, len(rest), plural(len(rest), "original", "originals"), atLeast, strings.Join(refs, ", "))
}

// snippet renders one hit: its header and its best matching line with a
// line of context on each side, numbered; long lines are cut around their
// match. The best line holds the phrase, or else the most query words;
// the earliest of equals.
func snippet(h hit, fwords []string, fphrase string, phraseSet bool) string {
	best, bestScore, bestPos := 0, 0, 0
	var matching []int // 0-based
	flines, olines := lines{rest: store.FoldCase(h.o.Text)}, lines{rest: h.o.Text}
	for i := 0; ; i++ {
		fl, ok := flines.next()
		ol, _ := olines.next()
		if !ok {
			break
		}
		score, pos := 0, -1
		if phraseSet {
			if j := strings.Index(fl, fphrase); j >= 0 {
				score, pos = len(fwords)+1, j
			}
		}
		for _, w := range fwords {
			if j := strings.Index(fl, w); j >= 0 {
				score++
				if pos < 0 || j < pos {
					pos = j
				}
			}
		}
		if score == 0 {
			continue
		}
		matching = append(matching, i)
		if score > bestScore {
			best, bestScore, bestPos = i, score, pos
			if len(fl) != len(ol) {
				bestPos = 0 // folding changed the bytes: offsets differ
			}
		}
	}
	first, last := max(best-1, 0), min(best+1, max(h.lines-1, 0))
	var others []string
	n := 0
	for _, i := range matching {
		if i >= first && i <= last {
			continue
		}
		if n < otherLines {
			others = append(others, strconv.Itoa(i+1))
		}
		n++
	}
	note := ""
	if n > 0 {
		note = "; also matching lines " + strings.Join(others, ", ")
		if n > otherLines {
			note += " (+" + strconv.Itoa(n-otherLines) + " more)"
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, extractors.RecallHitHeader, h.o.Ref, first+1, last+1, h.lines, whatOf(h.o), note)
	it := lines{rest: h.o.Text}
	it.skip(first)
	for i := first; i <= last; i++ {
		l, _ := it.next()
		pos := 0
		if i == best {
			pos = bestPos
		}
		fmt.Fprintf(&b, "\n%d: %s", i+1, cutAround(l, pos, snippetLineBytes))
	}
	return b.String()
}

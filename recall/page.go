package recall

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/store"
)

// nextPageFormat is the last line of a page that does not reach the end
// of its original: the lines left, then the input of the next page.
const nextPageFormat = `... %d more %s: call recall with "ref:%s lines %d-%d" for more`

// emptyLine follows the header of an empty original.
const emptyLine = "(the original is empty)"

// page answers the ref form: the lines asked for (all by default) of the
// original, from the first one asked for, as many as the cap holds.
func (t *Tool) page(ctx context.Context, src Source, req request) (string, error) {
	o, ref, err := t.lookup(ctx, src, req.ref)
	switch {
	case err == nil:
	case ctx.Err() == nil && errors.Is(err, ErrNoLongerHeld):
		return answerNoLongerHeld(req.ref), nil
	case ctx.Err() == nil && notFound(err):
		return answerUnknownRef(req.ref), nil
	default:
		return "", err
	}
	n := extractors.CountLines(o.Text)
	from, to := 1, n
	if req.hasRange {
		from, to = max(req.from, 1), req.to
		if to == 0 {
			to = n
		}
		if from > n {
			return answerOutOfRange(ref, req.from, req.to, n), nil
		}
		to = min(to, n)
	}
	what := whatOf(o)
	if n == 0 {
		return fmt.Sprintf(extractors.RecallPageHeader, ref, 0, 0, 0, what) + "\n" + emptyLine, nil
	}
	return t.fitPage(o.Text, ref, what, from, to, n), nil
}

// lookup reads the original of ref. A ref that is not found is tried
// again lower-cased and without a trailing '.' (a sentence's full stop),
// since models copy refs loosely; the ref found is returned with it.
func (t *Tool) lookup(ctx context.Context, src Source, ref string) (store.Original, string, error) {
	if len(ref) > maxRefBytes {
		return store.Original{}, ref, fmt.Errorf("recall: ref of %d bytes: %w", len(ref), store.ErrNotFound)
	}
	o, err := src.Original(ctx, ref)
	if err == nil || !notFound(err) || ctx.Err() != nil {
		return o, ref, err
	}
	for _, alt := range []string{strings.ToLower(ref), strings.TrimRight(ref, "."), strings.ToLower(strings.TrimRight(ref, "."))} {
		if alt == ref || alt == "" {
			continue
		}
		o2, err2 := src.Original(ctx, alt)
		if err2 == nil {
			return o2, alt, nil
		}
		if !notFound(err2) {
			return o2, alt, err2
		}
	}
	return o, ref, err
}

// pageLine is one numbered line of a page and its token count.
type pageLine struct {
	text   string
	tokens int
}

// fitPage renders lines from..to (1-based, within 1..n) of text, as many
// as fit the cap from the first one: a line that does not fit alone is
// cut with a marker, so every page shows at least one line. A page that
// stops before line n ends with the next-page line.
func (t *Tool) fitPage(text, ref, what string, from, to, n int) string {
	headerMax := t.tokens(fmt.Sprintf(extractors.RecallPageHeader, ref, to, to, n, what) + "\n")
	footerMax := t.tokens("\n" + fmt.Sprintf(nextPageFormat, n, "lines", ref, n, n))
	room := t.maxTokens - headerMax - footerMax - 2
	var shown []pageLine
	used := 0
	it := lines{rest: text}
	it.skip(from - 1)
	for i := from; i <= to; i++ {
		line, _ := it.next()
		num, text := strconv.Itoa(i)+": ", strings.ToValidUTF8(line, "\uFFFD")
		l := num + text
		c := t.tokens(l + "\n")
		if used+c > room {
			if len(shown) == 0 {
				l = t.cutLine(num, text, i, room)
				shown = append(shown, pageLine{l, t.tokens(l + "\n")})
			}
			break
		}
		shown = append(shown, pageLine{l, c})
		used += c
	}
	for {
		last := from + len(shown) - 1
		out := renderPage(shown, ref, what, from, last, n)
		if len(shown) == 1 || t.tokens(out) <= t.maxTokens {
			return out
		}
		// The whole counts more than its parts: drop lines from the end.
		over := t.tokens(out) - t.maxTokens
		for over > 0 && len(shown) > 1 {
			over -= shown[len(shown)-1].tokens
			shown = shown[:len(shown)-1]
		}
	}
}

// cutLine returns line i, num + text (num its "i: " prefix), cut to room
// tokens with a marker saying how much of it is not shown.
func (t *Tool) cutLine(num, text string, i, room int) string {
	marker := func(left int) string {
		return fmt.Sprintf(" [… recall: line %d cut here, %d of its %d bytes not shown …]", i, left, len(text))
	}
	l := num + text
	long := marker(len(text))
	kept := len(t.cutToTokens(l, room, long)) - len(long)
	return l[:kept] + marker(len(text)-max(kept-len(num), 0))
}

// renderPage joins a page: the header, the numbered lines, and the
// next-page line when the page stops before line n.
func renderPage(shown []pageLine, ref, what string, from, last, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, extractors.RecallPageHeader, ref, from, last, n, what)
	for _, l := range shown {
		b.WriteByte('\n')
		b.WriteString(l.text)
	}
	if last < n {
		b.WriteByte('\n')
		fmt.Fprintf(&b, nextPageFormat, n-last, plural(n-last, "line", "lines"), ref, last+1, min(n, last+len(shown)))
	}
	return b.String()
}

// plural returns one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

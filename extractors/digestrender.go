package extractors

import (
	"strings"
)

// digestSection is one category of a rendered digest.
type digestSection struct {
	label string
	items []string
	sep   string
}

// sections returns the categories of d in reading order, each with the
// priority rank Render fills them in (0 first).
func (d Digest) sections() (order []digestSection, priority []int) {
	order = []digestSection{
		{label: "Instructions", items: d.Instructions, sep: "; "},
		{label: "Errors", items: d.Errors, sep: "; "},
		{label: "Open questions", items: d.Questions, sep: " "},
		{label: "Files modified", items: d.FilesModified, sep: ", "},
		{label: "Commands", items: d.Commands, sep: "; "},
		{label: "Files read", items: d.FilesRead, sep: ", "},
		{label: "Entities", items: d.Entities, sep: ", "},
	}
	// Fill order: instructions, errors, files modified, commands, open
	// questions, files read, entities.
	priority = []int{0, 1, 3, 4, 2, 5, 6}
	return order, priority
}

// shares are the parts of the budget each category (in reading order) may
// take in Render's first round.
var shares = []float64{0.30, 0.20, 0.10, 0.15, 0.15, 0.15, 0.10}

// header is the first line of a rendered digest.
func (d Digest) header() string {
	h := "Summary of " + itoa(d.Messages) + " earlier messages"
	if d.ToolCalls > 0 {
		h += " (" + itoa(d.ToolCalls) + " tool calls)"
	}
	return h + "."
}

// maxKeyPointItems bounds the items listed on one key point line.
const maxKeyPointItems = 12

// KeyPoints returns one line per non-empty category, such as
// "Files modified: a.go, b.go" or "Errors: ValueError at foo.py:12", in the
// order instructions, errors, open questions, files modified, commands,
// files read, entities; at most a dozen items per line. The result is new.
func (d Digest) KeyPoints() []string {
	order, _ := d.sections()
	var out []string
	for _, s := range order {
		if len(s.items) == 0 || s.label == "Entities" {
			continue
		}
		items := s.items
		more := ""
		if len(items) > maxKeyPointItems {
			more = s.sep + "+" + itoa(len(items)-maxKeyPointItems) + " more"
			items = items[:maxKeyPointItems]
		}
		out = append(out, s.label+": "+strings.Join(items, s.sep)+more)
	}
	return out
}

// estimateTokens is the counter Render uses when none is given.
func estimateTokens(s string) int { return len(s)/3 + 1 }

// Render returns the digest as summary text that fits maxTokens as counted
// by count (len/3+1 when count is nil). It fills by priority, not by
// cutting the tail: the header line, then instructions, errors, files
// modified, commands, open questions, the previous summary (shortened to the
// room left), files read and entities, each list most recent first, so what
// is left out is the least important. The text has one line per category:
//
//	Summary of 40 earlier messages (18 tool calls).
//	Previous summary: ...
//	Instructions: ...; ...
//	Errors: ValueError at foo.py:12: ...
//	Files modified: a.go, b.go
//	Commands: go test ./... (exit 1); ...
//	Open questions: ...
//	Files read: ...
//	Entities: ...
//
// The result never exceeds maxTokens as counted by count; Render returns
// "" only when not even the header fits. Safe for concurrent use when
// count is.
func (d Digest) Render(maxTokens int, count func(string) int) string {
	if count == nil {
		count = estimateTokens
	}
	if maxTokens <= 0 {
		return ""
	}
	header := d.header()
	if count(header) > maxTokens {
		return ""
	}
	order, prio := d.sections()
	f := digestFit{order: order, chosen: make([][]string, len(order)), spent: make([]int, len(order)),
		max: maxTokens, count: count, used: count(header) + 1}
	// Round one gives each category at most its share of the budget, so a
	// flood of one kind (say, forty instructions) cannot crowd out the
	// rest; round two hands what is left out in priority order.
	for _, sec := range prio[:5] {
		f.fill(sec, shares[sec])
	}
	if p := strings.TrimSpace(d.Previous); p != "" {
		room := min(maxTokens-f.used, int(0.3*float64(maxTokens))) - count("Previous summary: ") - 1
		f.prev = d.fitPrevious(p, room, count)
		if f.prev != "" {
			f.used += count("Previous summary: "+f.prev) + 1
		}
	}
	for _, sec := range prio[5:] {
		f.fill(sec, shares[sec])
	}
	for _, sec := range prio {
		f.fill(sec, 0)
	}
	return f.fit(header)
}

// digestFit is the state of Render: the items chosen per section and the
// tokens they use.
type digestFit struct {
	order  []digestSection
	chosen [][]string // per section, the items chosen
	spent  []int      // per section, the tokens its items use
	picks  []int      // the sections of the items chosen, in the order chosen
	prev   string     // the previous summary, shortened
	max    int
	count  func(string) int
	used   int // the tokens used, as the sum of the parts' counts
}

// tryAdd adds item to section sec when it fits the budget.
func (f *digestFit) tryAdd(sec int, item string) bool {
	cost := f.count(item) + 1
	if len(f.chosen[sec]) == 0 {
		cost += f.count(f.order[sec].label+": ") + 1
	}
	if f.used+cost > f.max {
		return false
	}
	f.used += cost
	f.chosen[sec] = append(f.chosen[sec], item)
	f.picks = append(f.picks, sec)
	return true
}

// fill adds the next items of section sec while they fit, up to share of
// the budget for the section (0: no limit but the budget).
func (f *digestFit) fill(sec int, share float64) {
	limit := f.max
	if share > 0 {
		limit = int(share * float64(f.max))
	}
	for _, it := range f.order[sec].items[len(f.chosen[sec]):] {
		before := f.used
		if f.spent[sec] >= limit || !f.tryAdd(sec, it) {
			return
		}
		f.spent[sec] += f.used - before
	}
}

// text renders the header and the chosen items, one line per section.
func (f *digestFit) text(header string) string {
	var b strings.Builder
	b.WriteString(header)
	if f.prev != "" {
		b.WriteString("\nPrevious summary: ")
		b.WriteString(f.prev)
	}
	for i, s := range f.order {
		if len(f.chosen[i]) == 0 {
			continue
		}
		b.WriteString("\n")
		b.WriteString(s.label)
		b.WriteString(": ")
		b.WriteString(strings.Join(f.chosen[i], s.sep))
	}
	return b.String()
}

// fit returns the text, checked whole against the budget: the sum of the
// parts' counts is an estimate, so the last (least important) picks are
// dropped, then the previous summary halved, until it fits; "" when
// nothing does.
func (f *digestFit) fit(header string) string {
	out := f.text(header)
	for f.count(out) > f.max {
		if len(f.picks) > 0 {
			last := f.picks[len(f.picks)-1]
			f.picks = f.picks[:len(f.picks)-1]
			f.chosen[last] = f.chosen[last][:len(f.chosen[last])-1]
		} else if f.prev != "" {
			shorter := shortenWords(f.prev, len(f.prev)/2)
			if len(shorter) >= len(f.prev) || len(shorter) < 16 {
				shorter = ""
			}
			f.prev = shorter
		} else {
			break
		}
		out = f.text(header)
	}
	if f.count(out) > f.max {
		return ""
	}
	return out
}

// fitPrevious shortens the previous summary to about room tokens, at a
// word boundary with "…"; "" when there is no room worth using.
func (d Digest) fitPrevious(p string, room int, count func(string) int) string {
	if room < 8 {
		return ""
	}
	p = cleanLine(p, maxDigestPrevious)
	if count(p) <= room {
		return p
	}
	// Shrink by the measured bytes-per-token ratio, then tighten.
	lo, hi := 0, len(p)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if count(shortenWords(p, mid)) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo < 16 {
		return ""
	}
	return shortenWords(p, lo)
}

// shortenWords cuts s to at most n bytes, at a word boundary when one is
// near, with "…".
func shortenWords(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if s = redactForCut(s, n); len(s) <= n {
		return s
	}
	c := cutBytes(s, n-len("…"))
	if i := strings.LastIndexByte(c, ' '); i > len(c)*2/3 {
		c = c[:i]
	}
	return strings.TrimRight(c, " ") + "…"
}

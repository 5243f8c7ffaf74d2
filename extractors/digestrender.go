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
	order, prio := d.sections()
	chosen := make([][]string, len(order))
	header := d.header()
	if count(header) > maxTokens {
		return ""
	}
	type pick struct{ sec int } // the order picks were made in
	var picks []pick
	used := count(header) + 1
	tryAdd := func(sec int, item string) bool {
		cost := count(item) + 1
		if len(chosen[sec]) == 0 {
			cost += count(order[sec].label+": ") + 1
		}
		if used+cost > maxTokens {
			return false
		}
		used += cost
		chosen[sec] = append(chosen[sec], item)
		picks = append(picks, pick{sec})
		return true
	}
	// Round one gives each category at most its share of the budget, so a
	// flood of one kind (say, forty instructions) cannot crowd out the
	// rest; round two hands what is left out in priority order.
	spent := make([]int, len(order))
	fill := func(sec int, share float64) {
		limit := maxTokens
		if share > 0 {
			limit = int(share * float64(maxTokens))
		}
		for _, it := range order[sec].items[len(chosen[sec]):] {
			before := used
			if spent[sec] >= limit || !tryAdd(sec, it) {
				return
			}
			spent[sec] += used - before
		}
	}
	for _, sec := range prio[:5] {
		fill(sec, shares[sec])
	}
	prevText := ""
	if p := strings.TrimSpace(d.Previous); p != "" {
		room := min(maxTokens-used, int(0.3*float64(maxTokens))) - count("Previous summary: ") - 1
		prevText = d.fitPrevious(p, room, count)
		if prevText != "" {
			used += count("Previous summary: "+prevText) + 1
		}
	}
	for _, sec := range prio[5:] {
		fill(sec, shares[sec])
	}
	for _, sec := range prio {
		fill(sec, 0)
	}
	render := func() string {
		var b strings.Builder
		b.WriteString(header)
		if prevText != "" {
			b.WriteString("\nPrevious summary: ")
			b.WriteString(prevText)
		}
		for i, s := range order {
			if len(chosen[i]) == 0 {
				continue
			}
			b.WriteString("\n")
			b.WriteString(s.label)
			b.WriteString(": ")
			b.WriteString(strings.Join(chosen[i], s.sep))
		}
		return b.String()
	}
	// The estimate adds counts of parts; check the whole and drop the last
	// (least important) picks until it fits.
	out := render()
	for count(out) > maxTokens {
		if len(picks) > 0 {
			last := picks[len(picks)-1]
			picks = picks[:len(picks)-1]
			chosen[last.sec] = chosen[last.sec][:len(chosen[last.sec])-1]
		} else if prevText != "" {
			shorter := shortenWords(prevText, len(prevText)/2)
			if len(shorter) >= len(prevText) || len(shorter) < 16 {
				shorter = ""
			}
			prevText = shorter
		} else {
			break
		}
		out = render()
	}
	if count(out) > maxTokens {
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

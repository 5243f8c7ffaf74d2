package llmsummary

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/agentcompact/compact/prompts"
)

// formatSummary renders a structured summary as the text of a
// [summary.Record]: the narrative, then the key points, decisions, action
// items and open questions as lists and the domain entities on one line;
// empty sections are left out. Participants are kept in the record only.
func formatSummary(s prompts.Summary) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(s.Summary))
	list := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		b.WriteString("\n")
		b.WriteString(title)
		b.WriteString(":")
		for _, it := range items {
			b.WriteString("\n- ")
			b.WriteString(it)
		}
	}
	list("Key points", s.KeyPoints)
	list("Decisions", s.Context.Decisions)
	if len(s.Context.ActionItems) > 0 {
		items := make([]string, len(s.Context.ActionItems))
		for i, a := range s.Context.ActionItems {
			items[i] = a.Task
			var extra []string
			if a.Owner != "" {
				extra = append(extra, "owner: "+a.Owner)
			}
			if a.Due != "" {
				extra = append(extra, "due: "+a.Due)
			}
			if len(extra) > 0 {
				items[i] += " (" + strings.Join(extra, "; ") + ")"
			}
		}
		list("Action items", items)
	}
	list("Unresolved", s.Context.Unresolved)
	if len(s.Context.DomainEntities) > 0 {
		b.WriteString("\nEntities: ")
		b.WriteString(strings.Join(s.Context.DomainEntities, ", "))
	}
	return b.String()
}

// Floors of the first shrinking passes of fitSummary.
const (
	fitKeepKeyPoints = 5
	fitKeepItems     = 3
)

// fitSummary returns s (normalized, sharing nothing with the input) and its
// text, shrunk by rules until the text is at most maxTokens by count, and
// whether it had to shrink. The rules, in order, each stopping as soon as
// the text fits: drop key points from the end down to 5; shorten the
// context arrays from the end, longest first, down to 3 each; drop the
// remaining key points; drop the remaining array entries; cut the narrative
// after its last sentence that fits; cut it at a character with "…". The
// narrative is never emptied.
func fitSummary(s prompts.Summary, maxTokens int, count func(string) int) (prompts.Summary, string, bool) {
	w := s.Normalized()
	text := formatSummary(w)
	if count(text) <= maxTokens {
		return w, text, false
	}
	fits := func() bool {
		text = formatSummary(w)
		return count(text) <= maxTokens
	}
	for len(w.KeyPoints) > fitKeepKeyPoints {
		w.KeyPoints = w.KeyPoints[:len(w.KeyPoints)-1]
		if fits() {
			return w, text, true
		}
	}
	if shortenArrays(&w, fitKeepItems, fits) {
		return w, text, true
	}
	for len(w.KeyPoints) > 0 {
		w.KeyPoints = w.KeyPoints[:len(w.KeyPoints)-1]
		if fits() {
			return w, text, true
		}
	}
	if shortenArrays(&w, 0, fits) {
		return w, text, true
	}
	w.Summary = cutNarrative(w.Summary, func(n string) bool {
		return count(formatSummary(prompts.Summary{Summary: n, Context: w.Context})) <= maxTokens
	})
	text = formatSummary(w)
	return w, text, true
}

// shortenArrays drops the last entry of the longest context array (ties in
// a fixed order) while any is longer than floor, until fits reports true.
func shortenArrays(w *prompts.Summary, floor int, fits func() bool) bool {
	c := &w.Context
	for {
		lens := []struct {
			n    int
			drop func()
		}{
			{len(c.DomainEntities), func() { c.DomainEntities = c.DomainEntities[:len(c.DomainEntities)-1] }},
			{len(c.Decisions), func() { c.Decisions = c.Decisions[:len(c.Decisions)-1] }},
			{len(c.Unresolved), func() { c.Unresolved = c.Unresolved[:len(c.Unresolved)-1] }},
			{len(c.ActionItems), func() { c.ActionItems = c.ActionItems[:len(c.ActionItems)-1] }},
			{len(c.Participants), func() { c.Participants = c.Participants[:len(c.Participants)-1] }},
		}
		sort.SliceStable(lens, func(i, j int) bool { return lens[i].n > lens[j].n })
		if lens[0].n <= floor {
			return false
		}
		lens[0].drop()
		if fits() {
			return true
		}
	}
}

// cutNarrative returns the longest prefix of narrative ending at a sentence
// end for which ok holds; failing that, the longest prefix cut at a
// character, followed by "…", for which ok holds; at the very least "…".
func cutNarrative(narrative string, ok func(string) bool) string {
	var ends []int
	for i, r := range narrative {
		switch r {
		case '.', '!', '?', '\n':
			end := i + utf8.RuneLen(r)
			if end == len(narrative) || narrative[end] == ' ' || narrative[end] == '\n' || r == '\n' {
				ends = append(ends, end)
			}
		}
	}
	// Largest sentence prefix that fits (ok is monotonic in practice).
	best := -1
	lo, hi := 0, len(ends)-1
	for lo <= hi {
		mid := (lo + hi) / 2
		if cand := strings.TrimSpace(narrative[:ends[mid]]); cand != "" && ok(cand) {
			best, lo = mid, mid+1
		} else {
			hi = mid - 1
		}
	}
	if best >= 0 {
		return strings.TrimSpace(narrative[:ends[best]])
	}
	runes := []rune(narrative)
	lo, hi = 1, len(runes)
	keep := 0
	for lo <= hi {
		mid := (lo + hi) / 2
		if ok(strings.TrimSpace(string(runes[:mid])) + "…") {
			keep, lo = mid, mid+1
		} else {
			hi = mid - 1
		}
	}
	return strings.TrimSpace(string(runes[:keep])) + "…"
}

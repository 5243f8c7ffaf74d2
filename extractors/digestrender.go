package extractors

import (
	"strings"

	"github.com/agentcompact/compact/internal/msg"
)

// The sections of a rendered digest, in reading order. The paths of all
// groups share one line; the previous summary comes first, after the
// header.
const (
	secInstructions = iota
	secErrors
	secRaised
	secQuestions
	secPaths
	secRecords
	secCommands
	secEntities
	numSections
)

// sectionLabel and sectionSep are each section's label and item separator.
var (
	sectionLabel = [numSections]string{"Instructions", "Errors", "Exceptions raised", "Open questions", "Files", "Records", "Commands", "Entities"}
	sectionSep   = [numSections]string{"; ", "; ", ", ", " ", ", ", "; ", "; ", ", "}
)

// roundOne are the sections Render fills after the paths, in order, each
// with at most its share of the room the paths leave, in short form: the
// identifiers, then the instructions, errors, commands and open questions.
// roundTwo hands out what is left, without shares, in short form too: the
// commands (their exit statuses) before the errors, whose exception names
// the Raised line keeps; the entities (mostly the names the agent wrote,
// many) take the rest last.
var (
	roundOne = []struct {
		sec   int
		share float64
	}{{secRecords, 0.25}, {secRaised, 0.05}, {secEntities, 0.10}, {secInstructions, 0.25}, {secErrors, 0.20}, {secCommands, 0.15}, {secQuestions, 0.10}}
	roundTwo = []int{secRecords, secRaised, secInstructions, secCommands, secErrors, secQuestions, secEntities}
	// fullOrder are the sections whose items have a short form, in the
	// order Render restores their full forms.
	fullOrder = []int{secInstructions, secErrors, secCommands, secQuestions}
)

// Bytes of the short forms Render uses before the full ones.
const (
	shortTextBytes    = 90  // an instruction or a question (the first 60 bytes identify it)
	shortErrorBytes   = 100 // an error: its name, place and the head of its message
	shortCommandBytes = 56  // a command, before its status
)

// shortForm returns the short form of an item of section sec: its head,
// with "…" when cut (a command keeps its status, "(exit 1)"; an error its
// ref).
func shortForm(sec int, item string) string {
	switch sec {
	case secInstructions, secQuestions:
		return shorten(item, shortTextBytes)
	case secErrors:
		body, ref := cutRef(item) // a ref stays whole
		return shorten(body, shortErrorBytes) + ref
	case secCommands:
		body, status := item, ""
		if i := strings.LastIndex(item, " ("); i > 0 && strings.HasSuffix(item, ")") && len(item)-i <= 16 {
			body, status = item[:i], item[i:]
		}
		return shorten(body, shortCommandBytes) + status
	}
	return item
}

// header is the first line of a rendered digest.
func (d Digest) header() string {
	h := "Summary of " + itoa(d.Messages) + " earlier messages"
	if d.ToolCalls > 0 {
		h += " (" + itoa(d.ToolCalls) + " tool calls)"
	}
	return h + "."
}

// maxKeyPointItems caps the items of a key point line of a list other than
// paths and records (maxKeyPointBytes caps those lines, which hold every
// item, as the chain carries them).
const maxKeyPointItems = 12

// KeyPoints returns one line per non-empty list, such as "Files modified:
// a.go, b.go" or "Errors: ValueError at foo.py:12", in the order
// instructions, errors, open questions, files modified, files created,
// records, commands, then the other path lists: "Files read", "Files searched", "Files listed", "Files
// tested", "Files run" (entities are left out). A line of paths or
// records holds every item within about 24,000 bytes, another line at most
// a dozen items;
// "+N more" says how many were left out. The result is new.
func (d Digest) KeyPoints() []string {
	paths := d.paths()
	type line struct {
		label string
		items []string
		sep   string
		whole bool // every item, within maxKeyPointBytes
	}
	lines := []line{
		{"Instructions", d.Instructions, "; ", false},
		{"Errors", d.Errors, "; ", false},
		{"Exceptions raised", d.Raised, ", ", true},
		{"Open questions", d.Questions, " ", false},
		{"Files " + pathGroupVerb[groupModified], paths[groupModified], ", ", true},
		{"Files " + pathGroupVerb[groupCreated], paths[groupCreated], ", ", true},
		{"Records", d.Records, "; ", true},
		{"Commands", d.Commands, "; ", false},
	}
	for g := groupRead; g < numPathGroups; g++ {
		lines = append(lines, line{"Files " + pathGroupVerb[g], paths[g], ", ", true})
	}
	var out []string
	for _, l := range lines {
		if len(l.items) == 0 {
			continue
		}
		n := min(len(l.items), maxKeyPointItems)
		if l.whole {
			n = 0
			size := 0
			for n < len(l.items) && (n == 0 || size+len(l.items[n]) <= maxKeyPointBytes) {
				size += len(l.items[n]) + len(l.sep)
				n++
			}
		}
		more := ""
		if n < len(l.items) {
			more = l.sep + "+" + itoa(len(l.items)-n) + " more"
		}
		out = append(out, l.label+": "+strings.Join(l.items[:n], l.sep)+more)
	}
	return out
}

// ParseKeyPoints reads the lists of a digest back from the lines of its
// [Digest.KeyPoints]: the path lists (every path, as the lines hold them
// whole), the commands and the errors; the "+N more" items are dropped,
// the other lines ignored (instructions and questions are better taken
// whole from where the caller keeps them). The rule-based summarizer folds
// a previous rule-based summary in this way, as lists rather than text.
func ParseKeyPoints(keyPoints []string) Digest {
	var d Digest
	lists := map[string]*[]string{"Commands": &d.Commands, "Errors": &d.Errors, "Records": &d.Records, "Exceptions raised": &d.Raised}
	for g, l := range d.pathLists() {
		lists["Files "+pathGroupVerb[g]] = l
	}
	for _, kp := range keyPoints {
		label, items, ok := strings.Cut(kp, ": ")
		l, known := lists[label]
		if !ok || !known {
			continue
		}
		sep := ", "
		if label == "Commands" || label == "Errors" || label == "Records" {
			sep = "; "
		}
		for _, it := range strings.Split(items, sep) {
			if it = strings.TrimSpace(it); it != "" && !(strings.HasPrefix(it, "+") && strings.HasSuffix(it, " more")) {
				*l = append(*l, it)
			}
		}
	}
	return d
}

// estimateTokens is the counter Render uses when none is given.
func estimateTokens(s string) int { return len(s)/3 + 1 }

// Render returns the digest as summary text that fits maxTokens as counted
// by count (len/3+1 when count is nil): RenderIndexed with no room beyond
// maxTokens for the file index.
func (d Digest) Render(maxTokens int, count func(string) int) string {
	return d.RenderIndexed(maxTokens, 0, count)
}

// RenderIndexed returns the digest as summary text that fits maxTokens
// plus, when the file index needs them, up to indexTokens more, as counted
// by count (len/3+1 when count is nil). It fills by priority, not by
// cutting the tail, so that paths and identifiers are the last to go:
//
//  1. the header line;
//  2. the file index: every path, grouped by what was done to them on one
//     line, each written whole as the call wrote it (paths of one
//     directory side by side, a path in several groups in the first only),
//     within maxTokens or, when indexTokens > 0, within indexTokens and
//     what maxTokens leaves beside a reserve for the records, instructions
//     and errors (up to a third of it), the records (identifiers tools
//     returned) and the names of the exceptions raised after the paths in
//     the same room; when
//     they do not all fit, the paths another path holds ("src" beside
//     "src/a.py") go first, then the oldest of each group, and a note says
//     how many are left out and that the recall tool finds them;
//  3. the records (the identifiers business tools returned), the names
//     of the exceptions raised, the entities (identifiers) not already
//     shown as paths, the
//     instructions, errors, commands (failed first) and open questions,
//     in short form (a command's head and status, an error's name, place
//     and head of message), each first within a share of the room left,
//     then in that order while they fit;
//  4. the previous summary, shortened to the room left (at most 30%);
//  5. the full forms of the items chosen, while they fit.
//
// The text exceeds maxTokens only by the tokens the index takes beyond its
// share of maxTokens, at most indexTokens. Each list is taken most recent
// first. When the text as a whole is over the budget (the parts' counts
// are an estimate), the full forms go back to short ones, the previous
// summary is halved, then the last items chosen are dropped. The text has
// one line per category:
//
//	Summary of 40 earlier messages (18 tool calls).
//	Previous summary: ...
//	Instructions: ...; ...
//	Errors: ValueError at foo.py:12: ...
//	Exceptions raised: ValueError, KeyError
//	Open questions: ...
//	Files modified: a.go | created: e.go | read: b.go c.go | searched: src | listed: pkg | tested: tests/test_x.py::test_y | run: repro.py | mentioned: d.go
//	Records: cancel_reservation: reservation HATHAU, HAT136, HAT039; ...
//	Commands: go test ./... (exit 1); ...
//	Entities: ...
//
// The result never exceeds maxTokens+indexTokens as counted by count;
// RenderIndexed returns "" only when not even the header fits maxTokens.
// Safe for concurrent use when count is.
func (d Digest) RenderIndexed(maxTokens, indexTokens int, count func(string) int) string {
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
	f := newDigestFit(d, maxTokens, count)
	f.used = count(header) + 1
	indexTokens = max(0, indexTokens)
	share := maxTokens
	if indexTokens > 0 {
		share -= f.reserve(maxTokens - f.used)
	}
	f.placeIndex(header, share+indexTokens)
	if indexTokens > 0 {
		// The identifiers tools returned and the exceptions raised share
		// the index's room.
		f.max = share + indexTokens
		f.fill(secRecords, 0)
		f.fill(secRaised, 0)
	}
	// The index grows the summary by what it takes beyond its share.
	f.max = maxTokens + min(indexTokens, max(0, f.used-share))
	room := f.max - f.used
	for _, r := range roundOne {
		f.fill(r.sec, int(r.share*float64(room)))
	}
	for _, sec := range roundTwo {
		f.fill(sec, 0)
	}
	f.placePrevious(d.Previous)
	f.upgrade()
	for i := 0; i < 3 && !f.done() && f.calibrate(header); i++ {
		f.dropPrevious()
		for _, sec := range roundTwo {
			f.fill(sec, 0)
		}
		f.placePrevious(d.Previous)
		f.upgrade()
	}
	return f.fit(header)
}

// reserve is the room Render keeps beside the index for the records,
// instructions and errors, in short form: what they take, at most a third
// of room.
func (f *digestFit) reserve(room int) int {
	need := 0
	for _, sec := range []int{secRecords, secRaised, secInstructions, secErrors} {
		if len(f.items[sec]) > 0 {
			need += f.count(sectionLabel[sec]+": ") + 1
		}
		for _, it := range f.items[sec] {
			if need >= room/3 {
				return room / 3
			}
			need += f.count(shortForm(sec, it)) + 1
		}
	}
	return min(need, room/3)
}

// placeIndex places the paths within limit tokens (see fillPaths), then,
// when some are left out, measures the text rendered so far (the sum of
// the parts' counts overestimates it) and adds more while they fit.
func (f *digestFit) placeIndex(header string, limit int) {
	if f.fillPaths(limit) {
		return
	}
	for i := 0; i < 3; i++ {
		slack := limit - f.count(f.text(header))
		if slack < 4 {
			return
		}
		f.used = limit - slack // the note included
		if f.addPaths(limit) {
			return
		}
	}
}

// calibrate sets the tokens used to those of the text rendered so far (the
// sum of the parts' counts overestimates them) and reports whether that
// leaves room worth handing out.
func (f *digestFit) calibrate(header string) bool {
	slack := f.max - f.count(f.text(header))
	if slack < 4 {
		return false
	}
	f.used = f.max - slack
	return true
}

// placePrevious (re)places the previous summary p, shortened to the room
// left, at most 30% of the budget.
func (f *digestFit) placePrevious(p string) {
	p = strings.TrimSpace(p)
	if p == "" {
		return
	}
	f.dropPrevious()
	room := min(f.max-f.used, int(0.3*float64(f.max))) - f.count("Previous summary: ") - 1
	f.prev = fitPrevious(p, room, f.count)
	if f.prev != "" {
		f.used += f.count("Previous summary: "+f.prev) + 1
	}
}

// dropPrevious takes the previous summary out.
func (f *digestFit) dropPrevious() {
	if f.prev != "" {
		f.used -= f.count("Previous summary: "+f.prev) + 1
		f.prev = ""
	}
}

// done reports whether every item is chosen in full form.
func (f *digestFit) done() bool {
	if chosen, all := f.pathCount(); chosen < all {
		return false
	}
	for sec := 0; sec < numSections; sec++ {
		if sec == secPaths {
			continue
		}
		if f.n[sec] < len(f.items[sec]) {
			return false
		}
		for _, full := range f.full[sec] {
			if !full {
				return false
			}
		}
	}
	return true
}

// fitPick is one item chosen (or put in full form): its section and
// index; for secPaths, k is the path group.
type fitPick struct{ sec, k int }

// digestFit is the state of Render: the items chosen per section (a
// prefix of each list) and the tokens they use.
type digestFit struct {
	items [numSections][]string   // the full forms (secPaths: unused)
	paths [numPathGroups][]string // the paths, by group
	n     [numSections]int        // items chosen per section
	full  [numSections][]bool     // per item chosen: shown in full form
	pathN [numPathGroups]int      // paths chosen per group
	spent [numSections]int        // tokens per section
	picks []fitPick               // the items chosen, in the order chosen
	ups   []fitPick               // the items put in full form, in order
	prev  string                  // the previous summary, shortened
	// noNote leaves out the note of the paths left out.
	noNote bool
	max    int
	count  func(string) int
	used   int // the tokens used, as the sum of the parts' counts
}

// newDigestFit returns the state of a render of d: the entities that are
// not paths of d, the other lists as they are.
func newDigestFit(d Digest, max int, count func(string) int) *digestFit {
	f := &digestFit{paths: withoutRepeats(d.paths()), max: max, count: count}
	f.items[secInstructions] = d.Instructions
	f.items[secErrors] = d.Errors
	f.items[secRaised] = d.Raised
	f.items[secQuestions] = d.Questions
	f.items[secCommands] = d.Commands
	f.items[secRecords] = distinctRecords(d.Records)
	isPath := map[string]bool{}
	for _, l := range f.paths {
		for _, p := range l {
			isPath[pathKey(p)] = true
		}
	}
	raised := map[string]bool{}
	for _, r := range d.Raised {
		raised[r] = true
	}
	for _, e := range d.Entities {
		if !isPath[pathKey(e)] && !raised[e] { // the Raised line shows those
			f.items[secEntities] = append(f.items[secEntities], e)
		}
	}
	return f
}

// form returns item k of section sec as shown.
func (f *digestFit) form(sec, k int) string {
	if f.full[sec][k] {
		return f.items[sec][k]
	}
	return shortForm(sec, f.items[sec][k])
}

// tryAdd adds the next item of section sec, in short form, when it fits
// the budget.
func (f *digestFit) tryAdd(sec int) bool {
	k := f.n[sec]
	cost := f.count(shortForm(sec, f.items[sec][k])) + 1
	if k == 0 {
		cost += f.count(sectionLabel[sec]+": ") + 1
	}
	if f.used+cost > f.max {
		return false
	}
	f.used += cost
	f.n[sec]++
	f.full[sec] = append(f.full[sec][:k], false)
	f.picks = append(f.picks, fitPick{sec, k})
	return true
}

// fill adds the next items of section sec while they fit, up to limit
// tokens for the section (0: no limit but the budget).
func (f *digestFit) fill(sec, limit int) {
	if limit <= 0 {
		limit = f.max
	}
	for f.n[sec] < len(f.items[sec]) {
		before := f.used
		if f.spent[sec] >= limit || !f.tryAdd(sec) {
			return
		}
		f.spent[sec] += f.used - before
	}
}

// pathCount returns the paths chosen and the paths there are.
func (f *digestFit) pathCount() (chosen, all int) {
	for g, l := range f.paths {
		chosen += f.pathN[g]
		all += len(l)
	}
	return chosen, all
}

// fillPaths adds every path when they fit within limit tokens and reports
// whether they did; else it leaves out the paths another path holds
// ([uncovered]) and tries again; else it adds, with room kept
// for the note of those left out, the paths by rank, the most recent of
// every group first, up to the first that does not fit.
func (f *digestFit) fillPaths(limit int) bool {
	used := f.used
	if f.addPaths(limit) {
		return true
	}
	f.picks, f.pathN, f.used = f.picks[:0], [numPathGroups]int{}, used
	f.paths = uncovered(f.paths)
	if f.addPaths(limit) {
		return true
	}
	f.picks, f.pathN, f.used = f.picks[:0], [numPathGroups]int{}, used
	note := f.noteCost()
	f.addPaths(limit - note)
	f.used += note
	return false
}

// noteCost is the cost of the note of the paths left out at its longest.
func (f *digestFit) noteCost() int {
	_, all := f.pathCount()
	return f.count(" | "+indexNote(all)) + 1
}

// addPaths adds paths by rank within limit tokens, from those chosen on,
// the paths of the calls first, then those the previous narrative
// mentions (the oldest), and reports whether all were added.
func (f *digestFit) addPaths(limit int) bool {
	for _, groups := range [][2]pathGroup{{0, groupMentioned}, {groupMentioned, numPathGroups}} {
		for rank := 0; ; rank++ {
			more := false
			for g := groups[0]; g < groups[1]; g++ {
				l := f.paths[g]
				if rank >= len(l) {
					continue
				}
				more = true
				if rank < f.pathN[g] {
					continue
				}
				cost := f.count(l[rank]) + 1
				if f.pathN[g] == 0 {
					cost += f.count(pathGroupVerb[g]+": ") + 2 // and "Files " or " | "
				}
				if f.used+cost > limit {
					return false
				}
				f.used += cost
				f.pathN[g]++
				f.picks = append(f.picks, fitPick{secPaths, int(g)})
			}
			if !more {
				break
			}
		}
	}
	return true
}

// upgrade puts the items chosen in full form, in the order of fullOrder,
// while they fit.
func (f *digestFit) upgrade() {
	for _, sec := range fullOrder {
		for k := 0; k < f.n[sec]; k++ {
			if f.full[sec][k] {
				continue
			}
			short, full := shortForm(sec, f.items[sec][k]), f.items[sec][k]
			if short == full {
				f.full[sec][k] = true
				continue
			}
			delta := f.count(full) - f.count(short)
			if f.used+delta > f.max {
				continue
			}
			f.used += delta
			f.full[sec][k] = true
			f.ups = append(f.ups, fitPick{sec, k})
		}
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
	for sec := 0; sec < numSections; sec++ {
		if sec == secPaths {
			f.writePaths(&b)
			continue
		}
		if f.n[sec] == 0 {
			continue
		}
		b.WriteString("\n")
		b.WriteString(sectionLabel[sec])
		b.WriteString(": ")
		for k := 0; k < f.n[sec]; k++ {
			if k > 0 {
				b.WriteString(sectionSep[sec])
			}
			b.WriteString(f.form(sec, k))
		}
	}
	return b.String()
}

// writePaths writes the line of the chosen paths, those of one directory
// side by side: "Files modified: a.go | read: b.go c.go | +3 more paths
// (recall finds them by name)".
func (f *digestFit) writePaths(b *strings.Builder) {
	chosen, all := f.pathCount()
	note := ""
	if chosen < all && !f.noNote {
		note = indexNote(all - chosen)
	}
	first := true
	for g, l := range f.paths {
		shown := l[:f.pathN[g]]
		if pathGroup(g) == groupMentioned && f.prev != "" {
			// Those the previous summary shows need no repeating.
			shown = make([]string, 0, len(shown))
			for _, p := range l[:f.pathN[g]] {
				if !strings.Contains(f.prev, p) {
					shown = append(shown, p)
				}
			}
		}
		if len(shown) == 0 {
			continue
		}
		if first {
			b.WriteString("\nFiles ")
		} else {
			b.WriteString(" | ")
		}
		first = false
		b.WriteString(pathGroupVerb[g])
		b.WriteString(": ")
		b.WriteString(strings.Join(byDirectory(shown), indexSep))
	}
	if first && note != "" {
		b.WriteString("\nFiles: " + note)
		return
	}
	if note != "" {
		b.WriteString(" | " + note)
	}
}

// fit returns the text, checked whole against the budget: the sum of the
// parts' counts is an estimate, so the full forms go back to short ones
// (the last first), then the previous summary is halved, then the last
// (least important) picks are dropped, until it fits; "" when nothing
// does.
func (f *digestFit) fit(header string) string {
	out := f.text(header)
	for f.count(out) > f.max {
		switch {
		case len(f.ups) > 0:
			u := f.ups[len(f.ups)-1]
			f.ups = f.ups[:len(f.ups)-1]
			f.full[u.sec][u.k] = false
		case f.prev != "":
			shorter := shortenWords(f.prev, len(f.prev)/2)
			if len(shorter) >= len(f.prev) || len(shorter) < 16 {
				shorter = ""
			}
			f.prev = shorter
		case len(f.picks) > 0:
			last := f.picks[len(f.picks)-1]
			f.picks = f.picks[:len(f.picks)-1]
			if last.sec == secPaths {
				f.pathN[last.k]--
			} else {
				f.n[last.sec]--
				f.full[last.sec] = f.full[last.sec][:f.n[last.sec]]
			}
		case !f.noNote:
			f.noNote = true
		default:
			return ""
		}
		out = f.text(header)
	}
	return out
}

// fitPrevious shortens the previous summary to about room tokens, at a
// word boundary with "…"; "" when there is no room worth using.
func fitPrevious(p string, room int, count func(string) int) string {
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
	c := msg.HeadBytes(s, n-len("…"))
	if i := strings.LastIndexByte(c, ' '); i > len(c)*2/3 {
		c = c[:i]
	}
	return strings.TrimRight(c, " ") + "…"
}

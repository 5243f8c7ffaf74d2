package extractors

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/agentcompact/compact/internal/shellwords"
)

// searchOpts describes a search command as far as it is known.
type searchOpts struct {
	tool      string // grep, rg, find, ls, search_dir, ...
	pattern   string
	paths     []string // where it searched
	filesOnly bool     // output lists file names (grep -l, find, find_file)
	counts    bool     // grep -c
	multi     bool     // output lines start with a file name
	context   bool     // -A/-B/-C: context lines are printed too
}

var (
	sweFoundRe   = regexp.MustCompile(`^Found (\d+) matches for "(.*)" in (.*?):?$`)
	sweNoMatchRe = regexp.MustCompile(`^No matches found for "(.*)" in (.*)$`)
	sweDirHitRe  = regexp.MustCompile(`^(\S.*?) \((\d+) matches\)$`)
	sweLineHitRe = regexp.MustCompile(`^Line (\d+):`)
	lsLongRe     = regexp.MustCompile(`^[-dlcbps][-rwxsStT@+.]{9}[@+.]?\s`)
)

// maxTopFiles bounds the files listed in a search's "Top" fact.
const maxTopFiles = 5

// searchSummary summarizes a search output: pattern, match and file counts,
// top files.
func searchSummary(tool string, o searchOpts, env envelope) ToolSummary {
	s := ToolSummary{Tool: tool, Status: StatusSuccess, Metadata: map[string]string{MetaKind: KindSearch}}
	body := env.body
	if o.filesOnly && isListing(o.tool) {
		// Listings are split into entries (listEntries): redact first, as a
		// whole, so that neither a value split from its key ("password",
		// "=", value) nor a private key block split into lines survives
		// as entries that no longer look secret.
		body = Redact(body)
	}
	if o.pattern != "" {
		s.KeyFacts = append(s.KeyFacts, "Pattern: "+shorten(o.pattern, 80))
		s.Metadata[MetaPattern] = o.pattern
	}
	if len(o.paths) > 0 {
		s.KeyFacts = append(s.KeyFacts, "In: "+shorten(strings.Join(o.paths, ", "), 120))
	}
	t := searchTally{o: o, counts: map[string]int{}, sweTotal: -1}
	eachLine(body, func(i int, line string) bool { return t.line(&s, i, line) })
	if t.sweTotal >= 0 {
		t.matches = t.sweTotal
	}
	files := len(t.order)
	if env.hasExit && env.exit > 1 || env.timedOut {
		s.Status = StatusError
		if e := firstLine(body); e != "" {
			s.KeyFacts = append(s.KeyFacts, "Error: "+shorten(e, 160))
			s.Metadata[MetaError] = e
		}
		return s
	}
	switch {
	case t.matches == 0 && files == 0:
		s.KeyFacts = append(s.KeyFacts, "No matches")
	case o.filesOnly && t.sweTotal < 0:
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Found: %d %s", files, plural(files, "path", "paths")))
	case files > 0:
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Matches: %d in %d %s", t.matches, files, plural(files, "file", "files")))
	default:
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Matches: %d", t.matches))
	}
	if files > 0 {
		top := topFiles(t.order, t.counts, maxTopFiles, !o.filesOnly || t.sweTotal >= 0)
		s.KeyFacts = append(s.KeyFacts, "Top: "+top)
	}
	if env.elided > 0 {
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("%d chars elided", env.elided))
		s.Status = StatusPartial
	}
	s.Metadata[MetaLines] = itoa(t.lines)
	s.Metadata[MetaBytes] = itoa(len(body))
	return s
}

// searchTally counts the matches and files of a search output, line by
// line.
type searchTally struct {
	o        searchOpts
	counts   map[string]int // matches per file
	order    []string       // the files, first seen first
	matches  int
	lines    int // non-blank lines
	sweTotal int // the total of SWE-agent's "Found N matches" header, -1 without one
}

// add counts n matches in file.
func (t *searchTally) add(file string, n int) {
	if _, ok := t.counts[file]; !ok {
		t.order = append(t.order, file)
	}
	t.counts[file] += n
}

// line reads line i of the output; the pattern and place of a SWE-agent
// header go to s. It returns false when the rest of the output tells
// nothing more.
func (t *searchTally) line(s *ToolSummary, i int, line string) bool {
	line = strings.TrimRight(line, "\r")
	if strings.TrimSpace(line) == "" || line == "--" {
		return true
	}
	t.lines++
	if len(line) > 4096 {
		line = line[:4096]
	}
	if i == 0 {
		if header, more := t.sweHeader(s, line); header {
			return more
		}
	}
	if t.sweTotal >= 0 {
		t.sweLine(line)
		return true
	}
	switch {
	case t.o.filesOnly:
		for _, e := range listEntries(t.o.tool, line) {
			t.add(e, 1)
			t.matches++
		}
	case t.o.counts:
		t.countLine(line)
	case t.o.multi:
		file, isMatch := grepFile(line)
		switch {
		case file == "" && isBarePath(line):
			t.add(strings.TrimSpace(line), 1) // grep -l, Claude Code's Grep, Moatless' code sections
			t.matches++
		case file == "":
			t.matches++
		case isMatch:
			t.add(file, 1)
			t.matches++
		default:
			t.add(file, 0)
		}
	default:
		// Single file: "12:text" matches, "12-text" context lines.
		if _, rest, ok := cutLineNo(line); ok && strings.HasPrefix(rest, "-") {
			return true
		}
		if t.o.context && isLiteral(t.o.pattern) && !strings.Contains(line, t.o.pattern) {
			return true // a context line
		}
		t.matches++
	}
	return true
}

// sweHeader reads the first line of a SWE-agent search_dir, search_file
// or find_file output ("Found N matches for "p" in d:", "No matches found
// for ..."). It reports whether the line is such a header and whether the
// lines after it are worth reading.
func (t *searchTally) sweHeader(s *ToolSummary, line string) (header, more bool) {
	if m := sweFoundRe.FindStringSubmatch(line); m != nil {
		t.sweTotal, _ = strconv.Atoi(m[1])
		if t.o.pattern == "" {
			s.KeyFacts = append(s.KeyFacts, "Pattern: "+shorten(m[2], 80))
			s.Metadata[MetaPattern] = m[2]
		}
		if len(t.o.paths) == 0 {
			s.KeyFacts = append(s.KeyFacts, "In: "+shorten(m[3], 120))
		}
		return true, true
	}
	if sweNoMatchRe.MatchString(line) {
		t.sweTotal = 0
		return true, false
	}
	return false, true
}

// sweLine reads a line after a SWE-agent header: "file (N matches)",
// "Line N: text" or a file name.
func (t *searchTally) sweLine(line string) {
	if strings.HasPrefix(line, "End of matches") {
		return
	}
	if m := sweDirHitRe.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[2])
		t.add(m[1], n)
		return
	}
	if sweLineHitRe.MatchString(line) {
		t.matches++
		return
	}
	t.add(strings.TrimSpace(line), 1)
}

// countLine reads a line of grep -c: "file:N" (or "N" for one file).
func (t *searchTally) countLine(line string) {
	if k := strings.LastIndexByte(line, ':'); k > 0 {
		n, err := strconv.Atoi(line[k+1:])
		if err == nil {
			if n > 0 {
				t.add(line[:k], n)
			}
			t.matches += n
			return
		}
	}
	t.matches++
}

// grepFile splits a grep -r/-H line "path:12:text", "path:text" (match) or
// "path-12-text" (context) and returns the path and whether it is a match.
func grepFile(line string) (string, bool) {
	// path:12:text or path-12-text: find the first ":<digits>:" or "-<digits>-".
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != ':' && c != '-' {
			continue
		}
		j := i + 1
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j > i+1 && j < len(line) && line[j] == c {
			return line[:i], c == ':'
		}
		if c == ':' {
			// path:text without line numbers.
			if i > 0 && !strings.ContainsAny(line[:i], " \t") {
				return line[:i], true
			}
			return "", true
		}
	}
	return "", true
}

// cutLineNo splits "12:rest" / "12-rest" into the number and ":rest"/"-rest".
func cutLineNo(line string) (int, string, bool) {
	j := 0
	n := 0
	for j < len(line) && line[j] >= '0' && line[j] <= '9' && j < 9 {
		n = n*10 + int(line[j]-'0')
		j++
	}
	if j == 0 || j >= len(line) || (line[j] != ':' && line[j] != '-') {
		return 0, line, false
	}
	return n, line[j:], true
}

// topFiles lists the files with the most matches: "a.py (5), b.py (3)".
func topFiles(order []string, counts map[string]int, n int, withCounts bool) string {
	files := append([]string(nil), order...)
	if withCounts {
		sort.SliceStable(files, func(i, j int) bool { return counts[files[i]] > counts[files[j]] })
	}
	more := 0
	if len(files) > n {
		more = len(files) - n
		files = files[:n]
	}
	parts := make([]string, len(files))
	for i, f := range files {
		if withCounts && counts[f] > 0 {
			parts[i] = fmt.Sprintf("%s (%d)", shorten(f, 80), counts[f])
		} else {
			parts[i] = shorten(f, 80)
		}
	}
	out := strings.Join(parts, ", ")
	if more > 0 {
		out += fmt.Sprintf(", +%d more", more)
	}
	return out
}

// searchExtract is the extractor of search tools (grep, rg, search_dir,
// search_file, find_file, find, glob, ls, ...). It reads the pattern and
// directory from the arguments and counts matches and files in the output.
func searchExtract(call Call, output string) ToolSummary {
	a := parseArgs(call.Arguments)
	env := unwrap(output)
	name := normName(call.Name)
	o := searchOpts{tool: name, pattern: a.str(patternKeys...)}
	if d := a.str(dirKeys...); d != "" && d != o.pattern {
		o.paths = []string{d}
	}
	if a.m == nil && a.raw != "" && o.pattern == "" {
		o.pattern = firstLine(a.raw)
	}
	switch name {
	case "find_file", "find", "glob", "list_files", "list_dir", "ls", "file_search":
		o.filesOnly = true
	default:
		o.multi = true
	}
	if cmd := a.str("command"); cmd != "" && a.str(patternKeys...) == "" {
		// SWE-agent "search_dir term [dir]" / "find_file name [dir]".
		w := shellwords.Parse(cmd)
		if len(w) > 0 && len(w[0].Args) >= 2 {
			o.pattern = w[0].Args[1]
			if len(w[0].Args) >= 3 {
				o.paths = []string{w[0].Args[2]}
			}
		}
	}
	s := searchSummary(call.Name, o, env)
	if env.hasExit && env.exit > 1 || env.timedOut {
		s.Status = StatusError
	}
	addMeta(s.Metadata, searchPathsKey(o), o.paths...)
	return s
}

// searchPathsKey is the metadata key of the paths a search looked in:
// [MetaFilesListed] for a listing (ls, tree, du, list_dir, a find without
// a name test), else [MetaFilesSearched].
func searchPathsKey(o searchOpts) string {
	switch o.tool {
	case "ls", "dir", "tree", "du", "list_files", "list_dir":
		return MetaFilesListed
	case "find", "fd":
		if o.pattern == "" {
			return MetaFilesListed
		}
	}
	return MetaFilesSearched
}

// isListing reports whether tool lists directories (ls, dir, tree): its
// output lines are split into entries by listEntries.
func isListing(tool string) bool {
	return tool == "ls" || tool == "dir" || tool == "tree"
}

// listEntries returns the entries a listing line names: ls -l lines give
// their last field, ls column output is split, "total N" and ls's
// "dir:" headers give none.
func listEntries(tool, line string) []string {
	t := strings.TrimSpace(line)
	if !isListing(tool) {
		return []string{t}
	}
	if strings.HasPrefix(t, "total ") && isDigits(strings.TrimSpace(t[6:])) || strings.HasSuffix(t, ":") {
		return nil
	}
	if lsLongRe.MatchString(t) {
		f := strings.Fields(t)
		if len(f) >= 9 {
			name := strings.Join(f[8:], " ")
			if i := strings.Index(name, " -> "); i > 0 {
				name = name[:i]
			}
			return []string{name}
		}
	}
	if strings.Contains(t, "\t") || strings.Contains(t, "  ") {
		return strings.Fields(t)
	}
	return []string{t}
}

// isLiteral reports whether a grep pattern has no regexp syntax.
func isLiteral(p string) bool {
	return p != "" && !strings.ContainsAny(p, `\.^$*+?()[]{}|`)
}

// isBarePath reports whether line is a file path alone: no blanks, a
// '/' or a file extension, not a fence or a tag.
func isBarePath(line string) bool {
	p := strings.TrimSpace(line)
	if len(p) < 3 || len(p) > 300 || strings.ContainsAny(p, " \t`<>\"'|*") || strings.HasSuffix(p, ":") {
		return false
	}
	if strings.Contains(p, "/") {
		return true
	}
	dot := strings.LastIndexByte(p, '.')
	if dot <= 0 || len(p)-dot-1 < 1 || len(p)-dot-1 > 6 {
		return false
	}
	for _, c := range p[dot+1:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

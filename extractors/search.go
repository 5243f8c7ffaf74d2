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
	counts := map[string]int{}
	var order []string
	add := func(file string, n int) {
		if _, ok := counts[file]; !ok {
			order = append(order, file)
		}
		counts[file] += n
	}
	matches, lines := 0, 0
	sweTotal := -1
	eachLine(body, func(i int, line string) bool {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || line == "--" {
			return true
		}
		lines++
		if len(line) > 4096 {
			line = line[:4096]
		}
		// SWE-agent search_dir / search_file / find_file.
		if i == 0 {
			if m := sweFoundRe.FindStringSubmatch(line); m != nil {
				sweTotal, _ = strconv.Atoi(m[1])
				if o.pattern == "" {
					s.KeyFacts = append(s.KeyFacts, "Pattern: "+shorten(m[2], 80))
					s.Metadata[MetaPattern] = m[2]
				}
				if len(o.paths) == 0 {
					s.KeyFacts = append(s.KeyFacts, "In: "+shorten(m[3], 120))
				}
				return true
			}
			if m := sweNoMatchRe.FindStringSubmatch(line); m != nil {
				sweTotal = 0
				return false
			}
		}
		if sweTotal >= 0 {
			if strings.HasPrefix(line, "End of matches") {
				return true
			}
			if m := sweDirHitRe.FindStringSubmatch(line); m != nil {
				n, _ := strconv.Atoi(m[2])
				add(m[1], n)
				return true
			}
			if sweLineHitRe.MatchString(line) {
				matches++
				return true
			}
			add(strings.TrimSpace(line), 1)
			return true
		}
		switch {
		case o.filesOnly:
			for _, e := range listEntries(o.tool, line) {
				add(e, 1)
				matches++
			}
		case o.counts:
			if k := strings.LastIndexByte(line, ':'); k > 0 {
				n, err := strconv.Atoi(line[k+1:])
				if err == nil {
					if n > 0 {
						add(line[:k], n)
					}
					matches += n
					return true
				}
			}
			matches++
		case o.multi:
			file, isMatch := grepFile(line)
			if file != "" {
				if isMatch {
					add(file, 1)
					matches++
				} else {
					add(file, 0)
				}
			} else {
				matches++
			}
		default:
			// Single file: "12:text" matches, "12-text" context lines.
			if _, rest, ok := cutLineNo(line); ok && strings.HasPrefix(rest, "-") {
				return true
			}
			if o.context && isLiteral(o.pattern) && !strings.Contains(line, o.pattern) {
				return true // a context line
			}
			matches++
		}
		return true
	})
	if sweTotal >= 0 && matches == 0 && len(counts) == 0 {
		matches = sweTotal
	} else if sweTotal >= 0 {
		matches = sweTotal
	}
	files := len(order)
	if env.hasExit && env.exit > 1 || env.timedOut {
		s.Status = StatusError
		if e := firstLine(body); e != "" {
			s.KeyFacts = append(s.KeyFacts, "Error: "+shorten(e, 160))
			s.Metadata[MetaError] = e
		}
		return s
	}
	switch {
	case matches == 0 && files == 0:
		s.KeyFacts = append(s.KeyFacts, "No matches")
	case o.filesOnly && sweTotal < 0:
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Found: %d %s", files, plural(files, "path", "paths")))
	case files > 0:
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Matches: %d in %d %s", matches, files, plural(files, "file", "files")))
	default:
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Matches: %d", matches))
	}
	if files > 0 {
		top := topFiles(order, counts, maxTopFiles, !o.filesOnly || sweTotal >= 0)
		s.KeyFacts = append(s.KeyFacts, "Top: "+top)
	}
	if env.elided > 0 {
		s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("%d chars elided", env.elided))
		s.Status = StatusPartial
	}
	s.Metadata[MetaLines] = itoa(lines)
	s.Metadata[MetaBytes] = itoa(len(body))
	return s
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
	return s
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

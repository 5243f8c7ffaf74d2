package extractors

import (
	"fmt"
	"regexp"
	"strings"
)

var (
	diffFileRe   = regexp.MustCompile(`^diff --git a/(\S+) b/(\S+)`)
	statLineRe   = regexp.MustCompile(`^\s*(\S.*?)\s+\|\s+(\d+|Bin)`)
	statTotalRe  = regexp.MustCompile(`^\s*(\d+) files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?`)
	logCommitRe  = regexp.MustCompile(`^commit ([0-9a-f]{7,40})`)
	logOneLineRe = regexp.MustCompile(`^(?:\* )?([0-9a-f]{7,12}) (.+)$`)
	statusModRe  = regexp.MustCompile(`^\s*(modified|new file|deleted|renamed|both modified):\s+(.+)$`)
	porcelainRe  = regexp.MustCompile(`^([ MADRCU?!]{2}) (.+)$`)
	branchRe     = regexp.MustCompile(`^On branch (\S+)`)
)

// diffStat is a unified diff's per-file summary.
type diffStat struct {
	files        []string
	add, del     map[string]int
	totalAdd     int
	totalDel     int
	hasDiff      bool
	statFiles    int // from a --stat total line
	statFileList []string
}

// scanDiff reads a unified diff (git diff, git show, a patch) or a
// --stat listing in one pass.
func scanDiff(body string) diffStat {
	d := diffStat{add: map[string]int{}, del: map[string]int{}}
	cur := ""
	eachLine(body, func(_ int, line string) bool {
		if len(line) == 0 {
			return true
		}
		switch line[0] {
		case 'd':
			if m := diffFileRe.FindStringSubmatch(line); m != nil {
				cur = m[2]
				d.files = append(d.files, cur)
				d.hasDiff = true
			}
		case '+':
			if !strings.HasPrefix(line, "+++ ") && cur != "" {
				d.add[cur]++
				d.totalAdd++
			}
		case '-':
			if !strings.HasPrefix(line, "--- ") && cur != "" {
				d.del[cur]++
				d.totalDel++
			}
		case ' ':
			if strings.Contains(line, "|") && !d.hasDiff {
				if m := statLineRe.FindStringSubmatch(line); m != nil {
					d.statFileList = append(d.statFileList, m[1])
				}
			} else if strings.Contains(line, "changed") {
				if m := statTotalRe.FindStringSubmatch(line); m != nil {
					fmt.Sscan(m[1], &d.statFiles)
					if m[2] != "" {
						fmt.Sscan(m[2], &d.totalAdd)
					}
					if m[3] != "" {
						fmt.Sscan(m[3], &d.totalDel)
					}
				}
			}
		}
		return true
	})
	return d
}

// facts renders a diff: "Diff: 2 files, +12 -3" and the files.
func (d diffStat) facts() []string {
	switch {
	case d.hasDiff:
		out := []string{fmt.Sprintf("Diff: %d %s, +%d -%d", len(d.files), plural(len(d.files), "file", "files"), d.totalAdd, d.totalDel)}
		parts := make([]string, 0, len(d.files))
		for i, f := range d.files {
			if i == maxTopFiles {
				parts = append(parts, fmt.Sprintf("+%d more", len(d.files)-i))
				break
			}
			parts = append(parts, fmt.Sprintf("%s (+%d -%d)", f, d.add[f], d.del[f]))
		}
		return append(out, "Files: "+strings.Join(parts, ", "))
	case d.statFiles > 0 || len(d.statFileList) > 0:
		n := d.statFiles
		if n == 0 {
			n = len(d.statFileList)
		}
		out := []string{fmt.Sprintf("Diff: %d %s, +%d -%d", n, plural(n, "file", "files"), d.totalAdd, d.totalDel)}
		if len(d.statFileList) > 0 {
			out = append(out, "Files: "+topFiles(d.statFileList, nil, maxTopFiles, false))
		}
		return out
	}
	return nil
}

// gitSummary summarizes the output of a git command; sub is the git
// subcommand ("diff", "log", "status", "show", ...), "" when unknown.
func gitSummary(tool, sub string, env envelope) ToolSummary {
	s := ToolSummary{Tool: tool, Status: StatusSuccess, Metadata: map[string]string{MetaKind: KindGit}}
	body := env.body
	d := scanDiff(body)
	if f := d.facts(); f != nil {
		s.KeyFacts = append(s.KeyFacts, f...)
		if d.hasDiff {
			s.Metadata[MetaFilesModified] = strings.Join(d.files, "\n")
		}
	}
	if sub == "log" || sub == "" && !d.hasDiff {
		commits := 0
		latest := ""
		eachLine(body, func(_ int, line string) bool {
			if m := logCommitRe.FindStringSubmatch(line); m != nil {
				commits++
			} else if sub == "log" {
				if m := logOneLineRe.FindStringSubmatch(line); m != nil && !strings.HasPrefix(line, "commit ") {
					commits++
					if latest == "" {
						latest = m[1] + " " + m[2]
					}
				}
			}
			if latest == "" && commits > 0 && strings.HasPrefix(line, "    ") && strings.TrimSpace(line) != "" {
				latest = strings.TrimSpace(line)
			}
			return true
		})
		if commits > 0 {
			s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Commits: %d", commits))
			if latest != "" {
				s.KeyFacts = append(s.KeyFacts, "Latest: "+shorten(latest, 100))
			}
		}
	}
	if sub == "status" || sub == "" && !d.hasDiff {
		var changed []string
		branch := ""
		eachLine(body, func(_ int, line string) bool {
			if m := branchRe.FindStringSubmatch(line); m != nil {
				branch = m[1]
			} else if m := statusModRe.FindStringSubmatch(line); m != nil {
				changed = append(changed, m[2])
			} else if sub == "status" {
				if m := porcelainRe.FindStringSubmatch(line); m != nil {
					changed = append(changed, m[2])
				}
			}
			return true
		})
		if branch != "" {
			s.KeyFacts = append(s.KeyFacts, "Branch: "+branch)
		}
		if len(changed) > 0 {
			s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Changed: %d (%s)", len(changed), topFiles(changed, nil, maxTopFiles, false)))
		}
	}
	if len(s.KeyFacts) == 0 {
		if strings.TrimSpace(body) == "" {
			s.KeyFacts = append(s.KeyFacts, "no output")
		} else {
			s.KeyFacts = append(s.KeyFacts, fmt.Sprintf("Output: %d lines", CountLines(body)))
			if l := firstLine(body); l != "" {
				s.KeyFacts = append(s.KeyFacts, "First: "+shorten(l, 120))
			}
		}
	}
	// git reports failures first ("fatal: ...", "error: ..."); a diff's
	// content is not looked at.
	if e := errorSummary(body[:min(len(body), 4096)]); e != "" && (strings.HasPrefix(e, "fatal") || strings.HasPrefix(e, "error")) {
		s.Status = StatusError
		s.KeyFacts = append(s.KeyFacts, "Error: "+shorten(e, 160))
		s.Metadata[MetaError] = e
	}
	return s
}

// gitExtract is the extractor of git tools and of submissions that print a
// diff (SWE-agent's submit): diff stat, log, status.
func gitExtract(call Call, output string) ToolSummary {
	a := parseArgs(call.Arguments)
	env := unwrap(output)
	sub := ""
	if cmd := a.str("command", "subcommand", "args"); cmd != "" {
		w := strings.Fields(cmd)
		if len(w) > 0 && w[0] == "git" {
			w = w[1:]
		}
		if len(w) > 0 {
			sub = w[0]
		}
	}
	s := gitSummary(call.Name, sub, env)
	if env.hasExit && env.exit != 0 {
		s.Status = StatusError
		s.KeyFacts = append([]string{"exit " + itoa(env.exit)}, s.KeyFacts...)
		s.Metadata[MetaExitCode] = itoa(env.exit)
	}
	return s
}

package extractors

import (
	"regexp"
	"strconv"
	"strings"
)

// RecallToolName is the name of the recall tool (package recall): the
// tool an agent calls with a compaction marker's ref to get an original
// back, or with words to search the compacted originals.
const RecallToolName = "recall"

// The formats of the recall tool's answers. Package recall writes its
// answers with them and the recall built-in ([Default] registers it under
// [RecallToolName]) recognizes an answer from its first line, so that a
// recall answer is later masked back to one short line: recalling does not
// grow the context for good. Each is a [fmt] format.
const (
	// RecallPageHeader is the first line of an answer holding an original
	// (or one page of it): the ref id, the first and last line shown
	// (1-based, inclusive; "0-0" for an empty original), the original's
	// line count and what the original is ("tool read_file", "user",
	// "assistant", ...). The numbered lines follow, one per line as
	// "N: text".
	//
	//	ref:k3f2a9qx lines 1-120 of 300 (tool read_file):
	RecallPageHeader = "ref:%s lines %d-%d of %d (%s):"
	// RecallSearchHeader is the first line of a search answer: the query as
	// searched (one line, at most a few hundred bytes), how many originals
	// the answer shows, how many matched, and "+" when more may match than
	// were read. The hits follow, best first, each a [RecallHitHeader] line
	// and its numbered snippet lines.
	//
	//	search for "helper17(": 2 of 2 matching originals, best first:
	RecallSearchHeader = `search for "%s": %d of %d%s matching originals, best first:`
	// RecallHitHeader starts one hit of a search answer: the ref id, the
	// lines of the snippet, the original's line count, what the original
	// is, and a note on other matching lines ("" or "; also matching lines
	// 97, 130 (+12 more)").
	//
	//	ref:k3f2a9qx lines 40-42 of 300 (tool read_file); also matching lines 97:
	RecallHitHeader = "ref:%s lines %d-%d of %d (%s)%s:"
	// RecallNotePrefix starts every one-line answer of the recall tool (an
	// unknown ref, no match, nothing compacted yet, ...).
	RecallNotePrefix = "recall: "
)

// recallRefsMax is how many refs a search answer's summary lists.
const recallRefsMax = 8

var (
	recallPageRE   = regexp.MustCompile(`^ref:([A-Za-z0-9_.-]+) lines (\d+)-(\d+) of (\d+) \((.*)\):$`)
	recallSearchRE = regexp.MustCompile(`^search for "(.*)": (\d+) of (\d+)(\+?) matching originals, best first:$`)
	recallHitRE    = regexp.MustCompile(`^ref:([A-Za-z0-9_.-]+) lines \d+-\d+ of \d+ \(`)
)

// recallFirstLine returns the first line of s, looking at most at its first
// 4 KiB (a header is far shorter).
func recallFirstLine(s string) string {
	if len(s) > 4<<10 {
		s = s[:4<<10]
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSuffix(s, "\r")
}

// IsRecallAnswer reports whether text is an answer of the recall tool
// holding recalled text: its first line is a [RecallPageHeader] or a
// [RecallSearchHeader]. The recall tool leaves such originals out of its
// searches (they repeat originals it holds already).
func IsRecallAnswer(text string) bool {
	first := recallFirstLine(text)
	if !strings.HasPrefix(first, "ref:") && !strings.HasPrefix(first, "search for ") {
		return false
	}
	return recallPageRE.MatchString(first) || recallSearchRE.MatchString(first)
}

// recallExtract is the built-in extractor of the recall tool's answers.
// A page of an original becomes "ref:ID lines A-B of N" and what the
// original is; a search answer its query, its counts and the refs it
// found; a one-line answer the line itself. Any other output goes to the
// generic fallback.
func recallExtract(call Call, output string) ToolSummary {
	first := recallFirstLine(output)
	if m := recallPageRE.FindStringSubmatch(first); m != nil {
		return ToolSummary{
			Tool:   call.Name,
			Status: StatusSuccess,
			KeyFacts: []string{
				"ref:" + m[1] + " lines " + m[2] + "-" + m[3] + " of " + m[4],
				shorten(m[5], 80),
			},
			Metadata: map[string]string{MetaKind: KindOther, MetaBytes: itoa(len(output))},
		}
	}
	if m := recallSearchRE.FindStringSubmatch(first); m != nil {
		return recallSearchSummary(call, output, m)
	}
	if strings.HasPrefix(first, RecallNotePrefix) && len(first) == len(strings.TrimRight(output, "\r\n")) {
		return ToolSummary{
			Tool:     call.Name,
			Status:   StatusSuccess,
			KeyFacts: []string{recallNoteFact(first)},
			Metadata: map[string]string{MetaKind: KindOther, MetaBytes: itoa(len(output))},
		}
	}
	return fallbackExtract(call, output)
}

// recallNoteFact is the fact of a one-line answer: its first clause (up
// to "; "), shortened.
func recallNoteFact(line string) string {
	line = strings.TrimPrefix(line, RecallNotePrefix)
	if i := strings.Index(line, "; "); i > 0 {
		line = line[:i]
	}
	return shorten(line, 120)
}

// recallSearchSummary is the summary of a search answer whose header m
// matched: the query, the counts and the refs of the hits.
func recallSearchSummary(call Call, output string, m []string) ToolSummary {
	var refs []string
	n := 0
	rest := ""
	if i := strings.IndexByte(output, '\n'); i >= 0 {
		rest = output[i+1:]
	}
	for rest != "" {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		if !strings.HasPrefix(line, "ref:") {
			continue
		}
		if h := recallHitRE.FindStringSubmatch(line); h != nil {
			n++
			if len(refs) < recallRefsMax {
				refs = append(refs, "ref:"+h[1])
			}
		}
	}
	facts := []string{`search "` + shorten(m[1], 200) + `"`, "shown " + m[2] + " of " + m[3] + m[4] + " matching"}
	if len(refs) > 0 {
		f := strings.Join(refs, ", ")
		if n > len(refs) {
			f += " (+" + strconv.Itoa(n-len(refs)) + " more)"
		}
		facts = append(facts, f)
	}
	return ToolSummary{
		Tool:     call.Name,
		Status:   StatusSuccess,
		KeyFacts: facts,
		Metadata: map[string]string{MetaKind: KindSearch, MetaPattern: m[1], MetaBytes: itoa(len(output))},
	}
}

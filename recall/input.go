package recall

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentcompact/compact/internal/refid"
	"github.com/agentcompact/compact/store"
)

// request is one parsed input: the ref form (ref set), the search form
// (words set), or a one-line answer needing no source (note set).
type request struct {
	note string // the answer, when the input alone decides it

	ref      string // the ref id asked for
	hasRange bool   // "lines A-B" or "lines A" given
	from, to int    // the lines asked for; to 0: to the end

	query     string   // the query as searched: cleaned, cut, blanks collapsed
	words     []string // its distinct words, at most MaxQueryWords
	queryCut  bool     // the query was cut to MaxQueryBytes
	wordsCut  bool     // it had more than MaxQueryWords distinct words
	phraseSet bool     // the query has several words: search and rank it as a phrase
}

// op names what the request does, for errors and logs.
func (r request) op() string {
	if r.ref != "" {
		return "read an original"
	}
	return "search the originals"
}

// maxUnwrapBytes bounds the inputs parse tries to read as JSON.
const maxUnwrapBytes = 64 << 10

// maxRefBytes bounds a ref id looked up in the source; longer ones are
// unknown without a look-up.
const maxRefBytes = 64

// rangeRE reads what may follow a ref: "lines A-B", "lines A", "line A",
// with "-", "–", "—", ".." or "to" between the numbers, leading commas or
// parentheses and, so that a copied hit header works, a trailing "of N"
// and "(what)".
var rangeRE = regexp.MustCompile(`(?i)^[\s,;:(\[]*lines?\s*:?\s*(\d{1,12})(?:\s*(?:-|–|—|\.\.|to)\s*(\d{1,12}))?(?:\s+of\s+\d{1,12})?(?:\s*\([^\n]*\))?[\s:;,.)\]]*$`)

// parse reads an input: the ref form when it starts with "ref:" (in any
// case), the search form otherwise.
func parse(input string) request {
	s := unwrap(input)
	if s == "" {
		return request{note: answerEmpty}
	}
	if len(s) >= len(refid.Prefix) && strings.EqualFold(s[:len(refid.Prefix)], refid.Prefix) {
		return parseRef(s[len(refid.Prefix):])
	}
	return parseQuery(s)
}

// unwrap trims the input and takes it out of the wrappers models put
// around it: a JSON string, a JSON object with one string field (such as
// {"query": "..."}), and one pair of matching quotes or backticks.
func unwrap(input string) string {
	s := strings.TrimSpace(input)
	if len(s) >= 2 && len(s) <= maxUnwrapBytes {
		switch s[0] {
		case '"':
			var str string
			if json.Unmarshal([]byte(s), &str) == nil {
				s = strings.TrimSpace(str)
			}
		case '{':
			var m map[string]json.RawMessage
			if json.Unmarshal([]byte(s), &m) == nil && len(m) == 1 {
				for _, v := range m {
					var str string
					if json.Unmarshal(v, &str) == nil {
						s = strings.TrimSpace(str)
					}
				}
			}
		}
	}
	if len(s) >= 2 {
		if f, l := s[0], s[len(s)-1]; f == l && (f == '"' || f == '\'' || f == '`') {
			s = strings.TrimSpace(s[1 : len(s)-1])
		}
	}
	return s
}

// parseRef reads what follows "ref:": blanks, the id, then an optional
// range.
func parseRef(rest string) request {
	rest = strings.TrimLeft(rest, " \t") // "ref: k3f2a9qx"
	i := 0
	for i < len(rest) && refid.IsByte(rest[i]) {
		i++
	}
	id, tail := rest[:i], strings.TrimSpace(rest[i:])
	if id == "" {
		return request{note: answerBadRef(rest)}
	}
	r := request{ref: id}
	if tail == "" {
		return r
	}
	m := rangeRE.FindStringSubmatch(tail)
	if m == nil {
		return request{note: answerBadTail(id, tail)}
	}
	r.hasRange = true
	r.from = atoi(m[1])
	if m[2] != "" {
		r.to = atoi(m[2])
		if r.to < r.from {
			return request{note: answerReversed(id, r.from, r.to)}
		}
	}
	return r
}

// atoi reads at most 12 digits; anything unreadable is a huge number (out
// of range).
func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 1 << 40
	}
	return n
}

// parseQuery reads the search form: the cleaned query, cut to
// MaxQueryBytes, and its distinct words (compared as the store folds
// case), at most MaxQueryWords of them.
func parseQuery(s string) request {
	q, cut := oneLine(s, MaxQueryBytes)
	if q == "" {
		return request{note: answerEmpty}
	}
	r := request{queryCut: cut}
	seen := map[string]bool{}
	for _, w := range strings.Fields(q) {
		f := store.FoldCase(w)
		if seen[f] {
			continue
		}
		if len(r.words) == MaxQueryWords {
			r.wordsCut = true
			break
		}
		seen[f] = true
		r.words = append(r.words, w)
	}
	r.query = q // the phrase: oneLine collapsed its blanks
	r.phraseSet = len(strings.Fields(q)) > 1
	return r
}

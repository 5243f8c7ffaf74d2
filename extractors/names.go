package extractors

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/agentcompact/compact/internal/reclass"
)

// minNameBytes is the shortest name Names keeps.
const minNameBytes = 5

// Names returns the names text holds, in order of appearance, each once:
// the words of at least 5 bytes (trailing ".:/-" dropped) that hold a
// digit, one of "_./:", or a lower-case letter followed by an upper-case
// one, except URLs. These are what an agent writes and goes on to reuse:
// the functions, classes, variables, files and record ids of its task,
// which plain prose words are not.
func Names(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range nameWords(text) {
		if seen[w] || !isName(w) {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// nameWords returns the words that may be names, in order: in each run of
// [A-Za-z0-9_./:-], the stretch from its first letter, digit or "_" to its
// last (so no trailing ".:/-"), when it is at least minNameBytes (5) long.
// It is what the expression
// [A-Za-z0-9_][A-Za-z0-9_./:\-]{3,}[A-Za-z0-9_] finds, in one pass
// (FuzzNameWords).
func nameWords(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		if !isNameByte(text[i]) {
			i++
			continue
		}
		first, last := -1, -1
		j := i
		for ; j < len(text) && isNameByte(text[j]); j++ {
			if reclass.Word(text[j]) {
				if first < 0 {
					first = j
				}
				last = j
			}
		}
		if first >= 0 && last+1-first >= minNameBytes {
			out = append(out, text[first:last+1])
		}
		i = j
	}
	return out
}

func isNameByte(c byte) bool {
	return reclass.Word(c) || c == '.' || c == '/' || c == ':' || c == '-'
}

// isName reports whether w is a name (see Names).
func isName(w string) bool {
	if strings.HasPrefix(w, "http") {
		return false
	}
	if strings.ContainsAny(w, "0123456789_./:") {
		return true
	}
	for i := 0; i+1 < len(w); i++ {
		if w[i] >= 'a' && w[i] <= 'z' && w[i+1] >= 'A' && w[i+1] <= 'Z' {
			return true
		}
	}
	return false
}

// ArgumentNames returns the names (Names) of the string values of a tool
// call's JSON arguments, at any depth; of the raw arguments when they are
// not JSON.
func ArgumentNames(args string) []string {
	var v any
	if err := json.Unmarshal([]byte(args), &v); err != nil {
		return Names(args)
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			b.WriteString(v)
			b.WriteByte('\n')
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys) // deterministic: the digest is
			for _, k := range keys {
				walk(v[k])
			}
		}
	}
	walk(v)
	return Names(b.String())
}

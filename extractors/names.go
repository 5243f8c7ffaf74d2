package extractors

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
)

// nameRE finds the words that may be names: identifiers, paths, dotted,
// snake_case and camelCase names, names with digits.
var nameRE = regexp.MustCompile(`[A-Za-z0-9_][A-Za-z0-9_./:\-]{3,}[A-Za-z0-9_]`)

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
	for _, w := range nameRE.FindAllString(text, -1) {
		w = strings.TrimRight(w, ".:/-")
		if len(w) < minNameBytes || seen[w] || !isName(w) {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
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

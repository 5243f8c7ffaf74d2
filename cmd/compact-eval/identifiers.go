package main

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// jsonIdentifiers returns the identifiers a JSON tool output returns (see
// factDefinitions): the string and integer values of id-like keys, at any
// depth, in document order; nil when out is not a JSON object or array.
func jsonIdentifiers(out string) []string {
	t := strings.TrimSpace(out)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	var ids []string
	walkIdentifiers(v, false, &ids)
	return ids
}

// walkIdentifiers appends the identifiers in v; idKey says v is the value
// of an id-like key.
func walkIdentifiers(v any, idKey bool, ids *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			walkIdentifiers(x[k], isIdentifierKey(k), ids)
		}
	case []any:
		for _, e := range x {
			walkIdentifiers(e, idKey, ids)
		}
	case string:
		if idKey && len(x) >= 3 && !strings.ContainsAny(x, " \t\n") {
			*ids = append(*ids, x)
		}
	case json.Number:
		if s := x.String(); idKey && len(s) >= 3 && !strings.ContainsAny(s, ".eE") {
			*ids = append(*ids, s)
		}
	}
}

// isIdentifierKey reports whether a JSON key names an identifier: id,
// *_id, *_ids, *_number, *Id, *ID, *Ids, *Number.
func isIdentifierKey(k string) bool {
	l := strings.ToLower(k)
	if l == "id" || l == "ids" {
		return true
	}
	for _, suf := range []string{"_id", "_ids", "_number", "-id"} {
		if strings.HasSuffix(l, suf) {
			return true
		}
	}
	for _, suf := range []string{"Id", "ID", "Ids", "IDs", "Number"} {
		if strings.HasSuffix(k, suf) && len(k) > len(suf) && isLowerASCII(k[len(k)-len(suf)-1]) {
			return true
		}
	}
	return false
}

func isLowerASCII(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

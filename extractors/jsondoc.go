package extractors

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// MetaIdentifiers lists the identifiers a tool returned ("\n"-joined):
// the values of id-like JSON keys (id, *_id, *_number, ...) and id-looking
// strings in arrays. The digest keeps them.
const MetaIdentifiers = "identifiers"

// jsonHeadBytes caps the head fact of a JSON object.
const jsonHeadBytes = 160

// maxJSONIDs bounds the identifiers one output reports.
const maxJSONIDs = 64

// jsonDoc is what a JSON output holds, described for its fact line.
type jsonDoc struct {
	head   string   // "reservation HATHAU: user_id mia_li_3668, status cancelled, ..."
	lists  []string // "flights[2]: HAT136 2024-05-20, HAT039 2024-05-20"
	ids    []string // every identifier, in the order found, distinct
	errMsg string   // the value of a top-level "error" key
	named  bool     // head opens with the object's identifier
}

// describeJSON describes a JSON object or array; false when s is not one.
// Identifiers are kept whole and all of them (up to maxJSONIDs); the rest
// is named by its structure: the entity and its id, short scalar values
// (status, amounts, dates, enums), and the length and ids of each list.
func describeJSON(s string) (jsonDoc, bool) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return jsonDoc{}, false
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return jsonDoc{}, false
	}
	d := jsonDoc{}
	seen := map[string]bool{}
	collectIDs(v, false, &d.ids, seen)
	switch x := v.(type) {
	case map[string]any:
		d.head, d.named = objectHead(x, "")
		if e, ok := x["error"]; ok && e != nil && e != false && e != "" {
			d.errMsg = scalarText(e)
		}
		for _, k := range sortedJSONKeys(x) {
			if l := listFact(k, x[k]); l != "" {
				d.lists = append(d.lists, l)
			}
		}
	}
	return d, true
}

// collectIDs appends the identifiers in v (see MetaIdentifiers); idKey
// says v is the value of an id-like key.
func collectIDs(v any, idKey bool, ids *[]string, seen map[string]bool) {
	add := func(s string) {
		if len(*ids) < maxJSONIDs && !seen[s] {
			seen[s] = true
			*ids = append(*ids, s)
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			collectIDs(x[k], isIDKey(k), ids, seen)
		}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok && !idKey && looksLikeID(s) {
				add(s)
				continue
			}
			collectIDs(e, idKey, ids, seen)
		}
	case string:
		if idKey && len(x) >= 3 && len(x) <= 80 && !strings.ContainsAny(x, " \t\n") {
			add(x)
		}
	case json.Number:
		if s := x.String(); idKey && len(s) >= 3 && !strings.ContainsAny(s, ".eE") {
			add(s)
		}
	}
}

// isIDKey reports whether a JSON key names an identifier: id, ids, *_id,
// *_ids, *_number, *-id, *Id, *ID, *Ids, *Number, *_no, *_code.
func isIDKey(k string) bool {
	l := strings.ToLower(k)
	if l == "id" || l == "ids" || l == "uuid" || l == "key" || l == "ref" {
		return true
	}
	for _, suf := range []string{"_id", "_ids", "_number", "-id", "_no", "_code", "_uuid", "_key", "_ref"} {
		if strings.HasSuffix(l, suf) {
			return true
		}
	}
	for _, suf := range []string{"Id", "ID", "Ids", "IDs", "Number", "No", "Code", "Uuid", "UUID", "Key", "Ref"} {
		if len(k) > len(suf) && strings.HasSuffix(k, suf) && isLowerOrDigit(k[len(k)-len(suf)-1]) {
			return true
		}
	}
	return false
}

func isLowerOrDigit(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// looksLikeID reports whether a string in a list looks like an identifier:
// 4 to 40 letters, digits, '_' or '-', with at least one letter and one
// digit ("NO6JO3", "ord_123", "HAT069").
func looksLikeID(s string) bool {
	if len(s) < 4 || len(s) > 40 {
		return false
	}
	letter, digit := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letter = true
		case c == '_' || c == '-':
		default:
			return false
		}
	}
	return letter && digit
}

// keyRank orders an object's keys for its head: identifiers, then status,
// then amounts, then dates and times, then the rest by name.
func keyRank(k string) int {
	l := strings.ToLower(k)
	switch {
	case isIDKey(k):
		return 0
	case strings.Contains(l, "status") || l == "state" || strings.HasSuffix(l, "_state"):
		return 1
	case containsAny(l, []string{"amount", "price", "total", "cost", "balance", "fee", "count", "quantity"}):
		return 2
	case containsAny(l, []string{"date", "time", "_at", "dob"}):
		return 3
	}
	return 4
}

// sortedJSONKeys returns m's keys by keyRank, then by name.
func sortedJSONKeys(m map[string]any) []string {
	keys := slices.Sorted(maps.Keys(m))
	slices.SortStableFunc(keys, func(a, b string) int { return keyRank(a) - keyRank(b) })
	return keys
}

// objectHead names an object by its first identifier ("reservation
// HATHAU") and lists its short scalar values, key: value, most telling
// first, within MaxFactBytes.
func objectHead(m map[string]any, name string) (head string, named bool) {
	var b strings.Builder
	keys := sortedJSONKeys(m)
	rest := keys
	if len(keys) > 0 && keyRank(keys[0]) == 0 {
		if v := scalarText(m[keys[0]]); v != "" {
			entity := strings.TrimSuffix(strings.TrimSuffix(strings.ToLower(keys[0]), "id"), "_")
			if entity == "" {
				entity = name
			}
			if entity != "" {
				b.WriteString(entity + " ")
			}
			b.WriteString(v)
			rest, named = keys[1:], true
		}
	}
	n := 0
	for _, k := range rest {
		v := scalarText(m[k])
		if v == "" || len(v) > 40 {
			continue
		}
		part := k + " " + v
		if b.Len()+len(part)+2 > jsonHeadBytes {
			break
		}
		if b.Len() > 0 {
			if n == 0 {
				b.WriteString(": ")
			} else {
				b.WriteString(", ")
			}
		}
		b.WriteString(part)
		n++
	}
	return b.String(), named
}

// listFact describes a list value: "flights[2]: HAT136 2024-05-20, ..."
// with each element's identifier and short values, or "" when v is not a
// non-empty list (or is a list of scalars without identifiers).
func listFact(k string, v any) string {
	var items []any
	switch x := v.(type) {
	case []any:
		items = x
	case map[string]any:
		// An object of objects keyed by id ("payment_methods": {"gift_card_1": {...}}).
		for _, kk := range slices.Sorted(maps.Keys(x)) {
			if _, ok := x[kk].(map[string]any); ok {
				items = append(items, x[kk])
			}
		}
		if len(items) == 0 {
			return ""
		}
	default:
		return ""
	}
	if len(items) == 0 {
		return k + ": none"
	}
	var b strings.Builder
	b.WriteString(k + "[" + itoa(len(items)) + "]")
	for i, it := range items {
		var e string
		switch x := it.(type) {
		case map[string]any:
			e = elementText(x)
		case []any:
			e = "[" + itoa(len(x)) + "]"
		default:
			e = scalarText(x)
		}
		if e == "" {
			continue
		}
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		if b.Len()+len(sep)+len(e) > 2*MaxFactBytes {
			b.WriteString(", +" + itoa(len(items)-i) + " more")
			break
		}
		b.WriteString(sep + e)
	}
	return b.String()
}

// elementText is a list element in a few words: its identifiers, then up
// to three short scalar values.
func elementText(m map[string]any) string {
	var parts []string
	for _, k := range sortedJSONKeys(m) {
		v := scalarText(m[k])
		if v == "" || len(v) > 32 {
			continue
		}
		if keyRank(k) == 0 || len(parts) < 2 {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, " ")
}

// scalarText renders a JSON scalar ("" for objects, arrays and null).
func scalarText(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case json.Number:
		return x.String()
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	return ""
}

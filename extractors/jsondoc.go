package extractors

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
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
	shape  []string // shapeFacts of the document
}

// describeJSON describes a JSON object or array; false when s is not one.
// Identifiers are kept whole and all of them (up to maxJSONIDs); the rest
// is named by its structure: the entity and its id, short scalar values
// (status, amounts, dates, enums), and the length and ids of each list.
func describeJSON(s string) (jsonDoc, bool) { return describeJSONFor(s, "") }

// describeJSONFor is describeJSON for a call of tool (whose name tells
// which identifier names the object: get_order's order_id).
func describeJSONFor(s, tool string) (jsonDoc, bool) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return jsonDoc{}, false
	}
	var v any
	if json.Unmarshal([]byte(t), &v) != nil {
		return jsonDoc{}, false
	}
	v = redactSecretValues(v, false) // a secret is never an identifier nor a fact
	d := jsonDoc{}
	seen := map[string]bool{}
	collectIDs(v, false, &d.ids, seen)
	d.shape = shapeFacts(v)
	switch x := v.(type) {
	case map[string]any:
		d.head, d.named = objectHead(x, tool)
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
	case float64:
		if idKey && x == math.Trunc(x) && math.Abs(x) >= 100 && math.Abs(x) < 1<<53 {
			add(strconv.FormatFloat(x, 'f', -1, 64))
		}
	}
}

// isIDKey reports whether a JSON key names an identifier: id, ids, uuid,
// key, ref, *_id, *_ids, *_number, *-id, *_no, *_code, *_uuid, *_key,
// *_ref, and their camelCase forms *Id, *ID, *Ids, *Number, ...; never a
// secret-named key (api_key, access_token: see isSecretKey).
func isIDKey(k string) bool {
	if isSecretKey(k) {
		return false
	}
	switch len(k) {
	case 2, 3, 4:
		if strings.EqualFold(k, "id") || strings.EqualFold(k, "ids") || strings.EqualFold(k, "uuid") ||
			strings.EqualFold(k, "key") || strings.EqualFold(k, "ref") {
			return true
		}
	}
	for _, suf := range idSuffixes {
		if len(k) > len(suf) && strings.EqualFold(k[len(k)-len(suf):], suf) {
			return true
		}
	}
	for _, suf := range idCamelSuffixes {
		if len(k) > len(suf) && strings.HasSuffix(k, suf) && isLowerOrDigit(k[len(k)-len(suf)-1]) {
			return true
		}
	}
	return false
}

var (
	idSuffixes      = []string{"_id", "_ids", "_number", "-id", "_no", "_code", "_uuid", "_key", "_ref"}
	idCamelSuffixes = []string{"Id", "ID", "Ids", "IDs", "Number", "No", "Code", "Uuid", "UUID", "Key", "Ref"}
)

func isLowerOrDigit(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// looksLikeID reports whether a string in a list looks like an identifier:
// 4 to 40 letters, digits, '_' or '-', with at least one letter and one
// digit ("NO6JO3", "ord_123", "HAT069"), or an upper-case code ("HATHAU").
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
	return letter && digit || isUpperCode(s)
}

// isUpperCode reports whether s is an upper-case code of 5 to 16 letters
// and digits: a booking reference such as "HATHAU".
func isUpperCode(s string) bool {
	if len(s) < 5 || len(s) > 16 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// keyRank orders an object's keys for its head: identifiers, then status,
// then amounts, then dates and times, then the rest by name.
func keyRank(k string) int {
	if isIDKey(k) {
		return 0
	}
	l := strings.ToLower(k) // no copy for a lower-case key
	switch {
	case containsAny(l, rankStatus):
		return 1
	case containsAny(l, rankAmount):
		return 2
	case containsAny(l, rankTime):
		return 3
	}
	return 4
}

var (
	rankStatus = []string{"status", "state"}
	rankAmount = []string{"amount", "price", "total", "cost", "balance", "fee", "count", "quantity"}
	rankTime   = []string{"date", "time", "_at", "dob"}
)

// sortedJSONKeys returns m's keys by keyRank, then by name.
func sortedJSONKeys(m map[string]any) []string {
	type ranked struct {
		k string
		r int
	}
	rs := make([]ranked, 0, len(m))
	for k := range m {
		rs = append(rs, ranked{k, keyRank(k)})
	}
	slices.SortFunc(rs, func(a, b ranked) int {
		if a.r != b.r {
			return a.r - b.r
		}
		return strings.Compare(a.k, b.k)
	})
	keys := make([]string, len(rs))
	for i, r := range rs {
		keys[i] = r.k
	}
	return keys
}

// objectHead names an object by its identifier ("reservation HATHAU":
// the id key the tool's name names, else the first) and lists its short
// scalar values, key: value, most telling first, within jsonHeadBytes.
func objectHead(m map[string]any, tool string) (head string, named bool) {
	var b strings.Builder
	keys := sortedJSONKeys(m)
	tl := strings.ToLower(tool)
	for i, k := range keys {
		if keyRank(k) != 0 {
			break
		}
		if e := idEntity(k); e != "" && tl != "" && strings.Contains(tl, e) {
			keys = append([]string{k}, append(keys[:i:i], keys[i+1:]...)...)
			break
		}
	}
	rest := keys
	if len(keys) > 0 && keyRank(keys[0]) == 0 {
		if v := scalarText(m[keys[0]]); v != "" {
			if entity := idEntity(keys[0]); entity != "" {
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
		if b.Len()+len(sep)+len(e) > jsonListBytes {
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
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	return ""
}

// idEntity is what an id key identifies: "reservation" for reservation_id
// or reservationId, "" for id.
func idEntity(k string) string {
	l := strings.ToLower(k)
	for _, suf := range []string{"_id", "-id", "id", "_number", "number", "_no", "_code", "_uuid", "uuid", "_key", "_ref"} {
		if strings.HasSuffix(l, suf) && len(l) > len(suf) {
			return strings.TrimRight(l[:len(l)-len(suf)], "_-")
		}
	}
	return ""
}

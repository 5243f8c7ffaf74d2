package extractors

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// maxJSONKeys bounds the keys listed for a JSON object.
const maxJSONKeys = 10

// jsonFacts describes a JSON document (shapeFacts); nil when s is not a
// JSON object or array.
func jsonFacts(s string) []string {
	s = strings.TrimSpace(s)
	if s == "" || (s[0] != '{' && s[0] != '[') {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber() // numbers are not looked at: any size is valid
	var v any
	if dec.Decode(&v) != nil || dec.InputOffset() != int64(len(s)) {
		return nil
	}
	return shapeFacts(v)
}

// shapeFacts describes a decoded JSON document: for an object its
// top-level keys (at most maxJSONKeys) with the length of array and object
// values, for an array its length and the keys of its first element.
func shapeFacts(v any) []string {
	switch x := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		parts := make([]string, 0, min(len(keys), maxJSONKeys+1))
		for i, k := range keys {
			if i == maxJSONKeys {
				parts = append(parts, "+"+itoa(len(keys)-i)+" more")
				break
			}
			parts = append(parts, shorten(k, 40)+valueShape(x[k]))
		}
		return []string{"JSON object: " + itoa(len(keys)) + " " + plural(len(keys), "key", "keys"), "Keys: " + strings.Join(parts, ", ")}
	case []any:
		out := []string{"JSON array: " + itoa(len(x)) + " " + plural(len(x), "item", "items")}
		if len(x) > 0 {
			if first, ok := x[0].(map[string]any); ok && len(first) > 0 {
				keys := slices.Sorted(maps.Keys(first))
				if len(keys) > maxJSONKeys {
					keys = append(keys[:maxJSONKeys], "+"+itoa(len(first)-maxJSONKeys)+" more")
				}
				out = append(out, "Item keys: "+strings.Join(keys, ", "))
			}
		}
		return out
	}
	return nil
}

// valueShape describes a decoded JSON value briefly: "[3]" for an array
// of 3, "{5}" for an object of 5 keys, "" otherwise.
func valueShape(v any) string {
	switch x := v.(type) {
	case []any:
		return "[" + itoa(len(x)) + "]"
	case map[string]any:
		return "{" + itoa(len(x)) + "}"
	}
	return ""
}

// jsonExtract is the extractor of tools that return JSON (see
// jsonSummary); outputs that are not JSON go to the fallback.
func jsonExtract(call Call, output string) ToolSummary {
	env := unwrap(output)
	if s, ok := jsonSummary(call, env.body); ok {
		return s
	}
	return fallbackExtract(call, output)
}

// jsonSummary summarizes a JSON output: what it is, named by its
// identifier and short values ("reservation HATHAU: status cancelled,
// cabin economy, ..."), every identifier it returned, and its lists with
// their length and their elements' identifiers. False when body is not a
// JSON object or array.
func jsonSummary(call Call, body string) (ToolSummary, bool) {
	d, ok := describeJSONFor(body, call.Name)
	if !ok {
		return ToolSummary{}, false
	}
	s := ToolSummary{Tool: call.Name, Status: StatusSuccess, Metadata: map[string]string{MetaKind: KindJSON, MetaBytes: itoa(len(body))}}
	if d.errMsg != "" {
		s.Status = StatusError
		s.Metadata[MetaError] = d.errMsg
		s.KeyFacts = append(s.KeyFacts, "Error: "+shorten(d.errMsg, 160))
	}
	if !d.named {
		s.KeyFacts = append(s.KeyFacts, d.shape...)
	}
	if d.head != "" {
		s.KeyFacts = append(s.KeyFacts, d.head)
	}
	var lists []string
	for _, l := range d.lists {
		if !d.named && len(d.ids) == 0 {
			break // the structure facts name the lists
		}
		lists = append(lists, shorten(l, jsonListBytes))
	}
	if len(d.ids) > 0 {
		s.Metadata[MetaIdentifiers] = strings.Join(d.ids, "\n")
		shown := d.head + "\n" + strings.Join(lists, "\n")
		s.KeyFacts = append(s.KeyFacts, chunkFacts("IDs: ", notIn(shown, d.ids), MaxFactBytes-10)...)
	}
	s.KeyFacts = append(s.KeyFacts, lists...)
	return s, true
}

// jsonListBytes caps the fact of one list of a JSON output.
const jsonListBytes = 160

// chunkFacts joins items with ", " into facts of at most n bytes each,
// the first one opened by prefix, never cutting an item.
func chunkFacts(prefix string, items []string, n int) []string {
	var out []string
	var b strings.Builder
	for _, it := range items {
		if b.Len() > 0 && b.Len()+2+len(it) > n {
			out = append(out, b.String())
			b.Reset()
		}
		if b.Len() == 0 {
			if len(out) == 0 {
				b.WriteString(prefix)
			}
		} else {
			b.WriteString(", ")
		}
		b.WriteString(it)
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

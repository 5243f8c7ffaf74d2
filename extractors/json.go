package extractors

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// maxJSONKeys bounds the keys listed for a JSON object.
const maxJSONKeys = 10

// jsonFacts describes a JSON document: for an object its top-level keys
// with the length of array and object values, for an array its length and
// the keys of its first element. It returns nil when s is not JSON.
func jsonFacts(s string) []string {
	s = strings.TrimSpace(s)
	if s == "" || (s[0] != '{' && s[0] != '[') {
		return nil
	}
	if s[0] == '{' {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(s), &obj); err != nil {
			return nil
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, 0, min(len(keys), maxJSONKeys))
		for i, k := range keys {
			if i == maxJSONKeys {
				parts = append(parts, fmt.Sprintf("+%d more", len(keys)-i))
				break
			}
			parts = append(parts, shorten(k, 40)+jsonShape(obj[k]))
		}
		return []string{fmt.Sprintf("JSON object: %d %s", len(keys), plural(len(keys), "key", "keys")), "Keys: " + strings.Join(parts, ", ")}
	}
	var arr []json.RawMessage
	if err := json.Unmarshal([]byte(s), &arr); err != nil {
		return nil
	}
	out := []string{fmt.Sprintf("JSON array: %d %s", len(arr), plural(len(arr), "item", "items"))}
	if len(arr) > 0 {
		var first map[string]json.RawMessage
		if json.Unmarshal(arr[0], &first) == nil && len(first) > 0 {
			keys := make([]string, 0, len(first))
			for k := range first {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			if len(keys) > maxJSONKeys {
				keys = append(keys[:maxJSONKeys], fmt.Sprintf("+%d more", len(first)-maxJSONKeys))
			}
			out = append(out, "Item keys: "+strings.Join(keys, ", "))
		}
	}
	return out
}

// jsonShape describes a JSON value briefly: "[3]" for an array of 3, "{5}"
// for an object of 5 keys, "" otherwise.
func jsonShape(v json.RawMessage) string {
	t := strings.TrimSpace(string(v[:min(len(v), 1)]))
	switch t {
	case "[":
		var a []json.RawMessage
		if json.Unmarshal(v, &a) == nil {
			return fmt.Sprintf("[%d]", len(a))
		}
	case "{":
		var o map[string]json.RawMessage
		if json.Unmarshal(v, &o) == nil {
			return fmt.Sprintf("{%d}", len(o))
		}
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
		var rest []string
		for _, id := range d.ids {
			if !strings.Contains(shown, id) {
				rest = append(rest, id)
			}
		}
		s.KeyFacts = append(s.KeyFacts, chunkFacts("IDs: ", rest, MaxFactBytes-10)...)
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

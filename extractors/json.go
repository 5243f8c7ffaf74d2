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

// jsonExtract is the extractor of tools that return JSON: top-level keys
// and lengths; outputs that are not JSON go to the fallback.
func jsonExtract(call Call, output string) ToolSummary {
	env := unwrap(output)
	f := jsonFacts(env.body)
	if f == nil {
		return fallbackExtract(call, output)
	}
	s := ToolSummary{Tool: call.Name, Status: StatusSuccess, Metadata: map[string]string{MetaKind: KindJSON, MetaBytes: itoa(len(env.body))}}
	s.KeyFacts = append(f, "Size: "+humanBytes(len(env.body)))
	if strings.Contains(env.body[:min(len(env.body), 200)], `"error"`) {
		var e struct {
			Error any `json:"error"`
		}
		if json.Unmarshal([]byte(env.body), &e) == nil && e.Error != nil && e.Error != false && e.Error != "" {
			s.Status = StatusError
			msg := fmt.Sprint(e.Error)
			s.KeyFacts = append(s.KeyFacts, "Error: "+shorten(msg, 160))
			s.Metadata[MetaError] = msg
		}
	}
	return s
}

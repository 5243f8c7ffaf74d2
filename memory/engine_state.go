package memory

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"

	compact "github.com/agentcompact/compact"
)

// engineStateVersion is the version of compact.Session's JSON form that
// rewriteEngineState understands.
const engineStateVersion = 1

// knownEngineKeys are the fields of compact.Session's JSON form (version 1).
// A form with any other field is not rewritten: it might hold message ids
// the rewrite would not map.
var knownEngineKeys = map[string]bool{
	"version": true, "id": true, "chain": true, "dropped": true, "masked": true,
	"cut": true, "lastCompactionLen": true, "lastCompactionTokens": true, "calibration": true, "stats": true,
}

// errEngineForm reports a compact.Session JSON form this package cannot
// rewrite; the Memory then keeps its window where it is (correct, only
// slower).
var errEngineForm = errors.New("memory: unsupported compact.Session form")

// rewriteEngineState rewrites a compact.Session JSON form for a window that
// starts shift messages later:
//
//   - the chain keeps only its last record (the summary in force; the
//     Memory keeps the whole chain itself), so the form stays small;
//   - when remap is non-nil, the message ids of the covered list and of the
//     masked and cut maps are renamed old -> new, and ids remap does not
//     hold (messages no longer in the window) are removed;
//   - lastCompactionLen, the input length at the last compaction, is
//     reduced by shift, so the cooldown counts the same messages as on the
//     whole history.
//
// Fields it does not know, or a version other than 1, are an error wrapping
// errEngineForm.
func rewriteEngineState(js []byte, remap map[string]string, shift int) ([]byte, error) {
	if compact.SessionVersion != engineStateVersion {
		return nil, fmt.Errorf("%w: compact.SessionVersion %d", errEngineForm, compact.SessionVersion)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(js, &top); err != nil {
		return nil, fmt.Errorf("%w: %w", errEngineForm, err)
	}
	for k := range top {
		if !knownEngineKeys[k] {
			return nil, fmt.Errorf("%w: field %q", errEngineForm, k)
		}
	}
	var version int
	if err := json.Unmarshal(top["version"], &version); err != nil || version != engineStateVersion {
		return nil, fmt.Errorf("%w: version %s", errEngineForm, top["version"])
	}
	set := func(key string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("%w: encode %s: %w", errEngineForm, key, err)
		}
		top[key] = b
		return nil
	}
	if raw, ok := top["chain"]; ok {
		var chain []json.RawMessage
		if err := json.Unmarshal(raw, &chain); err != nil {
			return nil, fmt.Errorf("%w: chain: %w", errEngineForm, err)
		}
		if len(chain) > 1 {
			if err := set("chain", chain[len(chain)-1:]); err != nil {
				return nil, err
			}
		}
	}
	if remap != nil {
		if raw, ok := top["dropped"]; ok {
			var ids []string
			if err := json.Unmarshal(raw, &ids); err != nil {
				return nil, fmt.Errorf("%w: dropped: %w", errEngineForm, err)
			}
			out := make([]string, 0, len(ids))
			for _, id := range ids {
				if n, ok := remap[id]; ok {
					out = append(out, n)
				}
			}
			if err := set("dropped", out); err != nil {
				return nil, err
			}
		}
		for _, key := range []string{"masked", "cut"} {
			raw, ok := top[key]
			if !ok {
				continue
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(raw, &m); err != nil {
				return nil, fmt.Errorf("%w: %s: %w", errEngineForm, key, err)
			}
			out := make(map[string]json.RawMessage, len(m))
			for id, v := range m {
				if n, ok := remap[id]; ok {
					out[n] = v
				}
			}
			if err := set(key, out); err != nil {
				return nil, err
			}
		}
	}
	if shift > 0 {
		var last int
		if raw, ok := top["lastCompactionLen"]; ok {
			if err := json.Unmarshal(raw, &last); err != nil {
				return nil, fmt.Errorf("%w: lastCompactionLen: %w", errEngineForm, err)
			}
		}
		if last > 0 {
			// Zero would mean "never compacted" to the engine.
			if err := set("lastCompactionLen", max(1, last-shift)); err != nil {
				return nil, err
			}
		}
	}
	// Assembled by hand: json.Marshal would validate every raw value again.
	keys := make([]string, 0, len(top))
	size := 2
	for k, v := range top {
		keys = append(keys, k)
		size += len(k) + len(v) + 4
	}
	sort.Strings(keys)
	out := make([]byte, 0, size)
	out = append(out, '{')
	for i, k := range keys {
		if i > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendQuote(out, k)
		out = append(out, ':')
		out = append(out, top[k]...)
	}
	return append(out, '}'), nil
}

// sessionFrom decodes a compact.Session JSON form into a new Session; an
// empty form yields a new session with the given id.
func sessionFrom(js []byte, id string) (*compact.Session, error) {
	if len(js) == 0 {
		return compact.NewSession(id), nil
	}
	s := compact.NewSession(id)
	if err := s.UnmarshalJSON(js); err != nil {
		return nil, fmt.Errorf("memory: restore engine state: %w", err)
	}
	return s, nil
}

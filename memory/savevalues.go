package memory

import (
	"fmt"
	"slices"

	"github.com/agentcompact/compact/internal/idtext"
	lcmemory "github.com/tmc/langchaingo/memory"
)

// maxKeysShown bounds the keys an input-values error lists.
const maxKeysShown = 8

// sideValue picks the value SaveContext records from one side of a turn
// (side is "inputs" or "outputs", opt the option that sets its key), by
// langchaingo's rules (memory.GetInputValue): the value of key when key is
// set, else the only value; it must be a string. Its errors wrap
// langchaingo's memory.ErrInvalidInputValues and name the side, the key
// wanted and the keys given (never the values, which may be large or
// private).
func sideValue(side, opt string, values map[string]any, key string) (string, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("memory: SaveContext: %w: %s: %s", lcmemory.ErrInvalidInputValues, side, fmt.Sprintf(format, args...))
	}
	v, k, ok := pickValue(values, key)
	switch {
	case !ok && key != "":
		return "", bad("no key %s (set by %s); keys given: %s", idtext.Quote(key), opt, keyList(values))
	case !ok && len(values) == 0:
		return "", bad("no value: want one string value (or set %s and give that key)", opt)
	case !ok:
		return "", bad("%d keys %s and no %s to pick one", len(values), keyList(values), opt)
	}
	s, ok := v.(string)
	if !ok {
		return "", bad("key %s holds a %T, want a string", idtext.Quote(k), v)
	}
	return s, nil
}

// pickValue picks a value of one side of a turn by langchaingo's rules
// (memory.GetInputValue): the value of key when key is set, else the only
// value; k is its key, ok false when there is none. LoadMemoryVariables
// picks the input it budgets for the same way, a string value only.
func pickValue(values map[string]any, key string) (v any, k string, ok bool) {
	if key != "" {
		v, ok = values[key]
		return v, key, ok
	}
	if len(values) != 1 {
		return nil, "", false
	}
	for k, v = range values {
	}
	return v, k, true
}

// keyList renders the keys of values, sorted, quoted, at most maxKeysShown.
func keyList(values map[string]any) string {
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := "["
	for i, k := range keys {
		if i == maxKeysShown {
			out += fmt.Sprintf(" ... %d more", len(keys)-i)
			break
		}
		if i > 0 {
			out += " "
		}
		out += idtext.Quote(k)
	}
	return out + "]"
}

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
	var v any
	switch {
	case key != "":
		x, ok := values[key]
		if !ok {
			return "", bad("no key %s (set by %s); keys given: %s", idtext.Quote(key), opt, keyList(values))
		}
		v = x
	case len(values) == 0:
		return "", bad("no value: want one string value (or set %s and give that key)", opt)
	case len(values) > 1:
		return "", bad("%d keys %s and no %s to pick one", len(values), keyList(values), opt)
	default:
		for k, x := range values {
			v, key = x, k
		}
	}
	s, ok := v.(string)
	if !ok {
		return "", bad("key %s holds a %T, want a string", idtext.Quote(key), v)
	}
	return s, nil
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

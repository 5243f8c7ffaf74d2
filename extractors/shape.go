package extractors

import "strings"

// Shape matches a tool call by the keys of its JSON arguments, for tools
// registered under no name the registry knows: a file tool is a file tool
// whatever it is called. A call matches when its arguments hold every key of
// All, at least one key of Any (when Any is not empty), at least one key of
// AlsoAny (when AlsoAny is not empty) and no key of None. Keys are matched
// exactly (JSON keys are case-sensitive).
type Shape struct {
	All, Any, AlsoAny, None []string
}

// matches reports whether the arguments a have shape s.
func (s Shape) matches(a callArgs) bool {
	if a.m == nil {
		return false
	}
	for _, k := range s.All {
		if _, ok := a.m[k]; !ok {
			return false
		}
	}
	for _, k := range s.None {
		if _, ok := a.m[k]; ok {
			return false
		}
	}
	return hasAnyKey(a, s.Any) && hasAnyKey(a, s.AlsoAny)
}

// hasAnyKey reports whether a holds one of keys; true when keys is empty.
func hasAnyKey(a callArgs, keys []string) bool {
	if len(keys) == 0 {
		return true
	}
	for _, k := range keys {
		if _, ok := a.m[k]; ok {
			return true
		}
	}
	return false
}

// shapeRule is one registered shape and its extractor.
type shapeRule struct {
	shape Shape
	e     Extractor
}

// Argument keys of the built-in shapes.
var (
	shapePathKeys    = []string{"path", "file_path", "filepath", "filename", "file_name", "notebook_path", "target_file", "relative_path", "absolute_path"}
	shapeContentKeys = []string{"content", "contents", "file_text", "new_str", "new_string", "old_str", "old_string", "edits", "new_source", "diff", "patch"}
	shapeSearchKeys  = []string{"pattern", "regex", "search_term", "glob", "query"}
	shapeNotSearch   = []string{"url", "sql"}
)

// builtinShapes are the shapes [Default] registers, most specific first:
// writes (a path and new content), searches (a pattern), reads (a path),
// fetches (a url), shell commands (a command and no path).
var builtinShapes = []struct {
	shape  Shape
	family string
}{
	{Shape{Any: shapePathKeys, AlsoAny: shapeContentKeys}, "write"},
	{Shape{Any: shapeSearchKeys, None: shapeNotSearch}, "search"},
	{Shape{Any: shapePathKeys}, "read"},
	{Shape{Any: []string{"url", "uri"}}, "http"},
	{Shape{Any: []string{"command", "cmd"}, None: shapePathKeys}, "shell"},
	{Shape{Any: []string{"sql"}}, "sql"},
}

// RegisterShape makes e the extractor of calls whose tool name has no
// extractor of its own (nor an alias to one) and whose arguments have
// shape s. Shapes are tried in the order registered, after the built-in
// ones of [Default]; the first that matches wins. A nil e is ignored. Safe
// for concurrent use.
func (r *Registry) RegisterShape(s Shape, e Extractor) {
	if e == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.results.reset()
	r.shapes = append(r.shapes, shapeRule{shape: s, e: e})
}

// byShape returns the extractor of the first shape call's arguments have.
func (r *Registry) byShape(call Call) (Extractor, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if len(r.shapes) == 0 {
		return nil, false
	}
	if !r.mayHaveShape(call.Arguments) {
		return nil, false // no shape's key is in the arguments: no decode
	}
	a := parseArgs(call.Arguments)
	if a.m == nil {
		return nil, false
	}
	for _, sr := range r.shapes {
		if sr.shape.matches(a) {
			return sr.e, true
		}
	}
	return nil, false
}

// mayHaveShape reports whether args may match a shape: it holds, quoted,
// a key that some shape requires (of All, Any or AlsoAny). Callers hold
// r.mu (read).
func (r *Registry) mayHaveShape(args string) bool {
	if strings.IndexByte(args, '"') < 0 {
		return false
	}
	for _, sr := range r.shapes {
		for _, keys := range [][]string{sr.shape.All, sr.shape.Any, sr.shape.AlsoAny} {
			for _, k := range keys {
				if hasQuoted(args, k) {
					return true
				}
			}
		}
	}
	return false
}

// hasQuoted reports whether s holds k between double quotes.
func hasQuoted(s, k string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], k)
		if i < 0 {
			return false
		}
		i += off
		if i > 0 && s[i-1] == '"' && i+len(k) < len(s) && s[i+len(k)] == '"' {
			return true
		}
		off = i + 1
	}
}

package extractors

import (
	"strings"

	"github.com/agentcompact/compact/internal/callpaths"
)

// The "created" group of a digest's file index: the paths the run created
// (internal/callpaths.Created: an editor's "create" command, create_file,
// Moatless' CreateFile, SWE-agent's create; and, when no earlier call of
// the run named the path, Claude Code's Write, write_file, touch, mkdir,
// "> file" and tee, which also succeed on an existing file). A path
// created and then changed is listed once, as created: the first thing
// done to it.

// namedPaths are the paths the calls of a run named so far, as
// [pathKey]s.
type namedPaths map[string]bool

// add adds paths to s, allocating it when nil.
func (s *namedPaths) add(paths ...string) {
	if *s == nil {
		*s = namedPaths{}
	}
	for _, p := range paths {
		(*s)[pathKey(p)] = true
	}
}

// has reports whether s holds p, or the same file relative to another
// directory ("/repo/src/a.py" and "src/a.py").
func (s namedPaths) has(p string) bool {
	k := pathKey(p)
	if s[k] {
		return true
	}
	for q := range s {
		if strings.HasSuffix(k, "/"+q) || strings.HasSuffix(q, "/"+k) {
			return true
		}
	}
	return false
}

// namedBy returns the paths of d's lists, as the calls before a new run of
// messages named them.
func namedBy(d Digest) namedPaths {
	var s namedPaths
	for _, l := range d.paths() {
		s.add(l...)
	}
	return s
}

// createdPaths returns the paths call creates, by [callpaths.Created]: a
// path of a call that may find it existing only when no earlier call of
// the run named it (a Write to a file read or edited before overwrites
// it).
func (n *digestBuilder) createdPaths(call Call) []string {
	var out []string
	for _, c := range callpaths.Created(call.Name, call.Arguments) {
		if !c.MayExist || !n.named.has(c.Path) {
			out = append(out, c.Path)
		}
	}
	return out
}

// withoutPaths returns the paths of l that drop does not hold (by
// [pathKey]): a new slice.
func withoutPaths(l, drop []string) []string {
	keys := make(map[string]bool, len(drop))
	for _, p := range drop {
		keys[pathKey(p)] = true
	}
	out := make([]string, 0, len(l))
	for _, p := range l {
		if !keys[pathKey(p)] {
			out = append(out, p)
		}
	}
	return out
}

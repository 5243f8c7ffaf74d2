package extractors

import (
	"slices"
	"strings"

	"github.com/agentcompact/compact/internal/callpaths"
	"github.com/agentcompact/compact/internal/msg"
)

// pathGroup is what was done to the paths of one list of a [Digest].
type pathGroup int

// The path groups, in the order Render and KeyPoints show them.
const (
	groupModified pathGroup = iota
	groupCreated
	groupRead
	groupSearched
	groupListed
	groupTested
	groupRun
	groupMentioned // named by the previous summary's narrative: the oldest
	numPathGroups
)

// pathGroupMeta are the metadata keys the groups are read from ("": none).
var pathGroupMeta = [numPathGroups]string{MetaFilesModified, "", MetaFilesRead, MetaFilesSearched, MetaFilesListed, MetaFilesTested, MetaFilesRun, ""}

// pathGroupVerb names each group on a rendered line ("Files modified: a.go
// | read: b.go") and, after "Files ", on a key point line.
var pathGroupVerb = [numPathGroups]string{"modified", "created", "read", "searched", "listed", "tested", "run", "mentioned"}

// pathLists returns pointers to the path lists of d, by group.
func (d *Digest) pathLists() [numPathGroups]*[]string {
	return [numPathGroups]*[]string{&d.FilesModified, &d.FilesCreated, &d.FilesRead, &d.FilesSearched, &d.FilesListed, &d.FilesTested, &d.FilesRun, &d.FilesMentioned}
}

// paths returns the path lists of d, by group (the slices themselves).
func (d Digest) paths() [numPathGroups][]string {
	return [numPathGroups][]string{d.FilesModified, d.FilesCreated, d.FilesRead, d.FilesSearched, d.FilesListed, d.FilesTested, d.FilesRun, d.FilesMentioned}
}

// recordPaths adds the paths of one call to n: those its summary's
// metadata lists by group, then every other path the call's arguments name
// (internal/callpaths: the evaluation's definition), in the group its kind
// suggests, and, when the call succeeded, the paths it created
// ([createdPaths]).
func (n *digestBuilder) recordPaths(call Call, md map[string]string, succeeded bool) {
	lists := n.d.pathLists()
	if succeeded {
		*lists[groupCreated] = append(*lists[groupCreated], n.createdPaths(call)...)
	}
	var named []string
	for g, key := range pathGroupMeta {
		if key == "" {
			continue
		}
		for _, f := range splitList(md[key]) {
			*lists[g] = append(*lists[g], f)
			named = append(named, f)
		}
	}
	g := kindGroup(md[MetaKind])
	called := callpaths.Call(call.Name, call.Arguments)
	for _, p := range called {
		if !slices.ContainsFunc(named, func(n string) bool { return strings.Contains(n, p) }) {
			*lists[g] = append(*lists[g], p)
			named = append(named, p)
		}
	}
	n.named.add(named...)
	n.named.add(called...)
}

// kindGroup is the group of a path a call of the given kind ([MetaKind])
// names when its extractor did not place it.
func kindGroup(kind string) pathGroup {
	switch kind {
	case KindRead:
		return groupRead
	case KindSearch:
		return groupSearched
	case KindTest:
		return groupTested
	}
	return groupRun
}

// pathKey is what tells two spellings of one path apart from two paths:
// "./pkg/" and "pkg" are one path, "/repo/a.py" and "a.py" two.
func pathKey(p string) string {
	return callpaths.Clean(strings.Trim(p, ",;"))
}

// dedupePaths drops the paths whose key ([pathKey]) an earlier one has. It
// returns a new slice.
func dedupePaths(paths []string) []string {
	seen := make(map[string]bool, len(paths))
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if k := pathKey(p); !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// addMeta appends items to the "\n"-joined list md[key], leaving out the
// empty ones and those already listed; line breaks inside an item become
// spaces.
func addMeta(md map[string]string, key string, items ...string) {
	have := splitList(md[key])
	var b strings.Builder
	b.WriteString(md[key])
	for _, it := range items {
		it = strings.TrimSpace(strings.ReplaceAll(it, "\n", " "))
		if it == "" || slices.Contains(have, it) {
			continue
		}
		have = append(have, it)
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(it)
	}
	if b.Len() > 0 {
		md[key] = b.String()
	}
}

// narrativePaths returns the path words of a text (a previous summary's
// narrative), as written, without a sentence's final period: the words
// (runs of the characters a path word may hold) that [callpaths.Word]
// takes for paths.
func narrativePaths(text string) []string {
	var out []string
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_.-/+@~:", r))
	})
	for _, w := range words {
		w = strings.TrimRight(w, ".:")
		if _, ok := callpaths.Word(w); ok {
			out = append(out, w)
		}
	}
	return out
}

// mentionedPaths returns the paths prev's narrative names that no path
// list of d or prev holds, prev's own FilesMentioned after them.
func mentionedPaths(d, prev Digest) []string {
	have := map[string]bool{}
	for _, ls := range [][numPathGroups][]string{d.paths(), prev.paths()} {
		for g, l := range ls {
			if g == int(groupMentioned) {
				continue
			}
			for _, p := range l {
				have[pathKey(p)] = true
			}
		}
	}
	var out []string
	for _, p := range append(narrativePaths(msg.HeadBytes(prev.Previous, 64<<10)), prev.FilesMentioned...) {
		if !have[pathKey(p)] {
			out = append(out, p)
		}
	}
	return out
}

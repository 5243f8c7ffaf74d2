package callpaths

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// ShellTools are the tools (lower-cased) whose "command" argument is a
// shell command line.
var ShellTools = map[string]bool{"bash": true, "sh": true, "shell": true, "execute_bash": true, "run_command": true, "terminal": true}

// maxDepth bounds the nesting of the arguments read: values nested deeper
// are skipped.
const maxDepth = 32

// Call returns the paths a tool call names, given its name and its JSON
// arguments: for a shell tool ([ShellTools]), the paths of its top-level
// "command" ([Command]); for every tool, at any depth of nested objects
// and arrays, the string values (alone or in an array) of the keys that
// name a file or a directory ([PathKey]): a strong key's values that are
// path words (not ".", "/" nor an option), a weak key's values that
// [Word] takes for a path ("destination": "SEA" is not one, nor is a glob). Values are
// cleaned by [Clean], so each is a substring of the arguments as written.
// In the order of the arguments, repeats kept; nil when the arguments are
// not a JSON object.
func Call(name, args string) []string {
	dec := json.NewDecoder(strings.NewReader(args))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	w := argWalker{dec: dec, shell: ShellTools[strings.ToLower(name)]}
	if !w.object(1) {
		return nil
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil // trailing data: not one JSON object
	}
	return w.out
}

// argWalker reads a call's arguments token by token, in order.
type argWalker struct {
	dec   *json.Decoder
	shell bool
	out   []string
}

// object reads the members of an object whose '{' was read, up to its
// '}'; it reports false on malformed input.
func (w *argWalker) object(depth int) bool {
	for {
		t, err := w.dec.Token()
		if err != nil {
			return false
		}
		if t == json.Delim('}') {
			return true
		}
		key, ok := t.(string)
		if !ok {
			return false
		}
		if !w.value(key, PathKey(key), depth) {
			return false
		}
	}
}

// value reads the value of key, whose strength as a path key is kind
// (list items inherit their key's).
func (w *argWalker) value(key string, kind KeyKind, depth int) bool {
	t, err := w.dec.Token()
	if err != nil {
		return false
	}
	switch v := t.(type) {
	case string:
		w.str(key, kind, depth, v)
		return true
	case json.Delim:
		if depth >= maxDepth {
			return w.skip(v)
		}
		switch v {
		case '{':
			return w.object(depth + 1)
		case '[':
			for w.dec.More() {
				if !w.value(key, kind, depth+1) {
					return false
				}
			}
			_, err := w.dec.Token() // ']'
			return err == nil
		}
		return false
	}
	return true // a number, a boolean or null
}

// str takes a string value of key.
func (w *argWalker) str(key string, kind KeyKind, depth int, v string) {
	if w.shell && depth == 1 && key == "command" {
		w.out = append(w.out, Command(v)...)
		return
	}
	switch kind {
	case StrongKey:
		if p, ok := pathValue(v); ok {
			w.out = append(w.out, p)
		}
	case WeakKey:
		if p, ok := Word(strings.TrimSpace(v)); ok {
			w.out = append(w.out, p)
		}
	}
}

// skip reads past the rest of a value whose opening delimiter d was read.
func (w *argWalker) skip(d json.Delim) bool {
	if d != '{' && d != '[' {
		return false
	}
	for n := 1; n > 0; {
		t, err := w.dec.Token()
		if err != nil {
			return false
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			n++
		case json.Delim('}'), json.Delim(']'):
			n--
		}
	}
	return true
}

// pathValue returns the value of a strong path key cleaned, when it is a
// path word: not empty, ".", "/" nor an option.
func pathValue(v string) (string, bool) {
	v = Clean(strings.TrimSpace(v))
	if v == "" || v == "." || v == "/" || strings.HasPrefix(v, "-") || !pathWordRe.MatchString(v) {
		return "", false
	}
	return v, true
}

// KeyKind says whether an argument name names a file or a directory.
type KeyKind int

// The kinds of argument names.
const (
	// NoKey: the name does not name a file or a directory.
	NoKey KeyKind = iota
	// StrongKey: the name says its value is a path ("path", "file_path",
	// "files", "notebook_path", "target_file", "output_dir", "filename").
	StrongKey
	// WeakKey: the name may hold a path or something else ("src", "dst",
	// "source", "destination", "target", "root"); only values that look
	// like paths ([Word]) count.
	WeakKey
)

// pathWords are the last words (or last two words, joined) of the
// argument names that name a file or a directory.
var pathWords = map[string]KeyKind{
	"path": StrongKey, "paths": StrongKey, "file": StrongKey, "files": StrongKey,
	"filename": StrongKey, "filenames": StrongKey, "filepath": StrongKey, "filepaths": StrongKey,
	"dir": StrongKey, "dirs": StrongKey, "directory": StrongKey, "directories": StrongKey,
	"folder": StrongKey, "folders": StrongKey, "dirname": StrongKey, "pathname": StrongKey,
	"src": WeakKey, "dst": WeakKey, "source": WeakKey, "sources": WeakKey, "dest": WeakKey,
	"destination": WeakKey, "target": WeakKey, "targets": WeakKey, "root": WeakKey,
	"filepattern": WeakKey, "pathpattern": WeakKey, "dirpattern": WeakKey,
}

// PathKey returns whether an argument name names a file or a directory: its
// words (split at '_', '-', '.', spaces and lower-to-upper case changes)
// end in a word of a path ("path", "paths", "file", "files", "dir",
// "directory", "folder", or "file name" / "file path" as two words), or,
// weakly, of a place ("src", "dst", "source", "dest", "destination",
// "target", "root") or of a pattern of files ("file pattern", Moatless'
// file_pattern: a concrete path counts, a glob does not). "profile",
// "pattern" and "file_text" are not path keys.
func PathKey(key string) KeyKind {
	words := keyWords(key)
	if len(words) == 0 {
		return NoKey
	}
	last := words[len(words)-1]
	if len(words) >= 2 {
		if k := pathWords[words[len(words)-2]+last]; k != NoKey {
			return k
		}
	}
	return pathWords[last]
}

// keyWords splits an argument name into lower-case words.
func keyWords(key string) []string {
	var words []string
	var b bytes.Buffer
	flush := func() {
		if b.Len() > 0 {
			words = append(words, strings.ToLower(b.String()))
			b.Reset()
		}
	}
	prevLower := false
	for _, r := range key {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush()
			prevLower = false
			continue
		case r >= 'A' && r <= 'Z' && prevLower:
			flush()
		}
		b.WriteRune(r)
		prevLower = r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
	}
	flush()
	return words
}

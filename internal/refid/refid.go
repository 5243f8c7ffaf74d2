package refid

import "strings"

// Prefix starts every ref shown in a context.
const Prefix = "ref:"

// IsByte reports whether c may appear in a ref's id.
func IsByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
}

// Each calls fn with the id of every ref s shows (Prefix followed by at
// least one id byte), in order, until fn returns false.
func Each(s string, fn func(id string) bool) {
	for {
		i := strings.Index(s, Prefix)
		if i < 0 {
			return
		}
		s = s[i+len(Prefix):]
		n := 0
		for n < len(s) && IsByte(s[n]) {
			n++
		}
		if n > 0 && !fn(s[:n]) {
			return
		}
		s = s[n:]
	}
}

// Names reports whether s shows Prefix+id as a whole ref (not the start of
// a longer one).
func Names(s, id string) bool {
	found := false
	Each(s, func(got string) bool {
		found = got == id
		return !found
	})
	return found
}

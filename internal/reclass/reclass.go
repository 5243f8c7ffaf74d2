package reclass

// Space reports whether c is in RE2's \s class: tab, newline, form feed,
// carriage return, space (not vertical tab, and no non-ASCII space).
func Space(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// SkipSpace returns s after its leading run of \s ([Space]).
func SkipSpace(s string) string {
	i := 0
	for i < len(s) && Space(s[i]) {
		i++
	}
	return s[i:]
}

// Word reports whether c is in RE2's \w class, the word bytes of \b:
// [0-9A-Za-z_].
func Word(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

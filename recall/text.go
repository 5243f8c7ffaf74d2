package recall

import (
	"strings"
	"unicode/utf8"

	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact/store"
)

// oneLine makes s one trimmed line of valid UTF-8 of at most n bytes:
// control characters (line breaks included) become spaces, runs of blanks
// collapse to one space, invalid bytes become U+FFFD, and a longer result
// is cut at a rune boundary with "…". It reports whether it cut. It reads
// about n bytes of s past its leading blanks, plus the blanks it skips.
func oneLine(s string, n int) (string, bool) {
	var b strings.Builder
	space := false
	for i := 0; i < len(s) && b.Len() <= n; {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' || r == '\uFEFF' || r == ' ' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r) // utf8.RuneError for an invalid byte: U+FFFD
	}
	out := b.String()
	if len(out) <= n {
		return out, false
	}
	cut := n - len("…")
	if cut < 0 {
		return "", true
	}
	for cut > 0 && !utf8.RuneStart(out[cut]) {
		cut--
	}
	return strings.TrimRight(out[:cut], " ") + "…", true
}

// lines walks the lines of a text, without their line breaks.
type lines struct{ rest string }

// next returns the next line, and false at the end.
func (l *lines) next() (string, bool) {
	if l.rest == "" {
		return "", false
	}
	if i := strings.IndexByte(l.rest, '\n'); i >= 0 {
		line := l.rest[:i]
		l.rest = l.rest[i+1:]
		return line, true
	}
	line := l.rest
	l.rest = ""
	return line, true
}

// skip skips n lines.
func (l *lines) skip(n int) {
	for ; n > 0 && l.rest != ""; n-- {
		if i := strings.IndexByte(l.rest, '\n'); i >= 0 {
			l.rest = l.rest[i+1:]
		} else {
			l.rest = ""
		}
	}
}

// whatOf says what an original is, for the headers: "tool NAME", "tool",
// "user", "assistant", "system" or "message".
func whatOf(o store.Original) string {
	switch o.Role {
	case llms.ChatMessageTypeTool, llms.ChatMessageTypeFunction:
		if name, _ := oneLine(o.Name, 60); name != "" {
			return "tool " + name
		}
		return "tool"
	case llms.ChatMessageTypeHuman:
		return "user"
	case llms.ChatMessageTypeAI:
		return "assistant"
	case llms.ChatMessageTypeSystem:
		return "system"
	}
	return "message"
}

// cutAround returns line cut to about n bytes around byte offset pos (a
// third of the room before it), at rune boundaries, with "…" where cut;
// line itself when it fits. It is valid UTF-8.
func cutAround(line string, pos, n int) string {
	line = strings.ToValidUTF8(line, "\uFFFD")
	if len(line) <= n {
		return line
	}
	pos = min(max(pos, 0), len(line))
	start := max(pos-n/3, 0)
	end := min(start+n, len(line))
	start = max(end-n, 0)
	for start > 0 && !utf8.RuneStart(line[start]) {
		start++
	}
	for end < len(line) && !utf8.RuneStart(line[end]) {
		end--
	}
	out := line[start:end]
	if start > 0 {
		out = "…" + out
	}
	if end < len(line) {
		out += "…"
	}
	return out
}

// maxBytesPerToken bounds how many bytes of text one token covers, for the
// first guess of cutToTokens.
const maxBytesPerToken = 32

// cutToTokens returns the longest prefix p of s, cut at a rune boundary,
// such that p+marker counts at most n tokens (assuming counts grow with
// the prefix; it looks at O(log len(s)) prefixes of at most n*32 bytes),
// followed by marker. When not even the marker fits, it returns marker
// alone.
func (t *Tool) cutToTokens(s string, n int, marker string) string {
	hi := min(len(s), n*maxBytesPerToken)
	lo := 0
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if t.tokens(s[:mid]+marker) <= n {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	for lo > 0 && lo < len(s) && !utf8.RuneStart(s[lo]) {
		lo--
	}
	return strings.ToValidUTF8(s[:lo], "\uFFFD") + marker
}

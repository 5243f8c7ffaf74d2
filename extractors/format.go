package extractors

import (
	"strings"
	"unicode/utf8"

	"github.com/agentcompact/compact/internal/msg"
)

// FormatMaxBytes is the cap, in bytes, of the line [Format] returns. Every
// line Format produces is at most this long, whatever the summary holds.
const FormatMaxBytes = 600

// Status symbols used by [Format].
const (
	symbolSuccess = "✓"
	symbolError   = "❌"
	symbolPartial = "⚠"
)

// Format renders s as one compact line:
//
//	[✓ read_file: File: app/main.go | Lines: 120 | Type: go | Defines: Serve, New]
//
// The leading symbol is ✓ for [StatusSuccess], ❌ for [StatusError] and ⚠ for
// [StatusPartial] (an unknown or empty status is shown as ✓). The tool name is
// followed by the key facts joined with " | "; with no facts the line is
// "[✓ tool]". Newlines and control characters inside the tool name and the
// facts are replaced by spaces, invalid UTF-8 is replaced, and the line never
// exceeds [FormatMaxBytes] bytes: facts that do not fit are cut with "…" and
// the rest are counted as "+N more". Format does not redact secrets; the
// [Registry] does that when it extracts.
func Format(s ToolSummary) string {
	sym := symbolSuccess
	switch s.Status {
	case StatusError:
		sym = symbolError
	case StatusPartial:
		sym = symbolPartial
	}
	tool := cleanLine(s.Tool, 60)
	if tool == "" {
		tool = "tool"
	}
	var b strings.Builder
	b.Grow(128)
	b.WriteString("[")
	b.WriteString(sym)
	b.WriteString(" ")
	b.WriteString(tool)
	const tail = "]"
	facts := make([]string, 0, len(s.KeyFacts))
	for _, f := range s.KeyFacts {
		if f = cleanLine(f, FormatMaxBytes); f != "" {
			facts = append(facts, f)
		}
	}
	for i, f := range facts {
		sep := " | "
		if i == 0 {
			sep = ": "
		}
		more := ""
		if rest := len(facts) - i - 1; rest > 0 {
			more = " | +" + itoa(rest) + " more"
		}
		if b.Len()+len(sep)+len(f)+len(more)+len(tail) <= FormatMaxBytes {
			b.WriteString(sep)
			b.WriteString(f)
			continue
		}
		// f does not fit whole: cut it, then report what is left.
		rest := len(facts) - i - 1
		more = ""
		if rest > 0 {
			more = " | +" + itoa(rest) + " more"
		}
		room := FormatMaxBytes - b.Len() - len(sep) - len(more) - len(tail) - len("…")
		if room >= 8 {
			b.WriteString(sep)
			b.WriteString(msg.HeadBytes(f, room))
			b.WriteString("…")
			b.WriteString(more)
		} else {
			more = " | +" + itoa(rest+1) + " more"
			if b.Len()+len(more)+len(tail) <= FormatMaxBytes {
				b.WriteString(more)
			}
		}
		break
	}
	b.WriteString(tail)
	return b.String()
}

// cleanLine makes s one trimmed line of valid UTF-8 of at most max bytes:
// control characters (newlines included) become spaces, runs of spaces are
// collapsed, and an over-long result is redacted, then cut at a rune
// boundary with "…".
func cleanLine(s string, max int) string {
	if max <= 0 {
		return ""
	}
	var b strings.Builder
	limit := max + cutRedactMargin // enough to redact before a cut
	if len(s) < limit {
		b.Grow(len(s))
	} else {
		b.Grow(limit)
	}
	space := false
	for i := 0; i < len(s) && b.Len() < limit; {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size <= 1 {
			r = '\uFFFD'
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' || r == '\uFEFF' {
			r = ' '
		}
		if r == ' ' {
			if space || b.Len() == 0 {
				continue
			}
			space = true
			b.WriteByte(' ')
			continue
		}
		space = false
		b.WriteRune(r)
	}
	out := strings.TrimRight(b.String(), " ")
	if len(out) > max {
		// Redact before cutting (see redactForCut).
		out = Redact(out)
	}
	if len(out) > max {
		cut := max - len("…")
		if cut < 0 {
			return ""
		}
		out = strings.TrimRight(msg.HeadBytes(out, cut), " ") + "…"
	}
	return out
}

// itoa formats a non-negative int without importing strconv everywhere.
func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var buf [20]byte
	i := len(buf)
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}

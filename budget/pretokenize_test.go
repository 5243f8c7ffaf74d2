package budget

import (
	"testing"

	"github.com/dlclark/regexp2"
	"github.com/stretchr/testify/require"
)

// regexpPieces splits s with the encoding's regexp2 pattern, as tiktoken-go
// does, returning the pieces.
func regexpPieces(t testing.TB, re *regexp2.Regexp, s string) []string {
	t.Helper()
	runes := []rune(s)
	var out []string
	m, err := re.FindStringMatch(s)
	require.NoError(t, err)
	for m != nil {
		out = append(out, string(runes[m.Index:m.Index+m.Length]))
		m, err = re.FindNextMatch(m)
		require.NoError(t, err)
	}
	return out
}

// scannerPieces splits s with the hand-written scanner.
func scannerPieces(next func(string, int) int, s string) []string {
	var out []string
	for i := 0; i < len(s); {
		j := next(s, i)
		if j <= i {
			return append(out, "<stuck>")
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// splitSamples are texts that exercise every alternative of both patterns.
var splitSamples = []string{
	"hello world", "Hello World", "HELLO world", "HTTPServer camelCase snake_case",
	"don't I'll we've they're it's I'M WE'LL 'S 'x 'Re", "x'sy",
	"<|endoftext|> <|fim_prefix|>", "a  b   c\td\t\te", "   leading", "trailing   ",
	"line\nbreak\r\nwin\n\n\n  \n  indented", " \n", "\n ", "a \n b", "  \t\n\t  x",
	"12345678 1,000,000 3.14159 ½ Ⅻ ²³", "path/to/file.go:12:4", "foo(bar, baz) { return x[i] }",
	"!!!???... --- === ***", " ...\n//\n/", "\"quoted\" 'single'", "x /= 2\n/* c */",
	"naïve café Привет мир Ελληνικά עברית العربية", "日本語のテキスト 中文文本 한국어",
	"emoji 👍🏽 🎉🎉 \u200d", "combining e\u0301 a\u0300\u0301 \u0301start", "ǅungla ǈ Ǆ",
	"ʰmodifier ʰʰa aʰ Aʰ", "\u00a0nbsp\u2003em\u3000ideo", "\x00\x01\x1f\x7f ctrl",
	"ABCdef GHIjkl MNOpqr'S", "ΑΒΓδεζ", "ꞗ Ꞗ", "\u0085nel", "\u200bzw\u200b",
	"", " ", "\n", "'", "'s", "a", "A", "1", "!", "\t",
}

func TestSplitMatchesRegexp(t *testing.T) {
	texts := append([]string(nil), splitSamples...)
	for _, msgs := range loadDir(t, "testdata") {
		for _, m := range msgs {
			texts = append(texts, messageTexts(m)...)
		}
	}
	for _, name := range []string{EncodingO200k, EncodingCL100k} {
		spec := encodingSpecs[name]
		re := regexp2.MustCompile(spec.pattern, regexp2.None)
		for _, s := range texts {
			require.Equal(t, regexpPieces(t, re, s), scannerPieces(spec.next, s), "%s: %q", name, s)
		}
	}
}

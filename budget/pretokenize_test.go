package budget

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	"github.com/stretchr/testify/assert"
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
	"emoji 👍🏽 🎉🎉 ‍", "combining e\u0301 a\u0300\u0301 \u0301start", "ǅungla ǈ Ǆ",
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

func TestCountMatchesTiktoken(t *testing.T) {
	texts := append([]string(nil), splitSamples...)
	texts = append(texts, "\xff\xfe invalid \xc3 utf8", strings.Repeat("=", 5000), strings.Repeat("ab", 3000),
		strings.Repeat(" ", 1000)+"x", strings.Repeat("🎉", 300))
	for _, msgs := range loadDir(t, "testdata") {
		for _, m := range msgs {
			texts = append(texts, strings.Join(messageTexts(m), "\n"))
		}
	}
	for _, name := range []string{EncodingO200k, EncodingCL100k} {
		enc, err := loadEncoder(name)
		require.NoError(t, err)
		ref := referenceCounter(t, name)
		for _, s := range texts {
			assert.Equal(t, ref(s), enc.count(s), "%s: %.80q", name, s)
		}
	}
}

// TestCountMatchesTiktokenCorpus compares the fast count with tiktoken-go
// on every text of the corpus (skipped when absent).
func TestCountMatchesTiktokenCorpus(t *testing.T) {
	if _, err := os.Stat(*corpusDir); err != nil {
		t.Skipf("corpus folder %s absent: %v", *corpusDir, err)
	}
	if testing.Short() {
		t.Skip("slow: tiktoken-go on the whole corpus")
	}
	for _, name := range []string{EncodingO200k, EncodingCL100k} {
		enc, err := loadEncoder(name)
		require.NoError(t, err)
		ref := referenceCounter(t, name)
		texts, tokens := 0, 0
		for file, msgs := range loadDir(t, *corpusDir) {
			for i, m := range msgs {
				for _, s := range messageTexts(m) {
					want := ref(s)
					require.Equal(t, want, enc.count(s), "%s: %s message %d", name, file, i)
					texts++
					tokens += want
				}
			}
		}
		t.Logf("%s: %d texts, %d tokens, all equal", name, texts, tokens)
	}
}

func TestBPEHeapMatchesScan(t *testing.T) {
	enc, err := loadEncoder(EncodingO200k)
	require.NoError(t, err)
	for _, s := range []string{"ab", "abc", "hello", "zzzzzzzzzzqqqq", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"xK8mN2pQr5vSjTyL9hB3zWc", "===================", "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"} {
		if len(s) > bpeHeapMin {
			continue
		}
		assert.Equal(t, enc.ranks.countScan(s), enc.ranks.countHeap(s), "%q", s)
	}
}

func FuzzCountMatchesTiktoken(f *testing.F) {
	for _, s := range splitSamples {
		f.Add(s)
	}
	o, err := loadEncoder(EncodingO200k)
	require.NoError(f, err)
	c, err := loadEncoder(EncodingCL100k)
	require.NoError(f, err)
	oRef, cRef := referenceCounter(f, EncodingO200k), referenceCounter(f, EncodingCL100k)
	oRegexp := regexp2.MustCompile(encodingSpecs[EncodingO200k].pattern, regexp2.None)
	cRegexp := regexp2.MustCompile(encodingSpecs[EncodingCL100k].pattern, regexp2.None)
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		require.Equal(t, oRef(s), o.count(s), "o200k %q", s)
		require.Equal(t, cRef(s), c.count(s), "cl100k %q", s)
		if utf8.ValidString(s) {
			require.Equal(t, regexpPieces(t, oRegexp, s), scannerPieces(nextO200k, s), "o200k split %q", s)
			require.Equal(t, regexpPieces(t, cRegexp, s), scannerPieces(nextCL100k, s), "cl100k split %q", s)
		}
		if len(s) >= 2 && len(s) <= bpeHeapMin {
			require.Equal(t, o.ranks.countScan(s), o.ranks.countHeap(s), "heap %q", s)
		}
	})
}

// TestEveryByteIsAToken backs bpeRanks.isToken's shortcut for 1-byte
// pieces and checks the two-byte table against the map.
func TestEveryByteIsAToken(t *testing.T) {
	for _, name := range []string{EncodingO200k, EncodingCL100k} {
		enc, err := loadEncoder(name)
		require.NoError(t, err)
		for b := 0; b < 256; b++ {
			_, ok := enc.ranks.ranks[string([]byte{byte(b)})]
			require.True(t, ok, "%s byte %#x", name, b)
		}
		pairs := 0
		for tok, rank := range enc.ranks.ranks {
			if len(tok) == 2 {
				pairs++
				require.Equal(t, rank, enc.ranks.rank(tok))
			}
		}
		assert.Equal(t, pairs, countNonNegative(enc.ranks.pairs), name)
	}
}

func countNonNegative(xs []int32) int {
	n := 0
	for _, x := range xs {
		if x >= 0 {
			n++
		}
	}
	return n
}

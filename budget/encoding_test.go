package budget

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// offlineReference builds a tiktoken-go encoder from the loader package's
// own parser of the embedded files, independently of parseRanks, without
// touching tiktoken-go's global loader.
func offlineReference(t testing.TB, name string) *tiktoken.Tiktoken {
	t.Helper()
	spec := encodingSpecs[name]
	ranks, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(spec.file)
	require.NoError(t, err)
	core, err := tiktoken.NewCoreBPE(ranks, spec.special, spec.pattern)
	require.NoError(t, err)
	return tiktoken.NewTiktoken(core, &tiktoken.Encoding{Name: name, PatStr: spec.pattern,
		MergeableRanks: ranks, SpecialTokens: spec.special}, map[string]any{})
}

var (
	referenceMu sync.Mutex
	references  = map[string]*tiktoken.Tiktoken{}
)

// referenceCounter returns len(EncodeOrdinary(text)) of tiktoken-go's own
// encoder for name (built once per test binary with offlineReference).
func referenceCounter(t testing.TB, name string) func(string) int {
	t.Helper()
	referenceMu.Lock()
	defer referenceMu.Unlock()
	tk, ok := references[name]
	if !ok {
		tk = offlineReference(t, name)
		references[name] = tk
	}
	return func(text string) int { return len(tk.EncodeOrdinary(text)) }
}

func TestCountMatchesOfflineTiktoken(t *testing.T) {
	texts := append([]string{"<|endoftext|>", "a <|endoftext|> b <|endofprompt|><|fim_prefix|>"}, splitSamples...)
	for _, name := range []string{EncodingO200k, EncodingCL100k} {
		ref := referenceCounter(t, name)
		c, err := NewEncodingCounter(name)
		require.NoError(t, err)
		for _, s := range texts {
			assert.Equal(t, ref(s), c.Count(s), "%s %q", name, s)
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
	if testing.Short() {
		t.Skip("slow: tiktoken-go on the whole corpus")
	}
	corpus := loadCorpus(t)
	for _, name := range []string{EncodingO200k, EncodingCL100k} {
		enc, err := loadEncoder(name)
		require.NoError(t, err)
		ref := referenceCounter(t, name)
		texts, tokens := 0, 0
		for file, msgs := range corpus {
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
		// Exact only where no piece can pass longPieceWindow as count reads
		// the text (invalid bytes read as U+FFFD, three bytes each); longer
		// pieces are counted window by window (FuzzCountLongPiece).
		read := s
		if !utf8.ValidString(s) {
			read = string([]rune(s))
		}
		if len(read) > longPieceWindow {
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

func TestParseRanks(t *testing.T) {
	ranks, err := parseRanks([]byte("YQ== 0\nYg== 1\n\nYWI= 2\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"a": 0, "b": 1, "ab": 2}, ranks)

	for name, data := range map[string]string{
		"missing rank": "YQ==\n",
		"bad base64":   "!!!! 0\n",
		"bad rank":     "YQ== x\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := parseRanks([]byte(data))
			assert.ErrorContains(t, err, "line 1")
		})
	}
}

func TestLoadEncoder(t *testing.T) {
	_, err := loadEncoder("r50k_base")
	assert.ErrorContains(t, err, "unknown encoding")
	a, err := loadEncoder(EncodingO200k)
	require.NoError(t, err)
	b, err := loadEncoder(EncodingO200k)
	require.NoError(t, err)
	assert.Same(t, a, b, "loaded once, shared")
	assert.Zero(t, a.count(""))
}

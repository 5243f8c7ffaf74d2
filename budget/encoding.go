package budget

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go"
	"github.com/pkoukk/tiktoken-go-loader/assets"

	"github.com/agentcompact/compact/internal/idtext"
)

// Encoding names accepted by NewEncodingCounter and returned by
// EncodingForModel and TokenCounter.Encoding.
const (
	// EncodingO200k is OpenAI's o200k_base BPE (gpt-4o, gpt-4.1, gpt-4.5,
	// gpt-5, o1, o3, o4-mini).
	EncodingO200k = "o200k_base"
	// EncodingCL100k is OpenAI's cl100k_base BPE (gpt-4, gpt-4-turbo,
	// gpt-3.5-turbo, text-embedding-3).
	EncodingCL100k = "cl100k_base"
	// EncodingEstimate is the conservative estimate used for models without
	// a public tokenizer; see EstimateTokens.
	EncodingEstimate = "estimate"
	// EncodingCustom is reported by a TokenCounter built by NewMessageCounter
	// around a caller-supplied Counter.
	EncodingCustom = "custom"
)

// encodingSpec holds what tiktoken-go's own encoding.go uses to build an
// encoding: the embedded BPE file, the split pattern and the special tokens.
// The counter runs next, a hand-written scanner equivalent to pattern (see
// pretokenize.go); pattern and special build tiktoken-go's own encoder in
// the tests, which check that both agree.
type encodingSpec struct {
	file    string
	pattern string
	special map[string]int
	next    func(string, int) int // pattern as a hand-written scanner
}

var encodingSpecs = map[string]encodingSpec{
	EncodingO200k: {
		file: "o200k_base.tiktoken",
		pattern: strings.Join([]string{
			`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
			`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
			`\p{N}{1,3}`,
			` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
			`\s*[\r\n]+`,
			`\s+(?!\S)`,
			`\s+`,
		}, "|"),
		next: nextO200k,
		special: map[string]int{
			tiktoken.ENDOFTEXT:   199999,
			tiktoken.ENDOFPROMPT: 200018,
		},
	},
	EncodingCL100k: {
		file:    "cl100k_base.tiktoken",
		pattern: `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
		next:    nextCL100k,
		special: map[string]int{
			tiktoken.ENDOFTEXT:   100257,
			tiktoken.FIM_PREFIX:  100258,
			tiktoken.FIM_MIDDLE:  100259,
			tiktoken.FIM_SUFFIX:  100260,
			tiktoken.ENDOFPROMPT: 100276,
		},
	},
}

// encoder is one loaded BPE encoding, shared by every TokenCounter using
// it. It is immutable after construction and safe for concurrent use.
type encoder struct {
	name  string
	ranks *bpeRanks             // BPE merge ranks of the encoding
	next  func(string, int) int // its split pattern as a scanner
}

// count returns the number of tokens of text, treating special-token
// strings such as "<|endoftext|>" as ordinary text: the length of
// tiktoken-go's EncodeOrdinary(text) for the same encoding, computed without
// regexp2 and without building token slices. Invalid UTF-8 is read the way
// tiktoken-go reads it (each invalid byte becomes U+FFFD). A pre-token over
// 4 KiB (a run without separators) is counted window by window
// (longPieces): within two tokens or so per window of the exact count, in
// linear time and memory.
func (e *encoder) count(text string) int {
	if text == "" {
		return 0
	}
	if !utf8.ValidString(text) {
		text = string([]rune(text))
	}
	n := 0
	var long *longPieces // pieces over longPieceWindow bytes: see longPieces
	for i := 0; i < len(text); {
		j := e.next(text, i)
		if j <= i || j > len(text) { // cannot happen; never loop or panic
			j = len(text)
		}
		if j-i > longPieceWindow {
			if long == nil {
				long = &longPieces{ranks: e.ranks}
			}
			n += long.count(text[i:j])
		} else {
			n += e.ranks.count(text[i:j])
		}
		i = j
	}
	return n
}

// encoderSlot loads one encoding at most once.
type encoderSlot struct {
	once sync.Once
	enc  *encoder
	err  error
}

// encoders is the package's lazily filled cache of loaded encodings; it is
// the only package-level state and is written once per encoding.
var encoders = map[string]*encoderSlot{
	EncodingO200k:  {},
	EncodingCL100k: {},
}

// loadEncoder returns the shared encoder for name, building it from the
// BPE data embedded by tiktoken-go-loader on first use (about 0.2 s for
// o200k_base), never per call. It never touches tiktoken-go's global loader
// and never reaches the network.
func loadEncoder(name string) (*encoder, error) {
	slot, ok := encoders[name]
	if !ok {
		return nil, fmt.Errorf("budget: unknown encoding %s", idtext.Quote(name))
	}
	slot.once.Do(func() {
		slot.enc, slot.err = buildEncoder(name, encodingSpecs[name])
	})
	return slot.enc, slot.err
}

func buildEncoder(name string, spec encodingSpec) (*encoder, error) {
	data, err := assets.Assets.ReadFile(spec.file)
	if err != nil {
		return nil, fmt.Errorf("budget: read embedded encoding %s: %w", spec.file, err)
	}
	ranks, err := parseRanks(data)
	if err != nil {
		return nil, fmt.Errorf("budget: parse embedded encoding %s: %w", spec.file, err)
	}
	return &encoder{name: name, ranks: newBPERanks(ranks), next: spec.next}, nil
}

// parseRanks parses a .tiktoken file: one "base64(token) rank" per line.
func parseRanks(data []byte) (map[string]int, error) {
	ranks := make(map[string]int, bytes.Count(data, []byte{'\n'})+1)
	sc := bufio.NewScanner(bytes.NewReader(data))
	buf := make([]byte, 0, 256)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(b) == 0 {
			continue
		}
		sp := bytes.IndexByte(b, ' ')
		if sp < 0 {
			return nil, fmt.Errorf("line %d: missing rank", line)
		}
		buf = buf[:base64.StdEncoding.DecodedLen(sp)]
		n, err := base64.StdEncoding.Decode(buf, b[:sp])
		if err != nil {
			return nil, fmt.Errorf("line %d: decode token: %w", line, err)
		}
		rank, err := strconv.Atoi(string(b[sp+1:]))
		if err != nil {
			return nil, fmt.Errorf("line %d: parse rank: %w", line, err)
		}
		ranks[string(buf[:n])] = rank
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("scan: %w", err)
	}
	return ranks, nil
}

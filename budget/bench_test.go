package budget

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
	"github.com/tmc/langchaingo/llms"
)

// benchText is every text of the testdata trajectories, joined.
func benchText(tb testing.TB) string {
	tb.Helper()
	var sb strings.Builder
	for _, msgs := range testdataMessages(tb) {
		for _, m := range msgs {
			for _, s := range messageTexts(m) {
				sb.WriteString(s)
				sb.WriteByte('\n')
			}
		}
	}
	return sb.String()
}

// testdataMessages returns the testdata trajectories in file-name order.
func testdataMessages(tb testing.TB) [][]llms.MessageContent {
	tb.Helper()
	trajs := loadDir(tb, "testdata")
	names := make([]string, 0, len(trajs))
	for name := range trajs {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([][]llms.MessageContent, len(names))
	for i, name := range names {
		out[i] = trajs[name]
	}
	return out
}

var plainOnce sync.Once

// plainTiktoken returns tiktoken-go's own encoder, as an application would
// get it: through the package-global loader (set here, in the test binary
// only, to the offline loader so that nothing reaches the network).
func plainTiktoken(b *testing.B, name string) *tiktoken.Tiktoken {
	b.Helper()
	plainOnce.Do(func() { tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader()) })
	tk, err := tiktoken.GetEncoding(name)
	if err != nil {
		b.Fatal(err)
	}
	return tk
}

// BenchmarkCount compares this package's exact count with plain tiktoken-go
// (len(EncodeOrdinary)) and with the estimate, on the testdata text.
func BenchmarkCount(b *testing.B) {
	text := benchText(b)
	for _, name := range []string{EncodingO200k, EncodingCL100k} {
		b.Run("budget/"+name, func(b *testing.B) {
			c, err := NewEncodingCounter(name, WithCacheSize(0)) // the tokenizer, not a cached answer
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c.Count(text)
			}
		})
		b.Run("tiktoken-go/"+name, func(b *testing.B) {
			tk := plainTiktoken(b, name)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_ = len(tk.EncodeOrdinary(text))
			}
		})
	}
	b.Run("budget/estimate", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			EstimateTokens(text)
		}
	})
}

// benchMessages returns n distinct corpus-like messages (the testdata
// messages, repeated, each made unique by a suffix) and their text size.
func benchMessages(b *testing.B, n int) ([]llms.MessageContent, int64) {
	b.Helper()
	var base []llms.MessageContent
	for _, msgs := range testdataMessages(b) {
		base = append(base, msgs...)
	}
	out := make([]llms.MessageContent, n)
	var size int64
	for i := range out {
		m := base[i%len(base)]
		parts := append([]llms.ContentPart(nil), m.Parts...)
		parts = append(parts, llms.TextPart(fmt.Sprintf(" #%d", i)))
		out[i] = llms.MessageContent{Role: m.Role, Parts: parts}
		for _, s := range messageTexts(out[i]) {
			size += int64(len(s))
		}
	}
	return out, size
}

// BenchmarkCountMessagesCached counts 1,000 messages whose counts are all
// cached: what the engine pays on every call after the first.
func BenchmarkCountMessagesCached(b *testing.B) {
	msgs, size := benchMessages(b, 1000)
	for _, name := range []string{EncodingO200k, EncodingEstimate} {
		b.Run(name, func(b *testing.B) {
			c, err := NewEncodingCounter(name)
			if err != nil {
				b.Fatal(err)
			}
			c.CountMessages(msgs) // warm
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c.CountMessages(msgs)
			}
		})
	}
}

// BenchmarkCountMessagesCold counts 1,000 messages with an empty cache (a
// new counter per iteration): hashing, counting and filling the cache.
func BenchmarkCountMessagesCold(b *testing.B) {
	msgs, size := benchMessages(b, 1000)
	for _, name := range []string{EncodingO200k, EncodingEstimate} {
		b.Run(name, func(b *testing.B) {
			if _, err := NewEncodingCounter(name); err != nil { // load the encoding
				b.Fatal(err)
			}
			b.SetBytes(size)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c, err := NewEncodingCounter(name)
				if err != nil {
					b.Fatal(err)
				}
				c.CountMessages(msgs)
			}
		})
	}
}

// BenchmarkCountLongRun measures the worst case of byte-pair encoding: one
// pre-token of a megabyte (a run of one letter, as a hostile or broken
// model reply can be), merged with the heap in O(n log n).
func BenchmarkCountLongRun(b *testing.B) {
	c, err := NewEncodingCounter("o200k_base", WithCacheSize(0)) // the tokenizer, not a cached answer
	if err != nil {
		b.Fatal(err)
	}
	text := strings.Repeat("a", 1<<20)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if c.Count(text) == 0 {
			b.Fatal("no tokens")
		}
	}
}

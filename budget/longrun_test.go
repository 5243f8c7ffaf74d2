package budget

import (
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// proseOf returns n bytes of the testdata trajectories' text, repeated.
func proseOf(tb testing.TB, n int) string {
	tb.Helper()
	base := benchText(tb)
	return strings.Repeat(base, n/len(base)+1)[:n]
}

// allocatedPerByte returns the bytes allocated by one count of text, per
// byte of text.
func allocatedPerByte(e *encoder, text string) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	e.count(text)
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(len(text))
}

// TestCountLongRunMemory checks that counting a run of one letter (one
// pre-token of megabytes) allocates at most 16 bytes per input byte
// (issue 24, item 6; it allocated 41), as do other long pieces.
func TestCountLongRunMemory(t *testing.T) {
	e, err := loadEncoder(EncodingO200k)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"run of one letter": strings.Repeat("x", 4<<20),
		"long random word":  strings.Repeat("qwertyuiopasdfghjklzxcvbnmQWERTYUIOPLKJHGFDSAZXCVBNMmnbvcxz", 4<<20/58),
	} {
		if got := allocatedPerByte(e, text); got > 16 {
			t.Errorf("%s: %.1f bytes allocated per input byte, want <= 16", name, got)
		}
	}
}

// TestCountLongPieceClose checks that a piece counted window by window
// stays within two tokens per window of the exact byte-pair count.
func TestCountLongPieceClose(t *testing.T) {
	e, err := loadEncoder(EncodingO200k)
	if err != nil {
		t.Fatal(err)
	}
	for _, piece := range []string{
		strings.Repeat("x", 3*longPieceWindow+17),
		strings.Repeat("abcdefghij", 3*longPieceWindow/10),
		strings.Repeat("é", 2*longPieceWindow),
	} {
		exact := e.ranks.countHeap(piece)
		got := e.count(piece)
		windows := len(piece)/longPieceWindow + 1
		if got < exact-2*windows || got > exact+2*windows {
			t.Errorf("len %d: %d tokens window by window, exact %d (windows %d)", len(piece), got, exact, windows)
		}
	}
}

// BenchmarkCountRunVsProse compares counting a run of one letter with
// counting prose of the same size (8 MB): the run must take at most 3
// times as long, and allocate at most 16 bytes per input byte (the
// B/inbyte metric).
func BenchmarkCountRunVsProse(b *testing.B) {
	e, err := loadEncoder(EncodingO200k)
	if err != nil {
		b.Fatal(err)
	}
	const size = 8 << 20
	for _, tc := range []struct{ name, text string }{
		{"prose", proseOf(b, size)},
		{"run", strings.Repeat("x", size)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for i := 0; i < b.N; i++ {
				if e.count(tc.text) == 0 {
					b.Fatal("no tokens")
				}
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/size, "B/inbyte")
		})
	}
}

// FuzzCountLongPiece checks the windowed count of long pieces: a seed
// repeated past 4 KiB counts within two tokens per window of the exact
// byte-pair count of the pieces, and never panics.
func FuzzCountLongPiece(f *testing.F) {
	f.Add("x", 3)
	f.Add("abcdefghij", 2)
	f.Add("é", 5)
	f.Add("QwErTy", 1)
	e, err := loadEncoder(EncodingO200k)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, seed string, k int) {
		if seed == "" {
			return
		}
		text := strings.Repeat(seed, (longPieceWindow*(1+abs(k)%4))/len(seed)+1)
		got := e.count(text)
		if !utf8.ValidString(text) {
			text = string([]rune(text)) // as count reads it
		}
		exact, windows := 0, 0
		for i := 0; i < len(text); {
			j := e.next(text, i)
			if j <= i || j > len(text) {
				j = len(text)
			}
			piece := text[i:j]
			if len(piece) >= bpeHeapMin {
				exact += e.ranks.countHeap(piece)
			} else {
				exact += e.ranks.count(piece)
			}
			if len(piece) > longPieceWindow {
				windows += len(piece)/longPieceWindow + 1
			}
			i = j
		}
		if got < exact-2*windows || got > exact+2*windows {
			t.Fatalf("%d tokens, exact %d, %d windows", got, exact, windows)
		}
	})
}

func abs(k int) int {
	if k < 0 {
		return -k
	}
	return k
}

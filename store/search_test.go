package store

import (
	"slices"
	"strings"
	"testing"
)

var eachWordSeeds = []string{
	"", "Hello, World!", "turn 12: look at handler_12.go", "ÉCOLE naïve café", "a\u212Ab", "İstanbul x",
	"\xff\xfeabc", "x1y2 Z3", "don't stop", "日本語のテキスト and English", "--==--", "A", "a b  c",
}

// checkEachWord: eachWord yields what strings.FieldsFunc splits the
// lower-cased text into at every character but a letter or digit, and
// stops when told to.
func checkEachWord(t *testing.T, s string) {
	want := strings.FieldsFunc(strings.ToLower(s), notWordRune)
	var got []string
	eachWord(s, func(w string) bool { got = append(got, w); return true })
	if !slices.Equal(got, want) {
		t.Fatalf("eachWord(%q) = %q, FieldsFunc %q", s, got, want)
	}
	if len(want) > 1 {
		got = got[:0]
		eachWord(s, func(w string) bool { got = append(got, w); return len(got) < 1 })
		if len(got) != 1 {
			t.Fatalf("eachWord(%q) went on after false: %q", s, got)
		}
	}
}

// FuzzEachWord runs checkEachWord; under go test, on its seeds.
func FuzzEachWord(f *testing.F) {
	for _, s := range eachWordSeeds {
		f.Add(s)
	}
	f.Fuzz(checkEachWord)
}

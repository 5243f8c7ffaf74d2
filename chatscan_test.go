package compact

import (
	"regexp"
	"slices"
	"testing"
)

// The expressions the scans replace: capitalNames, factKeys and
// splitSentences.
var (
	refFactName = regexp.MustCompile(`[^.!?\s]\s+([A-Z][\p{L}'-]+)`)
	refFactKey  = regexp.MustCompile(`\b([A-Z][\p{L}'-]+|\d[\d.,:/-]*)\b`)
	refSentEnd  = regexp.MustCompile(`[.!?]+\s+|\n+`)
)

var chatNameSeeds = []string{
	"met Anna Bell Carter", "I met Anna. Bob came", "Hi  Zoë and\tO'Brien-Smith", "x A", "x Ab", "?  Ab",
	" Ab", "Ab cd Ef", "é Émile x Éa", "a\u00a0Bob", "\xff Ab", "\xe2\x82 Ab", "a\n\nBob's", "1 Z'", "", "a ",
	"well Bob, Carl and Dan Eve", "x\r\nY-", "!Ab", "a Bc\x80d", "k \xf0\x9f\x98\x80 Ab",
}

func checkCapitalNames(t *testing.T, s string) {
	var want []string
	for _, m := range refFactName.FindAllStringSubmatch(s, -1) {
		want = append(want, m[1])
	}
	var got []string
	capitalNames(s, func(n string) bool { got = append(got, n); return true })
	if !slices.Equal(got, want) {
		t.Errorf("capitalNames(%q) = %q, the expression %q", s, got, want)
	}
	if hasCapitalName(s) != refFactName.MatchString(s) {
		t.Errorf("hasCapitalName(%q) = %v, the expression %v", s, hasCapitalName(s), refFactName.MatchString(s))
	}
}

// FuzzCapitalNames runs checkCapitalNames; under go test, on its seeds.
func FuzzCapitalNames(f *testing.F) { fuzzText(f, checkCapitalNames, chatNameSeeds) }

// checkSentenceKeys: splitSentences and factKeys find what their
// expressions find, and a message's key terms are its sentences' key
// terms, in order (collectFacts finds them sentence by sentence).
func checkSentenceKeys(t *testing.T, s string) {
	if got, want := splitSentences(s), refSentEnd.Split(s, -1); !slices.Equal(got, want) {
		t.Errorf("splitSentences(%q) = %q, the expression %q", s, got, want)
	}
	want := refFactKey.FindAllString(s, -1)
	if got := factKeys(s); !slices.Equal(got, want) {
		t.Errorf("factKeys(%q) = %q, the expression %q", s, got, want)
	}
	var got []string
	for _, st := range splitSentences(s) {
		got = append(got, factKeys(st)...)
	}
	if !slices.Equal(got, want) {
		t.Errorf("key terms of %q: by sentence %q, whole %q", s, got, want)
	}
}

func FuzzSentenceKeys(f *testing.F) {
	fuzzText(f, checkSentenceKeys, chatNameSeeds, "v1.2. Next", "It cost 3.\n4 Ab", "At 10:30! Then Bob?", "1.\n\n2", "x.1 Y",
		"", "\n", "a.\n", ".. !? x", "a.b. C", "Ab-", "Ab'_", "A\u00e9x", "9.", "1,2,3/4-", "x1 2x _3 A_", "\xffAb \xff9", "ÉA Ab\u0301c", "A- b", "3:-", "Ab- 12-ab")
}

// checkIDCandidate: wherever factID matches, idCandidate holds.
func checkIDCandidate(t *testing.T, s string) {
	if factID.MatchString(s) && !idCandidate(s) {
		t.Errorf("factID matches %q, idCandidate says it cannot", s)
	}
}

func FuzzIDCandidate(f *testing.F) {
	fuzzText(f, checkIDCandidate, chatNameSeeds, "PR-142 is open", "v2.1", "build_7/x", "a@b.co", "3.", "12/", "é1-x", "1-", "x1.@", "1 - 2", "5th.")
}

// fuzzText fuzzes check with the seeds and the more given; go test alone
// runs check on each of them.
func fuzzText(f *testing.F, check func(*testing.T, string), seeds []string, more ...string) {
	for _, s := range slices.Concat(seeds, more) {
		f.Add(s)
	}
	f.Fuzz(check)
}

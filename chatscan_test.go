package compact

import (
	"regexp"
	"slices"
	"testing"
)

// refFactName is the expression capitalNames replaces.
var refFactName = regexp.MustCompile(`[^.!?\s]\s+([A-Z][\p{L}'-]+)`)

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

// checkSentenceKeys: a message's key terms (factKey) are its sentences'
// key terms, in order (collectFacts finds them sentence by sentence).
func checkSentenceKeys(t *testing.T, s string) {
	want := factKey.FindAllString(s, -1)
	var got []string
	for _, st := range sentEnd.Split(s, -1) {
		got = append(got, factKey.FindAllString(st, -1)...)
	}
	if !slices.Equal(got, want) {
		t.Errorf("key terms of %q: by sentence %q, whole %q", s, got, want)
	}
}

func FuzzSentenceKeys(f *testing.F) {
	fuzzText(f, checkSentenceKeys, chatNameSeeds, "v1.2. Next", "It cost 3.\n4 Ab", "At 10:30! Then Bob?", "1.\n\n2", "x.1 Y")
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

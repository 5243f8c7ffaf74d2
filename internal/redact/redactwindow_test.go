package redact

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// redactReference is Redact as it was before windows: every rule whose hint
// occurs is matched against the whole input. Redact must give the same
// result on every input.
func redactReference(s string) string {
	if len(s) < 8 {
		return s
	}
	var lower string
	for _, r := range secretRules {
		if len(r.hints) > 0 {
			hit := false
			if r.exact {
				hit = containsAny(s, r.hints)
			} else {
				if lower == "" {
					lower = strings.ToLower(s)
				}
				hit = containsAny(lower, r.hints)
			}
			if !hit {
				continue
			}
		}
		if !r.re.MatchString(s) {
			continue
		}
		if r.valueOK != nil {
			s = replaceValues(s, r)
		} else {
			s = r.re.ReplaceAllString(s, r.repl)
		}
		lower = ""
	}
	return s
}

// windowCases are inputs where a match reaches across lines or sits at a
// window's edge; padded past redactWindowMin they take the window path.
var windowCases = []string{
	"password:\n\n\n   Hq4PzL0vXn7RkT2bWc9YdJ5mEa8F\nnext",
	"api_key\n\n=\n\n  'abcd1234'\n",
	"export\n\nDB_PASSWORD=s3cr3t!\nDEBUG=1",
	"DB_PASSWORD\n=\nhunter2\n",
	"Authorization: Bearer\n\n abcdefghijklmnopqrstuvwxyz012345",
	"token\ntoken\ntoken\npassword = \n\n Zk29dh3kLm0q\n",
	"ok\n\u212aEY = 'abcd1234'\n", // the Kelvin sign lower-cases to "k"
	"\u023a token: ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
	"postgres://admin:hunter2@db:5432/app\r\nsecret_key=Abc123def456\f\n",
	"a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEvQIB\nabc\n-----END RSA PRIVATE KEY-----\nb",
	"AKIAIOSFODNN7EXAMPLE\nxoxb-123456789012-abcdefghijklmnop\neyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
	"monkey.py\nkeys/\ntokenizer.py\nsecrets/\npasswords.txt\n",
	`password='xtoken:"ab'cd" token = "efgh"`, "password=xtoken=abcdefgh12 x.secret: Zq9x8c7v6b5",
	`{"credentials": "abcd1234", "api-key": 'Zq9x8c7v'}` + "\nthe api key is `sk9x8c7v6b5` ok",
	"mypassword is Hunter2Pass9 but password\n\nwas\n  Hunter2Pass9",
	"\u00fcber TOKEN: ghp_0123456789abcdefghijklmnopqrstuvwxyzAB \u0130SECRET=x", "AKIA\u0130OSFODNN7EXAMPLE \u00e9 sk-\u212Aey",
}

// padded places c between filler lines on both sides so that the whole
// input is past redactWindowMin.
func padded(c string, filler string) string {
	pad := strings.Repeat(filler, redactWindowMin/len(filler)+1)
	return pad + c + "\n" + pad
}

// ruleHitsReference is the hint test as the rules define it: hints of
// case-insensitive rules are looked for in the Unicode lower-casing.
func ruleHitsReference(s string) uint32 {
	var hits uint32
	lower := strings.ToLower(s)
	for i, r := range secretRules {
		switch {
		case len(r.hints) == 0, r.exact && containsAny(s, r.hints), !r.exact && containsAny(lower, r.hints):
			hits |= 1 << i
		}
	}
	return hits
}

func TestRuleHits(t *testing.T) {
	require.LessOrEqual(t, len(secretRules), 32, "ruleHits keeps one bit per rule in a uint32")
	for _, r := range secretRules {
		for _, h := range r.hints {
			if !r.exact {
				assert.Equal(t, strings.ToLower(h), h, "%s: a case-insensitive hint is written in lower case", r.kind)
			}
		}
	}
	for _, s := range append(windowCases, "TOKEN", "AuthoriZation: BEARER x", "Private Key", "x://y", "API_KEY", "api_key", "") {
		assert.Equal(t, ruleHitsReference(s), ruleHits(s), "%q", s)
	}
}

func TestRedactWindowsSameAsWhole(t *testing.T) {
	for _, c := range windowCases {
		for _, filler := range []string{"plain line\n", "key\n", "\n", "x"} {
			in := padded(c, filler)
			assert.Equal(t, redactReference(in), Secrets(in), "%q padded with %q", c, filler)
		}
	}
}

// TestRedactWindowsCorpus compares Secrets with the whole-input reference
// on every long string of the corpus's trajectories.
func TestRedactWindowsCorpus(t *testing.T) {
	n := 0
	for _, text := range corpusTexts(t, redactWindowMin) {
		n++
		if got, want := Secrets(text), redactReference(text); got != want {
			t.Fatalf("a text of %d bytes: windowed redaction differs from the whole-input one", len(text))
		}
	}
	if n == 0 {
		t.Skip("no corpus text of redactWindowMin bytes or more: is ../shared there?")
	}
}

// corpusTexts returns the strings of at least min bytes in the JSONL
// trajectories of the shared corpus (none when it is absent).
func corpusTexts(t *testing.T, min int) []string {
	t.Helper()
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if len(x) >= min {
				out = append(out, x)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for _, dir := range []string{"../../../shared/eval/trajectories", "../../../shared/eval/frameworks"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range bytes.Split(data, []byte("\n")) {
				var v any
				if json.Unmarshal(line, &v) == nil {
					walk(v)
				}
			}
		}
	}
	return out
}

// FuzzRedactWindows checks that matching window by window gives the same
// result as matching the whole input, whatever the input.
func FuzzRedactWindows(f *testing.F) {
	for _, c := range windowCases {
		f.Add(c, "plain line\n")
		f.Add(c, "\n \n")
	}
	f.Fuzz(func(t *testing.T, c, filler string) {
		if filler == "" {
			filler = "\n"
		}
		if ruleHits(c) != ruleHitsReference(c) {
			t.Fatalf("ruleHits(%q) = %b, want %b", c, ruleHits(c), ruleHitsReference(c))
		}
		in := padded(c, filler)
		if len(in) > 1<<16 {
			return
		}
		if got, want := Secrets(in), redactReference(in); got != want {
			t.Fatalf("windowed %q\nwhole    %q\ninput    %q", got, want, in)
		}
	})
}

package redact

import (
	"testing"
	"unicode"
)

var nearSeeds = []string{
	"DB_PASSWORD=s3cr3t!\nDEBUG=1", "export GITHUB_TOKEN=abc123def", "API_KEY_ID = x", "MY_AUTH_X=1",
	`{"password": "hunter22", "user": "bob"}`, `api_key = 'abcd1234'`, `"token" : "abcd"`, "client_secret='wxyz'",
	"aws_secret_access_key = Hq4PzL0vXn7RkT2bWc9YdJ5mEa8F", "auth-token: abc123def456", "Password:\tHunter2Pass9",
	"the password is Hunter2Pass9", "my api key was sk9x8c7v6b5", "TOKEN = : x", "secret\n=\n'abcd'",
	"keyboard tokens: 12", "the key is in the drawer", "\u212Aey=abcdef123456", "\u017Fecret: 'abcd1234'",
	"", "key", "key =", "token is", "PASSWD\t=\t", "x.token=abcdefgh12", "api-key  :  \"v4lue\"",
	`credentials = "abcd1234"`, `db_credentials: 'hunter22pass'`, "key=key", "cache_key = make_key(x)",
	`password='xtoken:"ab'cd"`, "password=xtoken=abcdefgh12 more", "my api key is `sk9x8c7v6b5`",
	"the API_KEY: Zq9x8c7v6b5 ok", "mypassword is Hunter2Pass9", "a.b-c_secret_key = Abc123def456",
}

// checkNear: wherever a rule's expression matches, its necessary condition
// holds (else the condition would hide a secret from the rule).
func checkNear(t *testing.T, s string) {
	for i, r := range secretRules {
		if r.near != nil && r.re.MatchString(s) && !r.near.holds(s) {
			t.Errorf("rule %d (%s) matches %q, its condition says it cannot", i, r.kind, s)
		}
	}
}

func TestNearIsNecessary(t *testing.T) {
	for _, s := range nearSeeds {
		checkNear(t, s)
	}
	// And it is a filter: text that names a key without assigning it.
	for _, s := range []string{"keyboard tokens are counted", "the key is in the drawer"} {
		for _, r := range secretRules {
			if r.near != nil && r.kind != "prose" && r.near.holds(s) {
				t.Errorf("rule %s: condition holds for %q", r.kind, s)
			}
		}
	}
}

func FuzzNearIsNecessary(f *testing.F) {
	for _, s := range nearSeeds {
		f.Add(s)
	}
	f.Fuzz(checkNear)
}

// TestFoldRunes: the Kelvin sign and the long s are the only runes that
// fold to an ASCII letter (nearCond.scannable relies on it).
func TestFoldRunes(t *testing.T) {
	var got []rune
	for c := 'a'; c <= 'z'; c++ {
		for r := unicode.SimpleFold(c); r != c; r = unicode.SimpleFold(r) {
			if r > unicode.MaxASCII {
				got = append(got, r)
			}
		}
	}
	if len(got) != 2 || got[0] != '\u212A' || got[1] != '\u017F' {
		t.Fatalf("non-ASCII runes folding to ASCII letters: %q, want the Kelvin sign and the long s", got)
	}
}

// TestLowerToASCII: the dotted capital I and the Kelvin sign are the only
// runes past ASCII whose lower case is ASCII (ruleHits relies on it).
func TestLowerToASCII(t *testing.T) {
	var got []rune
	for r := rune(unicode.MaxASCII + 1); r <= unicode.MaxRune; r++ {
		if unicode.ToLower(r) <= unicode.MaxASCII {
			got = append(got, r)
		}
	}
	if len(got) != 2 || got[0] != '\u0130' || got[1] != '\u212A' {
		t.Fatalf("runes lower-casing to ASCII: %q, want the dotted capital I and the Kelvin sign", got)
	}
}

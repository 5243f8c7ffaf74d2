package redact

import "testing"

var nearSeeds = []string{
	"DB_PASSWORD=s3cr3t!\nDEBUG=1", "export GITHUB_TOKEN=abc123def", "API_KEY_ID = x", "MY_AUTH_X=1",
	`{"password": "hunter22", "user": "bob"}`, `api_key = 'abcd1234'`, `"token" : "abcd"`, "client_secret='wxyz'",
	"aws_secret_access_key = Hq4PzL0vXn7RkT2bWc9YdJ5mEa8F", "auth-token: abc123def456", "Password:\tHunter2Pass9",
	"the password is Hunter2Pass9", "my api key was sk9x8c7v6b5", "TOKEN = : x", "secret\n=\n'abcd'",
	"keyboard tokens: 12", "the key is in the drawer", "\u212Aey=abcdef123456", "\u017Fecret: 'abcd1234'",
	"", "key", "key =", "token is", "PASSWD\t=\t", "x.token=abcdefgh12", "api-key  :  \"v4lue\"",
}

// checkNear: wherever a rule's expression matches, its necessary condition
// holds (else the condition would hide a secret from the rule).
func checkNear(t *testing.T, s string) {
	for i, r := range secretRules {
		if r.near != nil && r.re.MatchString(s) && !r.near(s) {
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
			if r.near != nil && r.kind != "prose" && r.near(s) {
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

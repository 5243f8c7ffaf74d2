package reliability

import (
	"sort"
	"strings"
	"sync"
	"testing"
)

// The seeded secrets. Every value is fake but has the exact shape of the
// real thing (prefix, alphabet, length), so a pattern that would catch the
// real one catches it. None of them may appear in anything compaction
// derives: extracted facts, summaries (rule-based or LLM), the request sent
// to a summarizer model, events, logs, persisted state.

// seededSecret is one secret of the corpus: kind names its form, value is
// the sensitive string searched for in the outputs (the whole token, or the
// private part of a larger form), and text is how it is planted.
type seededSecret struct {
	kind  string
	value string
	text  string
}

// Fake secrets, built from parts so that they are easy to audit.
var (
	fakeAWSAccessKey = "AKIA" + "Z7Q2RZ5XN3WLT4PB"
	fakeAWSSecretKey = "9drTJvcXLB89" + "kE2yQ7yX0wzUh2kR1pLm3NaBWq3T"
	fakeAWSCredsKey  = "Hq4PzL0v" + "Xn7RkT2bWc9YdJ5mEa8FsG3uKi6OyB1t"
	fakeGHPToken     = "ghp_" + "R7d0Xq2LmN8vB4tY6wZ1cK3jH5gF9sPaE0uQ"
	fakeGHPatToken   = "github_pat_" + "11AZ3QK7Y0aB1cD2eF3gH4_" + "iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5eF6gH7iJ8kL9mN0oP1qR2sT3uV"
	fakeSlackToken   = "xoxb-" + "2048576123-4096123456789-" + "AbCdEfGhIjKlMnOpQrStUvWx"
	fakeOpenAIKey    = "sk-" + "Tz9Q8wE7rT6yU5iO4pA3sD2fG1hJ0kLzXcVbNmQwErTyUiOp"
	fakeOpenAIProj   = "sk-proj-" + "Ab3De5Gh7Jk9Mn1Pq3St5Vw7Yz9Bc1Df3Gh5Jk7Lm9Np1Qr3St5Vw7Xy9Za1Bc3De5"
	fakeAnthropicKey = "sk-ant-api03-" + "Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVbNm-Aq1Sw2De3Fr4Gt5Hy6"
	fakeKeyBody      = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"
	fakeRSABody      = "MIIEowIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi2bVm5M4L6Q9h7Jd8kXyZ"
	fakeDBPassword   = "Xk9mQ2vLp7wRt4zB"
	fakeURLPassword  = "gh0stP4ssw0rdZ9"
	fakeEnvPassword  = "Sup3rS3cretPassw0rd"
	fakeStripeKey    = "sk_live_" + "51HxAbCdEfGhIjKlMn0123456789"
	fakeJWT          = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSJ9" + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	fakeJSONSecret   = "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6"
	fakeComposePass  = "c0mp0seDbPa55word"
)

// secretCorpus returns the seeded secrets, each in the form it is planted.
func secretCorpus() []seededSecret {
	return []seededSecret{
		{"aws-access-key-id", fakeAWSAccessKey, "aws_access_key_id = " + fakeAWSAccessKey},
		{"aws-secret-key (credentials file)", fakeAWSCredsKey, "[default]\naws_access_key_id = " + fakeAWSAccessKey + "\naws_secret_access_key = " + fakeAWSCredsKey},
		{"aws-secret-key (.env)", fakeAWSSecretKey, "AWS_SECRET_ACCESS_KEY=" + fakeAWSSecretKey},
		{"github ghp_", fakeGHPToken, "git remote set-url origin https://x-access-token:" + fakeGHPToken + "@github.com/acme/app.git"},
		{"github ghp_ (bare)", fakeGHPToken, "the token is " + fakeGHPToken + " for CI"},
		{"github github_pat_", fakeGHPatToken, "GH_TOKEN: " + fakeGHPatToken},
		{"slack xoxb-", fakeSlackToken, "SLACK_BOT=" + fakeSlackToken + " (bot token)"},
		{"openai sk-", fakeOpenAIKey, "openai.api_key = " + fakeOpenAIKey},
		{"openai sk-proj-", fakeOpenAIProj, "export OPENAI_API_KEY=" + fakeOpenAIProj},
		{"anthropic sk-ant-", fakeAnthropicKey, "client = Anthropic(api_key=" + fakeAnthropicKey + ")"},
		{"openssh private key", fakeKeyBody, "-----BEGIN OPENSSH PRIVATE KEY-----\n" + fakeKeyBody + "\nQyNTUxOQAAACDx7kR9\n-----END OPENSSH PRIVATE KEY-----"},
		{"rsa private key", fakeRSABody, "-----BEGIN RSA PRIVATE KEY-----\n" + fakeRSABody + "\nabcdefghijklmnop\n-----END RSA PRIVATE KEY-----"},
		{"password in URL (postgres)", fakeDBPassword, "DATABASE_URL=postgres://appuser:" + fakeDBPassword + "@db.internal:5432/prod"},
		{"password in URL (https)", fakeURLPassword, "fetching https://deploy:" + fakeURLPassword + "@registry.example.com/v2/"},
		{".env password", fakeEnvPassword, "DB_PASSWORD=" + fakeEnvPassword},
		{".env stripe key", fakeStripeKey, "STRIPE_SECRET_KEY=" + fakeStripeKey},
		{"bearer JWT", fakeJWT, "Authorization: Bearer " + fakeJWT},
		{"JSON api_key", fakeJSONSecret, `{"service": "billing", "api_key": "` + fakeJSONSecret + `"}`},
		{"docker-compose environment list", fakeComposePass, "    environment:\n      - POSTGRES_PASSWORD=" + fakeComposePass},
	}
}

// secretValues returns the distinct sensitive values of the corpus.
func secretValues() []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range secretCorpus() {
		if !seen[s.value] {
			seen[s.value] = true
			out = append(out, s.value)
		}
	}
	return out
}

// secretKinds maps a sensitive value to the kinds of corpus entries that
// plant it.
func secretKinds(value string) string {
	var kinds []string
	for _, s := range secretCorpus() {
		if s.value == value {
			kinds = append(kinds, s.kind)
		}
	}
	return strings.Join(kinds, " / ")
}

// leakCounter counts secrets found in the surfaces compaction derives,
// by surface and secret kind. Safe for concurrent use.
type leakCounter struct {
	mu      sync.Mutex
	checked map[string]int    // surface -> texts checked
	leaks   map[string][]leak // surface -> leaks
}

type leak struct {
	value, where string
}

func newLeakCounter() *leakCounter {
	return &leakCounter{checked: map[string]int{}, leaks: map[string][]leak{}}
}

// scan looks for every seeded secret, and for its longest-16-byte core
// (a secret cut in half still leaks), in text, attributed to surface;
// where says what text is.
func (l *leakCounter) scan(surface, where, text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.checked[surface]++
	for _, v := range secretValues() {
		if strings.Contains(text, v) || strings.Contains(text, core(v)) {
			l.leaks[surface] = append(l.leaks[surface], leak{value: v, where: where})
		}
	}
}

// core is a distinctive 16-byte slice from the middle of a secret value.
func core(v string) string {
	if len(v) <= 16 {
		return v
	}
	mid := len(v) / 2
	return v[mid-8 : mid+8]
}

// report fails t with one line per leaking (surface, secret kind) pair and
// logs the table of surfaces checked.
func (l *leakCounter) report(t *testing.T) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var surfaces []string
	for s := range l.checked {
		surfaces = append(surfaces, s)
	}
	sort.Strings(surfaces)
	total := 0
	for _, s := range surfaces {
		byKind := map[string]int{}
		example := map[string]string{}
		for _, lk := range l.leaks[s] {
			k := secretKinds(lk.value)
			byKind[k]++
			example[k] = lk.where
		}
		t.Logf("surface %-34s texts checked %6d, leaks %d", s, l.checked[s], len(l.leaks[s]))
		var kinds []string
		for k := range byKind {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		for _, k := range kinds {
			t.Errorf("LEAK: %s: secret %q found %d times (e.g. in %s)", s, k, byKind[k], example[k])
		}
		total += len(l.leaks[s])
	}
	t.Logf("secrets leaked: %d", total)
}

// TestSecretCorpusShapes checks that the fake secrets have the shapes of
// the real ones, so that the leak tests test something.
func TestSecretCorpusShapes(t *testing.T) {
	shapes := map[string]struct {
		prefix string
		length int
	}{
		fakeAWSAccessKey: {"AKIA", 20},
		fakeAWSSecretKey: {"", 40},
		fakeAWSCredsKey:  {"", 40},
		fakeGHPToken:     {"ghp_", 40},
		fakeGHPatToken:   {"github_pat_", 93},
		fakeOpenAIKey:    {"sk-", 51},
	}
	for v, s := range shapes {
		if !strings.HasPrefix(v, s.prefix) || len(v) != s.length {
			t.Errorf("%q: want prefix %q and %d bytes, has %d", v, s.prefix, s.length, len(v))
		}
	}
	for _, s := range secretCorpus() {
		if !strings.Contains(s.text, s.value) {
			t.Errorf("%s: the planted text does not hold the value", s.kind)
		}
		if len(core(s.value)) < 15 {
			t.Errorf("%s: value %q too short to search for", s.kind, s.value)
		}
	}
	if len(secretCorpus()) < 15 {
		t.Errorf("corpus has %d forms", len(secretCorpus()))
	}
}

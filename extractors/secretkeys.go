package extractors

import (
	"strings"

	"github.com/agentcompact/compact/internal/redact"
)

// Redact returns s with secrets replaced by "[REDACTED:kind]": AWS access
// key ids, GitHub, Slack, OpenAI/Anthropic/Stripe/Google style API keys and
// tokens, JWTs, bearer tokens, private key blocks, passwords in URLs
// (scheme://user:password@host), .env style assignments to secret-named
// upper-case keys (API_KEY=..., DB_PASSWORD=...), and quoted literals
// assigned to secret-named keys in code, JSON or YAML ("password": "...").
// Redact is idempotent and safe for concurrent use; it runs in time linear
// in len(s).
func Redact(s string) string { return redact.Secrets(s) }

// SecretValues returns the secret values [Redact] removes from s (at most
// its first MiB is scanned), longest first, without repeats.
func SecretValues(s string) []string { return redact.SecretValues(s) }

// RedactValues returns s after [Redact], with every bare occurrence of one
// of values (secrets found elsewhere, see [SecretValues]) also replaced by
// "[REDACTED:secret]".
func RedactValues(s string, values []string) string { return redact.Values(s, values) }

// redacting wraps an extractor so that its facts and metadata are redacted.
func redacting(f Func) Extractor {
	return Func(func(call Call, output string) ToolSummary {
		s := f(call, output)
		for i, k := range s.KeyFacts {
			s.KeyFacts[i] = Redact(k)
		}
		for k, v := range s.Metadata {
			s.Metadata[k] = Redact(v)
		}
		return s
	})
}

// secretKeyWords are the words that make a key secret-named (see
// isSecretKey).
var secretKeyWords = []string{"key", "token", "secret", "passw", "passphrase", "credential", "authorization", "cookie"}

// isSecretKey reports whether a key (JSON, YAML, header, argument) names a
// secret: one holding key, token, secret, passw(or)d, passphrase,
// credential, authorization or cookie, or auth as a word, in any case
// (api_key, apiKey, x-api-key, sessionToken, db_password). Counts and
// words that merely contain them (input_tokens, keywords, author) are not.
// Values under a secret-named key are never identifiers nor facts.
func isSecretKey(k string) bool {
	l := strings.ToLower(k)
	if strings.Contains(l, "keyword") || strings.Contains(l, "tokens") || strings.Contains(l, "tokeniz") {
		return false
	}
	for _, w := range secretKeyWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return l == "auth" || strings.HasPrefix(l, "auth_") || strings.HasPrefix(l, "auth-") ||
		strings.HasSuffix(l, "_auth") || strings.HasSuffix(l, "-auth")
}

// redactSecretValues replaces, in place, every string under a
// secret-named key of v, a freshly decoded JSON value, by the redaction
// mark (secret says v itself is under one); numbers and booleans stay. It
// returns v.
func redactSecretValues(v any, secret bool) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = redactSecretValues(e, secret || isSecretKey(k))
		}
	case []any:
		for i, e := range x {
			x[i] = redactSecretValues(e, secret)
		}
	case string:
		if secret {
			return "[REDACTED:secret]"
		}
	}
	return v
}

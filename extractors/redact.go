package extractors

import (
	"regexp"
	"strings"
)

// secretRule is one redaction rule: re matches the secret and repl is its
// replacement (it may refer to submatches with ${name}).
type secretRule struct {
	kind string
	re   *regexp.Regexp
	repl string
	// hint is a cheap substring test (lower-cased input) that must succeed
	// for re to be tried; empty means always try.
	hints []string
	// exact makes the hints case-sensitive (tested on the input itself).
	exact bool
}

// secretRules are compiled once; they are immutable after init.
var secretRules = []secretRule{
	{
		kind:  "private-key",
		re:    regexp.MustCompile(`-----BEGIN[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----(?s:.*?)(-----END[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----|\z)`),
		repl:  "[REDACTED:private-key]",
		hints: []string{"private key"},
	},
	{
		kind:  "aws-key",
		re:    regexp.MustCompile(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[0-9A-Z]{16}\b`),
		repl:  "[REDACTED:aws-key]",
		hints: []string{"akia", "asia", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "abia", "acca"},
	},
	{
		kind:  "github-token",
		re:    regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})`),
		repl:  "[REDACTED:github-token]",
		hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
	},
	{
		kind:  "slack-token",
		re:    regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}|https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+`),
		repl:  "[REDACTED:slack-token]",
		hints: []string{"xox", "hooks.slack.com"},
	},
	{
		kind:  "api-key",
		re:    regexp.MustCompile(`\bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{20,}|\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}|\bAIza[0-9A-Za-z_-]{35}`),
		repl:  "[REDACTED:api-key]",
		hints: []string{"sk-", "k_live_", "k_test_", "aiza"},
	},
	{
		kind:  "jwt",
		re:    regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`),
		repl:  "[REDACTED:jwt]",
		hints: []string{"eyj"},
	},
	{
		kind:  "bearer",
		re:    regexp.MustCompile(`(?i)\b(bearer|token)(\s+)[A-Za-z0-9._~+/-]{20,}=*`),
		repl:  "${1}${2}[REDACTED:token]",
		hints: []string{"bearer", "token"},
	},
	{
		kind:  "url-password",
		re:    regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]{1,20}://[^\s:/@'"]+:)([^\s@/'"]+)@`),
		repl:  "${1}[REDACTED:password]@",
		hints: []string{"://"},
	},
	{
		// .env style: an upper-case key naming a secret at the start of a
		// line, with any value.
		kind:  "env",
		re:    regexp.MustCompile(`(?m)^(\s*(?:export\s+)?[A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)[A-Z0-9_]*\s*=\s*)([^\s\[][^\n]*)`),
		repl:  "${1}[REDACTED:env]",
		hints: []string{"SECRET", "TOKEN", "PASSW", "PASSPHRASE", "KEY", "CREDENTIAL", "AUTH"},
		exact: true,
	},
	{
		// key = "literal" anywhere, in any case, quoted (JSON, YAML, code).
		kind:  "assignment",
		re:    regexp.MustCompile(`(?i)(["']?[a-z0-9_.-]*(?:secret|token|password|passwd|passphrase|api_?key|access_?key|private_?key|client_?secret|credentials?)["']?\s*[:=]\s*)("[^"\s\[]{4,}"|'[^'\s\[]{4,}')`),
		repl:  "${1}\"[REDACTED:secret]\"",
		hints: []string{"secret", "token", "passw", "passphrase", "key", "credential"},
	},
}

// Redact returns s with secrets replaced by "[REDACTED:kind]": AWS access
// key ids, GitHub, Slack, OpenAI/Anthropic/Stripe/Google style API keys and
// tokens, JWTs, bearer tokens, private key blocks, passwords in URLs
// (scheme://user:password@host), .env style assignments to secret-named
// upper-case keys (API_KEY=..., DB_PASSWORD=...), and quoted literals
// assigned to secret-named keys in code, JSON or YAML ("password": "...").
// Redact is idempotent and safe for concurrent use; it runs in time linear
// in len(s).
func Redact(s string) string {
	if len(s) < 8 {
		return s
	}
	var lower string
	for _, r := range secretRules {
		if len(r.hints) > 0 {
			hay := s
			if !r.exact {
				if lower == "" {
					lower = strings.ToLower(s)
				}
				hay = lower
			}
			hit := false
			for _, h := range r.hints {
				if strings.Contains(hay, h) {
					hit = true
					break
				}
			}
			if !hit {
				continue
			}
		}
		if !r.re.MatchString(s) {
			continue
		}
		s = r.re.ReplaceAllString(s, r.repl)
		lower = ""
	}
	return s
}

package redact

import (
	"regexp"
	"slices"
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
	// valueOK, when set, decides per match whether submatch 2 (the value)
	// is replaced by repl; submatch 1 is kept.
	valueOK func(value string) bool
	// near, when set, is a necessary condition of a match (redactnear.go),
	// tested before re on what re would be matched against; its positions
	// are where a large input's windows go (redactwindow.go).
	near *nearCond
	// multiline marks a rule whose match may start lines before its hint
	// (a private key block): it is always matched against the whole input,
	// never window by window (redactwindow.go).
	multiline bool
}

// secretRules are compiled once; they are immutable after init. The
// credential forms of commands, headers and prose (redactforms.go) come
// after the token patterns, which they leave alone.
var secretRules = slices.Concat(patternRules, formRules)

// patternRules recognize secrets by their own shape or by the name they
// are assigned to.
var patternRules = []secretRule{
	{
		kind:      "private-key",
		re:        regexp.MustCompile(`-----BEGIN[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----(?s:.*?)(-----END[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----|\z)`),
		repl:      "[REDACTED:private-key]",
		hints:     []string{"private key"},
		multiline: true,
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
		// .env style: an upper-case key naming a secret, at the start of a
		// line or after a separator (docker -e, env dumps, lists), with any
		// value (quoted or up to the next blank).
		kind:  "env",
		re:    regexp.MustCompile(`(?m)(^|[\s,;:'"(\[=])((?:export\s+)?[A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)[A-Z0-9_]*\s*=\s*)("[^"\n]*"|'[^'\n]*'|[^\s\['"][^\s]*)`),
		repl:  "${1}${2}[REDACTED:env]",
		hints: []string{"SECRET", "TOKEN", "PASSW", "PASSPHRASE", "KEY", "CREDENTIAL", "AUTH"},
		exact: true,
		near:  nearEnv,
	},
	{
		// key = value in any case with an unquoted value (credentials and
		// INI files, logs): redacted when the value looks like a secret (8+
		// characters mixing letters and digits), so code such as
		// "password = request.POST" is left alone.
		kind:    "keyvalue",
		re:      regexp.MustCompile(`(?i)\b((?:[a-z0-9]+[_.-])*(?:aws_secret_access_key|aws_session_token|secret_access_key|client_secret|secret_key|api[_-]?key|apikey|access_?token|auth_?token|refresh_?token|private_?key|password|passwd|pwd|token|secret)\s*[:=]\s*)([^\s"'\[,;(){}<>]{8,})`),
		repl:    "[REDACTED:secret]",
		hints:   []string{"secret", "token", "passw", "pwd", "key"},
		valueOK: looksSecret,
		near:    nearKeyValue,
	},
	{
		// key = "literal" anywhere, in any case, quoted (JSON, YAML, code).
		kind:  "assignment",
		re:    regexp.MustCompile(`(?i)(["']?[a-z0-9_.-]*(?:secret|token|password|passwd|passphrase|api_?key|access_?key|private_?key|client_?secret|credentials?)["']?\s*[:=]\s*)("[^"\s\[]{4,}"|'[^'\s\[]{4,}')`),
		repl:  "${1}\"[REDACTED:secret]\"",
		hints: []string{"secret", "token", "passw", "passphrase", "key", "credential"},
		near:  nearAssignment,
	},
}

// Redact returns s with secrets replaced by "[REDACTED:kind]": AWS access
// key ids, GitHub, Slack, OpenAI/Anthropic/Stripe/Google style API keys and
// tokens, JWTs, bearer tokens, private key blocks, passwords in URLs
// (scheme://user:password@host), .env style assignments to secret-named
// upper-case keys (API_KEY=..., DB_PASSWORD=...), and quoted literals
// assigned to secret-named keys in code, JSON or YAML ("password": "...").
// Secrets is idempotent and safe for concurrent use; it runs in time linear
// in len(s).
func Secrets(s string) string {
	if len(s) < 8 {
		return s
	}
	hits := ruleHits(s)
	for i := range secretRules {
		if hits&(1<<i) == 0 {
			continue
		}
		if out, changed := secretRules[i].apply(s); changed {
			s = out
			// A replacement can bring a later rule's hint ("[REDACTED:secret]"
			// holds "secret") or remove one: test again.
			hits = ruleHits(s)
		}
	}
	return s
}

// ruleHits returns the set (bit i for secretRules[i]) of the rules whose
// cheap hint test succeeds on s: only those are worth a regular expression.
// The hints are ASCII, and the Unicode lower-casing of s keeps its ASCII
// letters' places among its other runes and lower-cases no other rune to
// ASCII but the dotted capital I and the Kelvin sign (TestLowerToASCII):
// input without those two is tested in one pass over its bytes
// (hintIndex); input with them as the hints are defined, on its Unicode
// lower-casing.
func ruleHits(s string) uint32 {
	if !strings.Contains(s, "\u0130") && !strings.Contains(s, "\u212A") {
		return ruleHitsASCII(s)
	}
	var hits uint32
	lower := strings.ToLower(s)
	for i, r := range secretRules {
		switch {
		case len(r.hints) == 0,
			r.exact && containsAny(s, r.hints),
			!r.exact && containsAny(lower, r.hints):
			hits |= 1 << i
		}
	}
	return hits
}

// hintRef is one hint of one rule in hintIndex.
type hintRef struct {
	hint string // lower-case unless exact
	bit  uint32 // the rule's bit in ruleHits' set
	fold bool   // compare ASCII letters case-insensitively
}

// hintIndex lists, for every byte, the hints that can start with it (a
// case-insensitive hint under both cases of its first letter); hintBits,
// the rules those hints belong to; hintSecond, the bytes that can follow
// it in a hint (every hint is at least two bytes long). Immutable after
// init.
var hintIndex, hintBits, hintSecond, hintAlways = buildHintIndex()

func buildHintIndex() (idx [256][]hintRef, bits [256]uint32, second [256][4]uint64, always uint32) {
	for i, r := range secretRules {
		if len(r.hints) == 0 {
			always |= 1 << i
		}
		for _, h := range r.hints {
			ref := hintRef{hint: h, bit: 1 << i, fold: !r.exact}
			for _, c := range caseForms(h[0], ref.fold) {
				idx[c] = append(idx[c], ref)
				bits[c] |= ref.bit
				for _, d := range caseForms(h[1], ref.fold) {
					second[c][d/64] |= 1 << (d % 64)
				}
			}
		}
	}
	return idx, bits, second, always
}

// caseForms returns c and, when fold is set and c is a lower-case letter,
// its upper case.
func caseForms(c byte, fold bool) []byte {
	if fold && c >= 'a' && c <= 'z' {
		return []byte{c, c - 'a' + 'A'}
	}
	return []byte{c}
}

// ruleHitsASCII is ruleHits for input whose lower-casing changes no byte
// to ASCII but the letters A-Z: bytes past ASCII start no hint.
func ruleHitsASCII(s string) uint32 {
	hits := hintAlways
	for i := 0; i+1 < len(s); i++ {
		c, d := s[i], s[i+1]
		if hits&hintBits[c] == hintBits[c] || hintSecond[c][d/64]&(1<<(d%64)) == 0 {
			continue
		}
		for _, ref := range hintIndex[c] {
			if hits&ref.bit == 0 && ref.at(s[i:]) {
				hits |= ref.bit
			}
		}
	}
	return hits
}

// at reports whether s starts with the hint.
func (ref hintRef) at(s string) bool {
	if len(s) < len(ref.hint) {
		return false
	}
	if !ref.fold {
		return s[:len(ref.hint)] == ref.hint
	}
	for j := 0; j < len(ref.hint); j++ {
		c := s[j]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != ref.hint[j] {
			return false
		}
	}
	return true
}

// apply replaces r's matches in s and reports whether it replaced any.
// Large inputs are matched window by window around the hints
// (redactwindow.go), with the same result as matching them whole.
func (r *secretRule) apply(s string) (string, bool) {
	if r.multiline || len(s) < redactWindowMin {
		return r.applyWhole(s)
	}
	return r.applyWindows(s)
}

// applyWhole matches r against the whole of s.
func (r *secretRule) applyWhole(s string) (string, bool) {
	if r.near != nil && !r.near.holds(s) || !r.re.MatchString(s) {
		return s, false
	}
	var out string
	if r.valueOK != nil {
		out = replaceValues(s, *r)
	} else {
		out = r.re.ReplaceAllString(s, r.repl)
	}
	return out, out != s
}

// replaceValues replaces submatch 2 of every match of r.re by r.repl when
// r.valueOK accepts it.
func replaceValues(s string, r secretRule) string {
	var b strings.Builder
	last := 0
	for _, m := range r.re.FindAllStringSubmatchIndex(s, -1) {
		if len(m) < 6 || m[4] < 0 || !r.valueOK(s[m[4]:m[5]]) {
			continue
		}
		b.WriteString(s[last:m[4]])
		b.WriteString(r.repl)
		last = m[5]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// looksSecret reports whether an unquoted value looks like a secret rather
// than code: no dots or parentheses of a reference (self.password,
// os.environ), and letters mixed with digits, or a capitalized mixed-case
// word (CorrectHorseBattery), or letters with punctuation (Pa$$-w0rd!).
// Lower-case or camelCase words (db_password, getPassword) are code.
func looksSecret(v string) bool {
	if v == "" {
		return false
	}
	if strings.ContainsAny(v, ".()[]$%") && !strings.Contains(v, "/") {
		return false
	}
	letters, digits, upper, lower, punct := 0, 0, 0, 0, 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'z':
			letters++
			lower++
		case c >= 'A' && c <= 'Z':
			letters++
			upper++
		case strings.IndexByte("!@#^&*+~-=?", c) >= 0:
			punct++
		}
	}
	capitalized := v[0] >= 'A' && v[0] <= 'Z' && upper >= 2 && lower > 0
	return letters > 0 && (digits > 0 || capitalized || punct > 0)
}

// isASCII reports whether s holds only ASCII bytes.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// containsAny reports whether s contains any of subs.
func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

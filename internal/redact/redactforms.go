package redact

import (
	"regexp"
	"strings"
)

// secretValue is the value of a credential form: quoted, or up to the next
// blank; a value already redacted ("[REDACTED:...]") is not matched again.
const secretValue = `'[^'\n]*'|"[^"\n]*"|[^\s'"\[]\S*`

// formRules redact credentials by the form that carries them rather than
// by their shape: command-line passwords (mysql -pPASS, --password X,
// sshpass -p, curl -u user:pass), authorization and secret-named HTTP
// headers (Authorization: Basic ..., X-Api-Key: ..., Cookie: ...), and
// prose ("the password is X"). Submatch 1 (the form) is kept, submatch 2
// (the value) replaced.
var formRules = []secretRule{
	{
		kind:    "mysql-password",
		re:      regexp.MustCompile(`(?i)((?:^|[\s;&|(` + "`" + `])(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb|mariadb-dump)\b[^\n]*?\s-p)(` + secretValue + `)`),
		repl:    "[REDACTED:password]",
		hints:   []string{"mysql", "mariadb"},
		valueOK: notEmpty,
	},
	{
		kind:    "sshpass",
		re:      regexp.MustCompile(`(?i)(\bsshpass\s+(?:-[a-oq-z]\S*\s+)*-p\s*)(` + secretValue + `)`),
		repl:    "[REDACTED:password]",
		hints:   []string{"sshpass"},
		valueOK: notEmpty,
	},
	{
		kind:    "option-password",
		re:      regexp.MustCompile(`(?i)((?:^|\s)--(?:[a-z0-9]+-)*(?:password|passwd|pass|token|secret|api-?key|access-key|secret-key|client-secret)(?:\s+|=))(` + secretValue + `)`),
		repl:    "[REDACTED:password]",
		hints:   []string{"--"},
		valueOK: notEmpty,
	},
	{
		kind:    "user-password",
		re:      regexp.MustCompile(`((?:^|\s)(?:-u|--user|--proxy-user|--auth)(?:\s+|=)?['"]?[^\s:'"@/]+:)([^\s'"\[][^\s'"]*)`),
		repl:    "[REDACTED:password]",
		hints:   []string{"-u", "--user", "--proxy-user", "--auth"},
		exact:   true,
		valueOK: notEmpty,
	},
	{
		kind:    "authorization",
		re:      regexp.MustCompile(`(?i)(\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:basic|bearer|digest|token|negotiate|ntlm|apikey|aws4-hmac-sha256|sso-key|key)\s+)?)([^\s'"\[][^\n'"]*)`),
		repl:    "[REDACTED:auth]",
		hints:   []string{"authorization"},
		valueOK: notRedacted,
	},
	{
		kind:    "header",
		re:      regexp.MustCompile(`(?im)((?:^|[\s"'])(?:x-[a-z0-9-]*(?:api-?key|token|secret|auth|signature|password|session)[a-z0-9-]*|api-?key|cookie|set-cookie)\s*:\s*)([^\s'"\[][^\n'"]*)`),
		repl:    "[REDACTED:header]",
		hints:   []string{"x-", "api", "cookie"},
		valueOK: notEmpty,
	},
	{
		kind:    "prose",
		re:      regexp.MustCompile(`(?i)(\b(?:password|passwd|passphrase|pwd|secret|token|api[ _-]?key)\s+(?:is|was|=|:)\s+["'` + "`" + `]?)([^\s"'` + "`" + `\[]{6,})`),
		repl:    "[REDACTED:secret]",
		hints:   []string{"passw", "pwd", "secret", "token", "key"},
		valueOK: looksSecret,
		near:    nearProse,
	},
}

func notEmpty(v string) bool { return v != "" }

// notRedacted reports whether v holds no redaction yet (a scheme word
// followed by one is not a value).
func notRedacted(v string) bool { return v != "" && !strings.Contains(v, "[REDACTED:") }

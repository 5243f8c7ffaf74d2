package redact

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRedact(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"aws key", "id AKIAIOSFODNN7EXAMPLE ok", "id [REDACTED:aws-key] ok"},
		{"github token", "token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", "token [REDACTED:github-token]"},
		{"github pat", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "[REDACTED:github-token]"},
		{"slack token", "xoxb-123456789012-abcdefghijklmnop", "[REDACTED:slack-token]"},
		{"openai key", "key=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789", "key=[REDACTED:api-key]"},
		{"anthropic key", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "[REDACTED:api-key]"},
		{"private key", "a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEvQIB\nabc\n-----END RSA PRIVATE KEY-----\nb", "a\n[REDACTED:private-key]\nb"},
		{"truncated private key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1r", "[REDACTED:private-key]"},
		{"url password", "postgres://admin:hunter2@db:5432/app", "postgres://admin:[REDACTED:password]@db:5432/app"},
		{"env line", "DB_PASSWORD=s3cr3t!\nDEBUG=1", "DB_PASSWORD=[REDACTED:env]\nDEBUG=1"},
		{"env export", "export GITHUB_TOKEN=abc123def", "export GITHUB_TOKEN=[REDACTED:env]"},
		{"json password", `{"password": "hunter22", "user": "bob"}`, `{"password": "[REDACTED:secret]", "user": "bob"}`},
		{"code api key", `api_key = 'abcd1234'`, `api_key = "[REDACTED:secret]"`},
		{"credentials", `{"db_credentials": "hunter22pass"}`, `{"db_credentials": "[REDACTED:secret]"}`},
		{"credentials in a large input", strings.Repeat("x = 1\n", 200) + `credentials = 'hunter22pass'`, strings.Repeat("x = 1\n", 200) + `credentials = "[REDACTED:secret]"`},
		{"bearer", "Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345", "Authorization: Bearer [REDACTED:token]"},
		{"jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "[REDACTED:jwt]"},
		{"credentials file", "[default]\naws_secret_access_key = Hq4PzL0vXn7RkT2bWc9YdJ5mEa8F\nregion = eu-west-1", "[default]\naws_secret_access_key = [REDACTED:secret]\nregion = eu-west-1"},
		{"env mid-line", "docker run -e DB_PASSWORD=Sup3rS3cret -e X=1 app", "docker run -e DB_PASSWORD=[REDACTED:env] -e X=1 app"},
		{"env in list", "  - POSTGRES_PASSWORD=c0mp0se\n  - POSTGRES_USER=app", "  - POSTGRES_PASSWORD=[REDACTED:env]\n  - POSTGRES_USER=app"},
		{"env quoted", `SECRET_KEY="a b c"`, "SECRET_KEY=[REDACTED:env]"},
		{"code reference untouched", "password = request.POST['password']", "password = request.POST['password']"},
		{"plain code untouched", "def password_reset(self, password):\n    return self.password == password", "def password_reset(self, password):\n    return self.password == password"},
		{"url without password", "https://example.com/a@b", "https://example.com/a@b"},
		{"short", "AKIA", "AKIA"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Secrets(tc.in)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, got, Secrets(got), "idempotent")
		})
	}
}

func TestRedactLargeInput(t *testing.T) {
	in := strings.Repeat("token: ghp_0123456789abcdefghijklmnopqrstuvwxyzAB\nplain line\n", 20000)
	out := Secrets(in)
	assert.NotContains(t, out, "ghp_0123")
	assert.Equal(t, 20000, strings.Count(out, "[REDACTED:github-token]"))
}

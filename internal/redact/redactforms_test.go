package redact

import (
	"strings"
	"testing"
)

// redactFormCases are the credential forms of issue 24 (item 4) and their
// families: each input holds the secret value, which Redact must remove,
// and a context word, which it must keep.
var redactFormCases = []struct {
	name, in, secret, keep string
}{
	{"lower-case key prefix", "db_password=Kangaroo42x", "Kangaroo42x", "db_password="},
	{"lower-case key prefix, letters only", "db_password=CorrectHorseBattery", "CorrectHorseBattery", "db_password="},
	{"dotted key", "spring.datasource.password=Sup3rSecret", "Sup3rSecret", "spring.datasource.password"},
	{"yaml key", "  db_password: hunter2hunter2", "hunter2hunter2", "db_password"},
	{"mysql -p", "mysql -uroot -pS3cretPw9 app", "S3cretPw9", "mysql -uroot"},
	{"mysqldump -p", "mysqldump -u admin -pDump3rPw db > x.sql", "Dump3rPw", "mysqldump"},
	{"mysql --password=", "mysql --user=root --password=Pa55word app", "Pa55word", "mysql --user=root"},
	{"--password value", "psql --password Pa55word99", "Pa55word99", "psql"},
	{"sshpass -p", "sshpass -p 'Hunter22x' ssh host", "Hunter22x", "ssh host"},
	{"curl -u", "curl -u alice:W0nderland! https://api.example.com", "W0nderland!", "alice"},
	{"curl --user", "curl --user bob:pa55w0rd https://x", "pa55w0rd", "bob"},
	{"curl -u quoted", `curl -s -u "carol:Qu0tedPw" https://x`, "Qu0tedPw", "carol"},
	{"authorization basic", "Authorization: Basic YWxpY2U6V29uZGVybGFuZA==", "YWxpY2U6V29uZGVybGFuZA==", "Authorization: Basic"},
	{"authorization basic lower", "authorization: basic YWxpY2U6V29uZGVybGFuZA==", "YWxpY2U6V29uZGVybGFuZA==", "authorization"},
	{"authorization other scheme", "Authorization: Token abc123", "abc123", "Authorization"},
	{"authorization raw", "Authorization: 0123456789abcdef", "0123456789abcdef", "Authorization"},
	{"proxy authorization", "Proxy-Authorization: Basic dXNlcjpwYXNz", "dXNlcjpwYXNz", "Proxy-Authorization"},
	{"curl -H basic", `curl -H "Authorization: Basic YWxpY2U6V29uZGVy" https://x`, "YWxpY2U6V29uZGVy", "curl -H"},
	{"x-api-key", "x-api-key: 9f8e7d6c5b4a3928", "9f8e7d6c5b4a3928", "x-api-key"},
	{"X-Api-Key header", "X-Api-Key: abcdefgh", "abcdefgh", "X-Api-Key"},
	{"x-auth-token", "X-Auth-Token: deadbeefcafe", "deadbeefcafe", "X-Auth-Token"},
	{"api-key header", "api-key: zzzzzzzzzzzz", "zzzzzzzzzzzz", "api-key"},
	{"cookie", "Cookie: session=abcdef0123456789", "abcdef0123456789", "Cookie"},
	{"curl -H x-api-key", `curl -H 'x-api-key: k3y-v4lue' https://x`, "k3y-v4lue", "curl -H"},
	{"password is", "The DB password is UsrDbPw-Kangaroo42 and more", "UsrDbPw-Kangaroo42", "password is"},
	{"bare openai key", "my key is sk-UserPasted0123456789abcdefghijklmnopqrstuvwxyzAB.", "sk-UserPasted0123456789", "my key"},
}

// TestRedactForms checks the credential forms of issue 24: each secret is
// gone, its context stays, and Secrets is idempotent on them.
func TestRedactForms(t *testing.T) {
	for _, tc := range redactFormCases {
		t.Run(tc.name, func(t *testing.T) {
			got := Secrets(tc.in)
			if strings.Contains(got, tc.secret) {
				t.Errorf("Secrets(%q) = %q keeps the secret %q", tc.in, got, tc.secret)
			}
			if !strings.Contains(got, tc.keep) {
				t.Errorf("Secrets(%q) = %q lost the context %q", tc.in, got, tc.keep)
			}
			if again := Secrets(got); again != got {
				t.Errorf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

// TestRedactFormsLeaveCode checks that the new forms leave ordinary text
// and code alone.
func TestRedactFormsLeaveCode(t *testing.T) {
	for _, s := range []string{
		"Basic usage: run the tool",
		"mysql -h db -u root app",
		"curl -u alice https://x",
		"the password is required",
		"password = request.POST['password']",
		"self.db_password = db_password",
		"x-request-id: 1234",
		"grep -p pattern file",
	} {
		if got := Secrets(s); got != s {
			t.Errorf("Secrets(%q) = %q, want unchanged", s, got)
		}
	}
}

package redact

import (
	"slices"
	"strings"
	"testing"
)

func TestSecretValues(t *testing.T) {
	in := "DB_PASSWORD=CorrectHorseBattery9\nsk-UserPasted0123456789abcdefghijklmnopqrstuvwxyzAB\n" +
		"-----BEGIN RSA PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END RSA PRIVATE KEY-----\nThe DB password is UsrDbPw-Kangaroo42 ok\n" +
		"mysql -uroot -pS3cretPw9 app; curl -u bob:W0nderland9 https://x\nalready [REDACTED:secret] here"
	got := SecretValues(in)
	for _, want := range []string{"CorrectHorseBattery9", "sk-UserPasted0123456789abcdefghijklmnopqrstuvwxyzAB", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "UsrDbPw-Kangaroo42", "S3cretPw9", "W0nderland9"} {
		if !slices.Contains(got, want) {
			t.Errorf("SecretValues misses %q: %q", want, got)
		}
	}
	for _, not := range []string{"PRIVATE", "BEGIN", "DB_PASSWORD", "password", "-pS3cretPw9", "REDACTED"} {
		if slices.Contains(got, not) {
			t.Errorf("SecretValues reports the form word %q", not)
		}
	}
	if v := SecretValues("nothing secret here at all"); v != nil {
		t.Errorf("SecretValues of plain text = %q", v)
	}
}

func TestRedactValues(t *testing.T) {
	vals := []string{"CorrectHorseBattery9", "Horse9", "abc"}
	s := "Credentials seen: CorrectHorseBattery9 ; abc ; token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
	got := Values(s, vals)
	if strings.Contains(got, "CorrectHorse") || strings.Contains(got, "ghp_0123") {
		t.Errorf("Values kept a secret: %q", got)
	}
	if !strings.Contains(got, "; abc ;") {
		t.Errorf("Values replaced a value under 6 bytes: %q", got)
	}
	if again := Values(got, vals); again != got {
		t.Errorf("not idempotent: %q -> %q", got, again)
	}
}

package extractors

import (
	"strings"
	"testing"
)

// TestRedactBeforeCut checks that every preview helper redacts before it
// cuts: a secret straddling the cut must not survive as a prefix that
// Redact can no longer recognize. (An uncut preview may keep the whole
// secret: the registry redacts every fact afterwards, as done here.)
func TestRedactBeforeCut(t *testing.T) {
	const key = "AKIAZ7Q2RZ5XN3WLT4PB"
	for _, pad := range []int{0, 40, 61, 62, 63, 70, 75, 79, 100, 150} {
		line := strings.Repeat("0", pad) + " aws_access_key_id = " + key + " tail"
		for name, got := range map[string]string{
			"shorten":          shorten(line, 80),
			"shortenWords":     shortenWords(line, 80),
			"cleanLine":        cleanLine(line, 80),
			"cleanLine/spaces": cleanLine(strings.Repeat(" \n", 500)+line, 80),
		} {
			got = Redact(got)
			if len(got) > 80 {
				t.Errorf("%s(pad %d) = %d bytes, want <= 80", name, pad, len(got))
			}
			for i := 0; i+12 <= len(key); i++ {
				if strings.Contains(got, key[i:i+12]) {
					t.Errorf("%s(pad %d) = %q keeps %q of the key", name, pad, got, key[i:i+12])
					break
				}
			}
		}
	}
	// A search listing through the public path: the "Top" fact.
	s := Default().Extract(Call{Name: "bash", Arguments: `{"command":"ls 000"}`},
		strings.Repeat("0", 33)+"\n"+strings.Repeat("0", 38)+" aws_access_key_id = "+key)
	for _, f := range s.KeyFacts {
		if strings.Contains(f, key[:12]) {
			t.Errorf("fact %q keeps a prefix of the key", f)
		}
	}
}

// TestListingRedactedBeforeSplit checks that a listing is redacted before
// its lines are split into entries: split from its key, a secret value no
// longer looks like one.
func TestListingRedactedBeforeSplit(t *testing.T) {
	const secret = "Hq4PzL0vXn7RkT2bWc9YdJ5mEa8FsG3uKi6OyB1t"
	out := "[default]\naws_secret_access_key  =  " + secret + "\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9\n-----END RSA PRIVATE KEY-----\n"
	s := Default().Extract(Call{Name: "bash", Arguments: `{"command":"ls creds"}`}, out)
	for _, f := range s.KeyFacts {
		if strings.Contains(f, secret[:16]) || strings.Contains(f, "MIIEowIBAAKCAQEA") {
			t.Errorf("fact %q keeps a secret", f)
		}
	}
}

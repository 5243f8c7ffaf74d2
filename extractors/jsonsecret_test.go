package extractors

import (
	"strings"
	"testing"
)

// TestJSONSecretKeysNotIdentifiers checks that values of secret-named
// keys are never identifiers nor facts (issue 24, item 3), at any depth,
// while the ids beside them stay.
func TestJSONSecretKeysNotIdentifiers(t *testing.T) {
	const secret = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"
	outs := []string{
		`{"user":"bob","api_key":"` + secret + `","order_id":"ord_8812"}`,
		`{"order_id":"ord_8812","auth":{"access_token":"` + secret + `"}}`,
		`{"order_id":"ord_8812","credentials":{"user":"u","key":"` + secret + `"}}`,
		`[{"order_id":"ord_8812","clientSecret":"` + secret + `"}]`,
		`{"order_id":"ord_8812","apiKeys":["` + secret + `"]}`,
		`{"order_id":"ord_8812","Authorization":"Basic ` + secret + `"}`,
		`{"order_id":"ord_8812","db_password":"` + secret + `","sessionToken":"` + secret + `"}`,
	}
	reg := Default()
	for _, out := range outs {
		s := reg.Extract(Call{ID: "c", Name: "get_order", Arguments: `{"order_id":"ord_8812"}`}, out)
		text := Format(s) + "\n" + s.Metadata[MetaIdentifiers]
		if strings.Contains(text, secret) {
			t.Errorf("%s\nkept the secret:\n%s", out, text)
		}
		if !strings.Contains(s.Metadata[MetaIdentifiers], "ord_8812") {
			t.Errorf("%s\nlost the identifier ord_8812: %q", out, s.Metadata[MetaIdentifiers])
		}
	}
}

func TestIsSecretKey(t *testing.T) {
	for _, k := range []string{"api_key", "apiKey", "key", "access_token", "Authorization", "password", "db_password", "client_secret", "credentials", "private_key", "x-api-key", "passwd", "cookie"} {
		if !isSecretKey(k) {
			t.Errorf("isSecretKey(%q) = false", k)
		}
	}
	for _, k := range []string{"id", "order_id", "user", "keywords", "author", "session_id", "status", "input_tokens"} {
		if isSecretKey(k) {
			t.Errorf("isSecretKey(%q) = true", k)
		}
	}
}

package extractortest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentcompact/compact/extractors"
)

// Case is one input of the conformance run.
type Case struct {
	Name   string
	Call   extractors.Call
	Output string
}

// Secrets are the secret values planted in the inputs; none of them may
// appear in a summary.
var Secrets = []string{
	"AKIAIOSFODNN7EXAMPLE",
	"ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
	"xoxb-123456789012-abcdefghijklmnop",
	"sk-proj-abcdefghijklmnopqrstuvwxyz0123456789",
	"hunter2hunter2",
	"MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
	"s3cr3tPassw0rd",
	"Kangaroo42x",
	"S3cretPw9",
	"W0nderland9",
	"YWxpY2U6V29uZGVybGFuZA",
	"9f8e7d6c5b4a3928",
}

// secretText holds every planted secret in the forms Redact covers.
var secretText = strings.Join([]string{
	"aws_access_key_id = " + Secrets[0],
	"token: " + Secrets[1],
	"slack " + Secrets[2],
	"OPENAI_API_KEY=" + Secrets[3],
	"postgres://admin:" + Secrets[4] + "@db.example.com:5432/app",
	"-----BEGIN RSA PRIVATE KEY-----\n" + Secrets[5] + "\n-----END RSA PRIVATE KEY-----",
	`{"password": "` + Secrets[6] + `"}`,
	"db_password=" + Secrets[7],
	"mysql -uroot -p" + Secrets[8] + " app",
	"curl -u alice:" + Secrets[9] + " https://api.example.com",
	"Authorization: Basic " + Secrets[10] + "==",
	"x-api-key: " + Secrets[11],
}, "\n")

// Options tunes [RunWith].
type Options struct {
	// Tools are the tool names used in the calls; default a generic name
	// and common ones (bash, read_file, grep, ...).
	Tools []string
	// SkipSecrets skips the redaction check, for extractors that rely on a
	// [extractors.Registry] to redact (a Registry always redacts).
	SkipSecrets bool
	// SkipHuge skips the 10 MB inputs (for -short runs).
	SkipHuge bool
	// Samples are real outputs of your own tools, checked like the cases
	// and, each, for what its summary must keep (see [Sample]).
	Samples []Sample
}

// Sample is one real call of your own tool with its output, and what the
// summary must keep for the agent to go on: the identifiers it returned,
// the paths it named, the error it reported.
type Sample struct {
	Name   string
	Call   extractors.Call
	Output string
	// Keep are the strings the formatted summary (extractors.Format) must
	// contain.
	Keep []string
}

// CheckSample returns the problems of the summary of sample smp: those of
// [Check], a Keep string missing from Format of the summary, and a fact
// line that is not smaller than an output of more than
// [extractors.FormatMaxBytes] bytes (masking must pay). It returns nil for
// a good summary.
func CheckSample(smp Sample, s extractors.ToolSummary, secrets bool) []string {
	probs := Check(s, secrets)
	line := extractors.Format(s)
	for _, k := range smp.Keep {
		if !strings.Contains(line, k) {
			probs = append(probs, fmt.Sprintf("%q is not kept in %s", k, line))
		}
	}
	if len(smp.Output) > extractors.FormatMaxBytes && len(line) >= len(smp.Output) {
		probs = append(probs, fmt.Sprintf("the fact line (%d bytes) is not smaller than the output (%d bytes)", len(line), len(smp.Output)))
	}
	return probs
}

// Cases returns the inputs of the conformance run for the given tool
// names. The result is new on every call.
func Cases(tools ...string) []Case {
	if len(tools) == 0 {
		tools = []string{"tool", "bash", "read_file", "grep", "write_file", "git", "http_get", "sql", "json"}
	}
	big := strings.Repeat("line of output with some words 0123456789\n", 10<<20/42)
	huge1 := strings.Repeat("x", 1<<20)
	bin := string([]byte{0, 1, 2, 0xff, 0xfe, 0x80, '\n', 0xc3, 0x28, 0xe2, 0x82, '\n', 0x7f, 0x1b, '[', '3', '1', 'm'})
	trace := "Traceback (most recent call last):\n  File \"app/main.py\", line 12, in <module>\n    main()\nValueError: bad value\n"
	outputs := []struct{ name, out string }{
		{"empty", ""},
		{"blank", "\n\n   \n"},
		{"binary", bin},
		{"invalid-utf8", "caf\xe9 \xff\xfe ok\n\xed\xa0\x80 surrogate\n"},
		{"ten-mb", big},
		{"one-mb-line", huge1},
		{"traceback", trace},
		{"secrets", secretText + "\n"},
		{"secrets-in-error", "Error: connect postgres://admin:" + Secrets[4] + "@db:5432 failed\n" + secretText},
		{"mini-envelope", "<returncode>1</returncode>\n<output>\n" + trace + "</output>"},
		{"swe-suffix", "[File: /repo/a.py (3 lines total)]\n1:import os\n2:def f():\n3:    pass\n(Open file: /repo/a.py)\n(Current directory: /repo)\nbash-$"},
		{"json", `{"a": [1,2,3], "b": {"c": 1}, "token": "` + Secrets[1] + `"}`},
		{"unbalanced-tags", "<returncode>\n<output_head>\nabc<elided_chars>\n</output_tail>"},
		{"nul-lines", strings.Repeat("\x00\n", 1000)},
		{"crlf", "a\r\nb\r\nexit code 2\r\n"},
	}
	args := []struct{ name, args string }{
		{"no-args", ""},
		{"empty-object", "{}"},
		{"invalid-json", `{"command": "cat a.py`},
		{"not-object", `["a", 1]`},
		{"plain-string", "cat a.py | grep x"},
		{"command", `{"command": "cd /r && nl -ba a.py | sed -n '1,20p' && cat <<'EOF' > b.py\nprint(1)\nEOF\npython b.py"}`},
		{"odd-types", `{"command": 12, "path": {"x": 1}, "pattern": null, "start_line": "x"}`},
		{"secret-args", `{"command": "curl -H 'Authorization: Bearer ` + Secrets[3] + `' https://u:` + Secrets[4] + `@example.com"}`},
		{"hostile-shell", `{"command": "<<<<<<>>>>|||&&;;((((\\\\\"''$((( 2>&1 <<-EOF\n"}`},
	}
	var out []Case
	for _, tool := range tools {
		for _, o := range outputs {
			out = append(out, Case{Name: tool + "/" + o.name, Call: extractors.Call{ID: "call_1", Name: tool, Arguments: `{"command": "run"}`}, Output: o.out})
		}
		for _, a := range args {
			out = append(out, Case{Name: tool + "/args-" + a.name, Call: extractors.Call{ID: "call_2", Name: tool, Arguments: a.args}, Output: trace})
		}
	}
	return out
}

// Run checks e on [Cases] with the default tool names; see [RunWith].
func Run(t *testing.T, e extractors.Extractor) {
	t.Helper()
	RunWith(t, e, Options{})
}

// RunWith checks e on the conformance cases: for each it must not panic,
// Format of its summary must be one line of valid UTF-8 of at most
// [extractors.FormatMaxBytes] bytes, two runs must give equal summaries,
// the status must be success, error or partial (or empty), and unless
// opts.SkipSecrets no planted secret may appear in the key facts or
// metadata. Then each of opts.Samples is checked with [CheckSample]. Each
// case and sample is a subtest.
func RunWith(t *testing.T, e extractors.Extractor, opts Options) {
	t.Helper()
	if e == nil {
		t.Fatal("extractortest: nil extractor")
	}
	for _, c := range Cases(opts.Tools...) {
		if opts.SkipHuge && (strings.HasSuffix(c.Name, "/ten-mb") || strings.HasSuffix(c.Name, "/one-mb-line")) {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			s1, err := extract(e, c)
			if err != nil {
				t.Fatal(err)
			}
			s2, err := extract(e, c)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s1, s2) {
				t.Errorf("not deterministic:\n%#v\n%#v", s1, s2)
			}
			for _, p := range Check(s1, !opts.SkipSecrets) {
				t.Error(p)
			}
		})
	}
	for i, smp := range opts.Samples {
		name := smp.Name
		if name == "" {
			name = fmt.Sprintf("sample-%d", i)
		}
		t.Run("sample/"+name, func(t *testing.T) {
			s, err := extract(e, Case{Name: name, Call: smp.Call, Output: smp.Output})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range CheckSample(smp, s, !opts.SkipSecrets) {
				t.Error(p)
			}
		})
	}
}

// extract runs e and turns a panic into an error.
func extract(e extractors.Extractor, c Case) (s extractors.ToolSummary, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("extractor panicked on %s: %v", c.Name, p)
		}
	}()
	return e.Extract(c.Call, c.Output), nil
}

// Check returns the problems of one summary: Format over the cap, not
// valid UTF-8 or not one line, an unknown status, and (when secrets is
// true) a planted secret in the facts or metadata. It returns nil for a
// good summary.
func Check(s extractors.ToolSummary, secrets bool) []string {
	var probs []string
	line := extractors.Format(s)
	if len(line) > extractors.FormatMaxBytes {
		probs = append(probs, fmt.Sprintf("Format is %d bytes, over the cap of %d", len(line), extractors.FormatMaxBytes))
	}
	if !utf8.ValidString(line) {
		probs = append(probs, "Format is not valid UTF-8")
	}
	if strings.ContainsAny(line, "\n\r") {
		probs = append(probs, "Format is not one line")
	}
	switch s.Status {
	case "", extractors.StatusSuccess, extractors.StatusError, extractors.StatusPartial:
	default:
		probs = append(probs, fmt.Sprintf("unknown status %q", s.Status))
	}
	if secrets {
		all := strings.Join(s.KeyFacts, "\n") + "\n" + line
		for k, v := range s.Metadata {
			all += "\n" + k + "=" + v
		}
		for _, sec := range Secrets {
			if strings.Contains(all, sec) {
				probs = append(probs, fmt.Sprintf("secret %q not redacted", sec))
			}
		}
	}
	return probs
}

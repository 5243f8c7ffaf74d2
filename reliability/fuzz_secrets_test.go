package reliability

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/extractors/extractortest"
	"github.com/tmc/langchaingo/llms"
)

// secretSeparators are the characters a secret is planted after (and
// before) in FuzzExtractorSecrets: the delimiters real outputs put around
// tokens, so that redaction patterns anchored on word boundaries must hold.
var secretSeparators = []string{" ", "\n", ": ", `"`, "(", ", ", "\t", "\r\n", "> "}

// FuzzExtractorSecrets is the security counterpart of the extractors
// package's FuzzExtract and FuzzDigest: it plants one secret of the corpus
// (secretCorpus) at a fuzzed position of a fuzzed tool output, between
// realistic separators, and runs every built-in family
// (extractors.Builtin), the fallback and the default Registry (by the
// fuzzed tool name) on it, then the Registry's Digest over the call, its
// result and a user message carrying the secret. Oracles: the secret, or a
// 16-byte core of it (a secret cut in half still leaks), appears in no key
// fact, metadata value, Format line, digest list or rendered digest; no
// panic; summaries pass extractortest.Check and are deterministic; the
// digest renders within its cap as valid UTF-8. Seeds: every tool call and
// output of the trajectories in ../testdata, and the leaks it found.
func FuzzExtractorSecrets(f *testing.F) {
	names, convs := loadTrajectories(f)
	samples := toolSamples(convs, names)
	for i, s := range samples {
		out := s.output
		if len(out) > 8<<10 {
			out = out[:8<<10]
		}
		f.Add(s.name, s.args, out, uint8(i), uint16(i*37))
	}
	f.Add("bash", `{"command": "cat .env && env"}`, "PATH=/usr/bin\nHOME=/root\n", uint8(2), uint16(5))
	f.Add("read_file", `{"path": "~/.aws/credentials"}`, "[default]\nregion = us-east-1\n", uint8(1), uint16(10))
	f.Add("http_get", `{"url": "https://api.example.com"}`, "HTTP/1.1 401 Unauthorized\nwww-authenticate: Bearer\n", uint8(16), uint16(30))
	f.Add("sql", "{}", "id | name\n---+-----\n1 | a\n(1 row)\n", uint8(12), uint16(0))
	// Leaks found by this target, fixed since (kept as regressions): a
	// secret in a line preview cut before redaction; .env keys and the AWS
	// credentials file in listings and mid-line.
	f.Add("sh", `{"command":"0"}`, "000000000000000", uint8(')'), uint16(222))
	f.Add("bash", `{"command": "ls -F"}`, "a.py\nb/\n", uint8(1), uint16(3))
	f.Add("bash", `{"command": "ls -F django/db/backends/"}`, "__init__.py\nbase/\ndummy/\n", uint8(2), uint16(1))
	f.Add("bash", `{"command": "find tests -name \"*postgres*\""}`, "tests/a\ntests/b\n", uint8(18), uint16(0))
	// A listing entry cut to its preview length before redaction kept 18 of
	// the 20 characters of an AWS access key id ("AKIAZ7Q2RZ5XN3WLT4…");
	// previews are now redacted before they are cut.
	f.Add("sh", `{"command":"ls 000"}`, "000000000000000000000000000000000\n000000000000000000000000000000000000000", uint8(0), uint16(72))
	corpus := secretCorpus()
	families := extractors.BuiltinFamilies()
	f.Fuzz(func(t *testing.T, tool, args, output string, secret uint8, pos uint16) {
		sec := corpus[int(secret)%len(corpus)]
		sep := secretSeparators[int(pos)%len(secretSeparators)]
		p := int(pos) % (len(output) + 1)
		for p > 0 && p < len(output) && !utf8.RuneStart(output[p]) {
			p--
		}
		planted := output[:p] + sep + sec.text + sep + output[p:]
		call := extractors.Call{ID: "call_1", Name: tool, Arguments: args}

		check := func(what string, s extractors.ToolSummary) {
			t.Helper()
			for _, prob := range extractortest.Check(s, false) {
				t.Errorf("%s: %s", what, prob)
			}
			all := extractors.Format(s) + "\n" + strings.Join(s.KeyFacts, "\n")
			for k, v := range s.Metadata {
				all += "\n" + k + "=" + v
			}
			if strings.Contains(all, sec.value) || strings.Contains(all, core(sec.value)) {
				t.Errorf("%s: secret %q (%s) leaked: %q", what, sec.kind, sec.value, all)
			}
		}
		run := func(what string, e extractors.Extractor) {
			t.Helper()
			s1, s2 := e.Extract(call, planted), e.Extract(call, planted)
			if !reflect.DeepEqual(s1, s2) {
				t.Errorf("%s: not deterministic", what)
			}
			check(what, s1)
		}
		for _, fam := range families {
			e, _ := extractors.Builtin(fam)
			run("builtin "+fam, e)
		}
		run("fallback", extractors.Fallback())
		reg := extractors.Default()
		run("registry "+tool, reg)

		msgs := []llms.MessageContent{
			{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: "call_1", Type: "function",
				FunctionCall: &llms.FunctionCall{Name: tool, Arguments: args}}}},
			{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "call_1", Name: tool, Content: planted}}},
			llms.TextParts(llms.ChatMessageTypeHuman, "Remember: never print credentials. "+sec.text),
		}
		d := reg.Digest(msgs, extractors.Digest{})
		text := d.Render(200, nil)
		if !utf8.ValidString(text) {
			t.Error("digest: not valid UTF-8")
		}
		if n := len(text)/3 + 1; text != "" && n > 200 {
			t.Errorf("digest: rendered %d tokens, cap 200", n)
		}
		lists := strings.Join(d.KeyPoints(), "\n") + strings.Join(d.Instructions, "\n") + strings.Join(d.Questions, "\n") +
			strings.Join(d.Commands, "\n") + strings.Join(d.Errors, "\n") + strings.Join(d.Entities, "\n") +
			strings.Join(d.FilesRead, "\n") + strings.Join(d.FilesModified, "\n")
		full := d.Render(1<<20, nil)
		for _, txt := range []string{text, lists, full} {
			if strings.Contains(txt, sec.value) || strings.Contains(txt, core(sec.value)) {
				t.Errorf("digest: secret %q (%s) leaked: %q", sec.kind, sec.value, txt)
			}
		}
	})
}

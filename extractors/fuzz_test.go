package extractors_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/extractors/extractortest"
	"github.com/agentcompact/compact/internal/callpaths"
	"github.com/tmc/langchaingo/llms"
)

// fuzzTools are the tool names FuzzExtract dispatches over: every built-in
// family and an unknown tool (the fallback).
var fuzzTools = []string{"bash", "read_file", "open", "grep", "search_dir", "find_file", "write_file", "edit",
	"str_replace", "create", "git", "submit", "http_get", "json", "sql", "unknown_tool",
	"Read", "Edit", "MultiEdit", "Grep", "LS", "TodoWrite", "WebSearch", "NotebookEdit", "execute_bash",
	"execute_ipython_cell", "str_replace_editor", "ViewCode", "SemanticSearch", "edit_block", "get_order"}

// addSeeds adds the real outputs of testdata/outputs.jsonl as seeds.
func addSeeds(f *testing.F, add func(tool, args, out string)) {
	file, err := os.Open("testdata/outputs.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var r struct{ Tool, Arguments, Output string }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			f.Fatal(err)
		}
		add(r.Tool, r.Arguments, r.Output)
	}
}

// FuzzExtract checks every built-in (selected by the tool byte) on
// arbitrary arguments and outputs: no panic, Format within the cap, valid
// UTF-8 on one line, deterministic.
func FuzzExtract(f *testing.F) {
	addSeeds(f, func(tool, args, out string) { f.Add(uint8(0), args, out) })
	f.Add(uint8(3), `{"command": "cat <<'EOF' > a\nEOF"}`, "\xff\xfe")
	f.Add(uint8(14), `{"query": "select"}`, " a | b\n---+---\n 1 | 2\n(1 row)\n")
	f.Add(uint8(12), `{"url": "http://x"}`, "HTTP/1.1 500 Oops\n\n{\"error\": 1}")
	reg := extractors.Default()
	f.Fuzz(func(t *testing.T, tool uint8, args, out string) {
		call := extractors.Call{ID: "f", Name: fuzzTools[int(tool)%len(fuzzTools)], Arguments: args}
		s1 := reg.Extract(call, out)
		s2 := reg.Extract(call, out)
		l1, l2 := extractors.Format(s1), extractors.Format(s2)
		if l1 != l2 {
			t.Fatalf("not deterministic: %q vs %q", l1, l2)
		}
		for _, p := range extractortest.Check(s1, false) {
			t.Error(p)
		}
		// A built-in alone (outside the registry) must not panic either.
		fams := extractors.BuiltinFamilies()
		e, _ := extractors.Builtin(fams[int(tool)%len(fams)])
		_ = extractors.Format(e.Extract(call, out))
	})
}

// FuzzDigest checks Digest and Render on arbitrary conversations: no
// panic, Render never over budget, valid UTF-8, and with room enough every
// path the call names (internal/callpaths) that no secret touches is in the
// text.
func FuzzDigest(f *testing.F) {
	addSeeds(f, func(tool, args, out string) { f.Add("Remember: don't break the API. Why?", tool, args, out, 200) })
	f.Add("", "", "", "", 0)
	f.Add("must\x00\xff?", "BASH", "{", "<returncode>", 5)
	reg := extractors.Default()
	f.Fuzz(func(t *testing.T, user, tool, args, out string, budget int) {
		budget %= 2000
		msgs := []llms.MessageContent{
			llms.TextParts(llms.ChatMessageTypeHuman, user),
			{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: "1", FunctionCall: &llms.FunctionCall{Name: tool, Arguments: args}}}},
			{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "1", Content: out}}},
			{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: "2"}}},
		}
		d := reg.Digest(msgs, extractors.Digest{Previous: user, Entities: []string{tool}})
		d = reg.Digest(msgs, d)
		r := d.Render(budget, nil)
		if budget <= 0 && r != "" {
			t.Fatalf("non-empty render for budget %d", budget)
		}
		if n := len(r)/3 + 1; r != "" && n > budget {
			t.Fatalf("render of %d tokens over budget %d", n, budget)
		}
		if !utf8.ValidString(r) {
			t.Fatal("render not valid UTF-8")
		}
		for _, kp := range d.KeyPoints() {
			if strings.Contains(kp, "\n") {
				t.Fatalf("key point on several lines: %q", kp)
			}
		}
		paths := callpaths.Call(tool, args)
		if len(paths) > 50 {
			return
		}
		all := d.Render(1<<20, nil)
		for _, p := range paths {
			if len(p) < 150 && strings.Contains(extractors.Redact(args), p) && !strings.Contains(all, p) {
				t.Fatalf("path %q of %s %s not in the digest:\n%s", p, tool, args, all)
			}
		}
	})
}

// FuzzRedact checks that Redact is idempotent and never panics, and that
// SecretValues reports only text of its input.
func FuzzRedact(f *testing.F) {
	for _, s := range extractortest.Secrets {
		f.Add("token " + s)
	}
	f.Add("-----BEGIN RSA PRIVATE KEY-----\nabc")
	for _, s := range []string{ // the credential forms (issue 24)
		"db_password=Kangaroo42x", "mysql -uroot -pS3cretPw9 app", "sshpass -p 'Hunter22x' ssh h",
		"mysql --password=Pa55word app", "curl -u alice:W0nderland9 https://x",
		`curl -H "Authorization: Basic YWxpY2U6V29uZGVy" https://x`, "x-api-key: 9f8e7d6c5b4a3928",
		"Cookie: session=abc123", "the password is UsrDbPw-Kangaroo42", "Authorization: Basic [REDACTED:auth]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := extractors.Redact(s)
		if extractors.Redact(r) != r {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, r, extractors.Redact(r))
		}
		for _, v := range extractors.SecretValues(s) {
			if !strings.Contains(s, v) {
				t.Fatalf("SecretValues(%q) invents %q", s, v)
			}
		}
	})
}

// FuzzJSONIdentifiers checks the generic extractor on JSON outputs of tools
// nobody registered (matched by argument shape or not): no panic, Format
// within the cap, and every identifier it reports (MetaIdentifiers) is
// text of the output: it never invents one.
func FuzzJSONIdentifiers(f *testing.F) {
	f.Add(`{"order_id": "ord_8812"}`, `{"order_id": "ord_8812", "status": "shipped", "items": [{"sku_code": "SKU-1"}], "reservations": ["NO6JO3"]}`)
	f.Add(`{}`, `[{"flight_number": "HAT069", "prices": {"economy": 121}}, {"flight_number": "HAT083"}]`)
	f.Add(`{"file_path": "/a/b.txt", "content": "x"}`, `{"error": "denied", "request_id": 123456}`)
	f.Add(`{"query": "x"}`, `{"id": 1e400, "user_id": -12345678901234567890, "x_id": "a\u0000b", "y_id": ["\ud800"]}`)
	f.Add(``, `[[[[[[{"id": "deep1"}]]]]]]`)
	reg := extractors.Default()
	f.Fuzz(func(t *testing.T, args, out string) {
		s := reg.Extract(extractors.Call{ID: "f", Name: "fuzz_business_tool", Arguments: args}, out)
		for _, p := range extractortest.Check(s, false) {
			t.Error(p)
		}
		ids := s.Metadata[extractors.MetaIdentifiers]
		var doc any
		if json.Unmarshal([]byte(out), &doc) != nil {
			if ids != "" && !strings.Contains(out, strings.Split(ids, "\n")[0]) {
				t.Errorf("identifiers %q reported for an output that is not JSON", ids)
			}
			return
		}
		values := map[string]bool{}
		jsonScalars(doc, values)
		for _, id := range strings.Split(ids, "\n") {
			if id != "" && !strings.Contains(id, "[REDACTED") && !values[strings.ToValidUTF8(id, "\uFFFD")] {
				t.Errorf("identifier %q is no value of the output", id)
			}
		}
	})
}

// jsonScalars adds the string values and the integer values (as text) of
// a decoded JSON document to set.
func jsonScalars(v any, set map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			jsonScalars(e, set)
		}
	case []any:
		for _, e := range x {
			jsonScalars(e, set)
		}
	case string:
		set[strings.TrimSpace(strings.ToValidUTF8(x, "\uFFFD"))] = true
	case float64:
		set[strconv.FormatFloat(x, 'f', -1, 64)] = true
	}
}

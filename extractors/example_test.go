package extractors_test

import (
	"fmt"
	"strings"

	"github.com/agentcompact/compact/extractors"
	"github.com/tmc/langchaingo/llms"
)

func ExampleFormat() {
	fmt.Println(extractors.Format(extractors.ToolSummary{
		Tool:     "read_file",
		Status:   extractors.StatusSuccess,
		KeyFacts: []string{"File: app/main.go", "Lines: 120", "Type: go", "Defines: Serve, New"},
	}))
	fmt.Println(extractors.Format(extractors.ToolSummary{Tool: "bash", Status: extractors.StatusError, KeyFacts: []string{"$ go test ./...", "exit 1"}}))
	// Output:
	// [✓ read_file: File: app/main.go | Lines: 120 | Type: go | Defines: Serve, New]
	// [❌ bash: $ go test ./... | exit 1]
}

func Example_register() {
	reg := extractors.Default()
	reg.Register("run_sql", extractors.Func(func(call extractors.Call, output string) extractors.ToolSummary {
		rows := strings.Count(strings.TrimSpace(output), "\n") + 1
		return extractors.ToolSummary{Tool: call.Name, Status: extractors.StatusSuccess, KeyFacts: []string{fmt.Sprintf("Rows: %d", rows)}}
	}))
	// Names match case-insensitively: langchaingo agents may upper-case them.
	s := reg.Extract(extractors.Call{Name: "RUN_SQL", Arguments: `{"query": "select * from users"}`}, "1|ann\n2|bob\n")
	fmt.Println(extractors.Format(s))
	// Output:
	// [✓ RUN_SQL: Rows: 2]
}

func ExampleRegistry_Extract_bash() {
	reg := extractors.Default()
	call := extractors.Call{ID: "call_1", Name: "bash", Arguments: `{"command": "nl -ba pkg/server.py | sed -n '1,40p'"}`}
	output := "<returncode>0</returncode>\n<output>\n     1\timport os\n     2\t\n     3\tclass Server:\n     4\t    def serve(self):\n     5\t        pass\n</output>"
	fmt.Println(extractors.Format(reg.Extract(call, output)))

	call = extractors.Call{ID: "call_2", Name: "bash", Arguments: `{"command": "python3 repro.py"}`}
	output = "<returncode>1</returncode>\n<output>\nTraceback (most recent call last):\n  File \"repro.py\", line 3, in <module>\n    main()\nValueError: empty input\n</output>"
	fmt.Println(extractors.Format(reg.Extract(call, output)))
	// Output:
	// [✓ bash: File: pkg/server.py | Lines: 1-5 | Type: python | Defines: Server, serve | Imports: 1]
	// [❌ bash: $ python3 repro.py | exit 1 | Error: ValueError at repro.py:3: empty input | Output: 4 lines | First: Traceback (most recent call last): | Last: ValueError: empty input]
}

func ExampleNewRegistry_options() {
	reg := extractors.NewRegistry(
		extractors.WithMaxFacts(2),
		extractors.WithVerbatim("get_requirements"), // never masked by the engine
		extractors.WithExclude("list_dir"),          // masked to its size only
		extractors.WithAlias("shell", "bash"),
	)
	fmt.Println(reg.Verbatim("GET_REQUIREMENTS"), reg.Verbatim("list_dir"))
	fmt.Println(extractors.Format(reg.Extract(extractors.Call{Name: "list_dir"}, "a\nb\nc\n")))
	// Output:
	// true false
	// [✓ list_dir: output dropped: 3 lines, 6 B]
}

func ExampleRedact() {
	fmt.Println(extractors.Redact("connect postgres://app:hunter2@db:5432/main with AKIAIOSFODNN7EXAMPLE"))
	// Output:
	// connect postgres://app:[REDACTED:password]@db:5432/main with [REDACTED:aws-key]
}

func ExampleRegistry_Digest() {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Fix the failing test. Don't change the public API."),
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: "c1", Type: "function",
			FunctionCall: &llms.FunctionCall{Name: "bash", Arguments: `{"command": "go test ./parser"}`}}}},
		// langchaingo's functions agent leaves the tool name empty: it is
		// resolved from the call id.
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "c1",
			Content: "--- FAIL: TestParse (0.00s)\nFAIL\tex.com/parser\t0.01s\nexit status 1"}}},
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: "c2", Type: "function",
			FunctionCall: &llms.FunctionCall{Name: "str_replace_editor", Arguments: `{"command": "str_replace", "path": "parser/parse.go", "old_str": "i < n", "new_str": "i <= n"}`}}}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "c2", Content: "The file parser/parse.go has been edited."}}},
		// A file the run creates is listed as created, not as modified.
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: "c3", Type: "function",
			FunctionCall: &llms.FunctionCall{Name: "str_replace_editor", Arguments: `{"command": "create", "path": "parser/edge_test.go", "file_text": "package parser\n"}`}}}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "c3", Content: "File created successfully at: parser/edge_test.go"}}},
	}
	d := extractors.Default().Digest(msgs, extractors.Digest{})
	fmt.Println(d.Render(200, nil))
	// Output:
	// Summary of 7 earlier messages (3 tool calls).
	// Instructions: Don't change the public API.
	// Errors: Failed tests: TestParse, ex.com/parser
	// Files modified: parser/parse.go | created: parser/edge_test.go | tested: ./parser
	// Commands: go test ./parser (exit 1)
	// Entities: str_replace_editor, str_replace, TestParse, bash, ex.com/parser
}

// A long run: the file index lists every path the calls named, nested
// arguments too (Moatless' ViewCode), each whole; with no room for them
// all, the oldest go and a note counts them and says how to find them.
func ExampleDigest_RenderIndexed() {
	var msgs []llms.MessageContent
	for i := 0; i < 6; i++ {
		id := fmt.Sprint("c", i)
		args := fmt.Sprintf(`{"files": [{"file_path": "django/db/models/f%d.py", "start_line": 1}]}`, i)
		msgs = append(msgs,
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: id, Type: "function",
				FunctionCall: &llms.FunctionCall{Name: "ViewCode", Arguments: args}}}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id, Content: "class A:\n    pass"}}})
	}
	d := extractors.Default().Digest(msgs, extractors.Digest{})
	fmt.Println(d.RenderIndexed(50, 40, nil))
	fmt.Println(d.RenderIndexed(30, 40, nil))
	// Output:
	// Summary of 12 earlier messages (6 tool calls).
	// Files read: django/db/models/f0.py django/db/models/f1.py django/db/models/f2.py django/db/models/f3.py django/db/models/f4.py django/db/models/f5.py
	// Entities: A, ViewCode
	// Summary of 12 earlier messages (6 tool calls).
	// Files read: django/db/models/f2.py django/db/models/f3.py django/db/models/f4.py django/db/models/f5.py | +2 more paths (recall finds them by name)
}

// A business tool nobody registered: the generic extractor names the JSON
// output by its identifier and keeps every id it returned.
func ExampleDefault_businessTool() {
	reg := extractors.Default()
	out := `{"order_id": "ord_8812", "customer_id": "cus_19", "status": "shipped", "total": 1240.5,
		"items": [{"sku_code": "SKU-1", "qty": 2}, {"sku_code": "SKU-9", "qty": 1}], "tracking_number": "1Z999AA10123456784"}`
	s := reg.Extract(extractors.Call{Name: "get_order", Arguments: `{"order_id": "ord_8812"}`}, out)
	fmt.Println(extractors.Format(s))
	fmt.Println(strings.ReplaceAll(s.Metadata[extractors.MetaIdentifiers], "\n", " "))
	// Output:
	// [✓ get_order: order ord_8812: customer_id cus_19, tracking_number 1Z999AA10123456784, status shipped, total 1240.5 | items[2]: SKU-1 2, SKU-9 1]
	// cus_19 SKU-1 SKU-9 ord_8812 1Z999AA10123456784
}

// A tool of your own, matched by the shape of its arguments.
func ExampleRegistry_RegisterShape() {
	reg := extractors.Default()
	reg.RegisterShape(extractors.Shape{All: []string{"ticket_id"}}, extractors.Func(func(c extractors.Call, out string) extractors.ToolSummary {
		return extractors.ToolSummary{Tool: c.Name, KeyFacts: []string{"ticket: " + strings.SplitN(out, "\n", 2)[0]}}
	}))
	fmt.Println(extractors.Format(reg.Extract(extractors.Call{Name: "close_ticket", Arguments: `{"ticket_id": "T-17"}`}, "T-17 closed\nby: ops")))
	// Output:
	// [✓ close_ticket: ticket: T-17 closed]
}

// A summary written from an unredacted conversation is cleared of the
// secrets it repeats, in a known form or bare.
func ExampleRedactValues() {
	source := "DB_PASSWORD=CorrectHorseBattery9\nmysql -uroot -pS3cretPw9 app"
	known := extractors.SecretValues(source)
	fmt.Println(known)
	fmt.Println(extractors.RedactValues("Logged in with CorrectHorseBattery9 (and S3cretPw9).", known))
	// Output:
	// [CorrectHorseBattery9 S3cretPw9]
	// Logged in with [REDACTED:secret] (and [REDACTED:secret]).
}

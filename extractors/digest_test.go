package extractors

import (
	"fmt"
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// agentRun builds a small agent conversation the way langchaingo holds it:
// tool results carry no tool name, only the call id.
func agentRun() []llms.MessageContent {
	call, result := callMsg, resultMsg
	return []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Fix the parser. Remember to keep the public API stable. We will use Go 1.22 only. Why does Parse fail on empty input?"),
		call("c1", "read_file", `{"path": "parser/parse.go"}`),
		result("c1", "package parser\n\nfunc Parse(s string) error { return nil }\n"),
		call("c2", "BASH", `{"command": "go test ./parser/"}`),
		result("c2", "--- FAIL: TestParseEmpty (0.00s)\nFAIL\nFAIL\texample.com/parser\t0.01s\nexit status 1\n"),
		call("c3", "write_file", `{"path": "parser/parse.go", "content": "package parser\n"}`),
		result("c3", "ok"),
		call("c4", "bash", `{"command": "python3 check.py"}`),
		result("c4", "<returncode>1</returncode>\n<output>\nTraceback (most recent call last):\n  File \"check.py\", line 3, in <module>\nValueError: empty input\n</output>"),
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.TextContent{Text: "Done."}}},
	}
}

// callMsg is an assistant message holding one tool call.
func callMsg(id, name, args string) llms.MessageContent {
	return llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
		llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: name, Arguments: args}},
	}}
}

// resultMsg is a tool message holding the result of call id, without the
// tool's name (as langchaingo's functions agent sends it).
func resultMsg(id, out string) llms.MessageContent {
	return llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id, Content: out}}}
}

func TestDigest(t *testing.T) {
	msgs := agentRun()
	orig := append([]llms.MessageContent(nil), msgs...)
	d := Default().Digest(msgs, Digest{})
	assert.Equal(t, orig, msgs, "msgs not modified")
	assert.Equal(t, 10, d.Messages)
	assert.Equal(t, 4, d.ToolCalls)
	assert.Equal(t, []string{"parser/parse.go"}, d.FilesRead)
	assert.Equal(t, []string{"parser/parse.go"}, d.FilesModified)
	require.Len(t, d.Commands, 2)
	assert.Equal(t, "python3 check.py (exit 1)", d.Commands[0], "most recent first")
	assert.Equal(t, "go test ./parser/ (exit 1)", d.Commands[1], "the tool name is resolved from the call id, whatever its case")
	assert.Equal(t, []string{"ValueError at check.py:3: empty input", "Failed tests: TestParseEmpty, example.com/parser"}, d.Errors)
	assert.Equal(t, []string{"Remember to keep the public API stable.", "We will use Go 1.22 only."}, d.Instructions, "the task's instructions, in their order")
	assert.Equal(t, []string{"Why does Parse fail on empty input?"}, d.Questions)
	assert.Contains(t, d.Entities, "ValueError")
	assert.NotContains(t, d.Entities, "parser/parse.go", "the file index holds it: no place taken among the entities")
	assert.Contains(t, d.Entities, "Parse")
}

func TestDigestCarriesForward(t *testing.T) {
	prev := Digest{Messages: 5, ToolCalls: 2, FilesRead: []string{"old.go", "parser/parse.go"}, Instructions: []string{"Never touch vendor/."},
		Entities: []string{"OldThing"}, Errors: []string{"KeyError at a.py:1"}, Previous: "Earlier we set up the repo."}
	d := Default().Digest(agentRun(), prev)
	assert.Equal(t, 15, d.Messages)
	assert.Equal(t, 6, d.ToolCalls)
	assert.Equal(t, []string{"parser/parse.go", "old.go"}, d.FilesRead, "new first, deduplicated")
	assert.Equal(t, []string{"Never touch vendor/.", "We will use Go 1.22 only.", "Remember to keep the public API stable."}, d.Instructions,
		"standing orders first: the previous digest's, then the new ones, most recent first")
	assert.Contains(t, d.Entities, "OldThing")
	assert.Equal(t, "KeyError at a.py:1", d.Errors[len(d.Errors)-1])
	assert.Equal(t, "Earlier we set up the repo.", d.Previous)
	assert.Equal(t, []string{"old.go", "parser/parse.go"}, prev.FilesRead, "prev not modified")
}

func TestDigestUnansweredCallAndRedaction(t *testing.T) {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Use the key AKIAIOSFODNN7EXAMPLE, don't print it."),
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{&llms.ToolCall{ID: "x", FunctionCall: &llms.FunctionCall{Name: "bash", Arguments: `{"command": "curl https://u:hunter22@h/x"}`}}}},
	}
	d := Default().Digest(msgs, Digest{})
	assert.Equal(t, []string{"curl https://u:[REDACTED:password]@h/x (no result)"}, d.Commands)
	out := d.Render(300, nil)
	assert.NotContains(t, out, "AKIAIOSFODNN7EXAMPLE")
	assert.NotContains(t, out, "hunter22")
	assert.Contains(t, out, "[REDACTED:aws-key]")
}

// TestMayInstructIsAFilter checks that the cheap filter never rejects a
// sentence the instruction regexp accepts.
func TestMayInstructIsAFilter(t *testing.T) {
	sentences := []string{
		"Remember to run the tests.", "You MUST keep go.mod.", "mustn't touch it", "Never edit vendor/.",
		"ALWAYS answer in French.", "Don't push.", "do not push", "dont push", "Make sure it builds.",
		"Ensure the CI passes.", "We decided to use sqlite.", "decide later", "That was a decision.",
		"We will use Postgres.", "We'll use Go.", "We are going to refactor.", "Let's go.", "lets use zap",
		"Use a map instead of a slice.", "I prefer tabs.", "Important: keep it short.", "Tests are required.",
		"A requirement is X.", "You should not log secrets.", "You shouldn't.", "Avoid globals.",
		"Only use the stdlib.", "From now on, reply briefly.", "Keep in mind the limits.", "Note that it fails.",
		"The weather is nice.", "ls -la", "",
	}
	for _, s := range sentences {
		if instructionRe.MatchString(s) {
			assert.True(t, mayInstruct(s), s)
		}
	}
	assert.False(t, mayInstruct("The weather is nice."))
}

// splitSentencesRegexp is the reference splitSentences implements by hand.
func splitSentencesRegexp(txt string) []string {
	var out []string
	last := 0
	for _, loc := range regexp.MustCompile(`[.!?](?:\s+|$)|\n+`).FindAllStringIndex(txt, -1) {
		end := loc[0]
		if txt[loc[0]] != '\n' {
			end++
		}
		if s := strings.TrimSpace(txt[last:end]); s != "" {
			out = append(out, s)
		}
		last = loc[1]
	}
	if s := strings.TrimSpace(txt[last:]); s != "" {
		out = append(out, s)
	}
	return out
}

// TestSplitSentencesRegexp checks splitSentences against its regular
// expression on edge cases and random texts over the characters that
// matter.
func TestSplitSentencesRegexp(t *testing.T) {
	cases := []string{"", ".", "a.", "a. b", "a.b. c!\n\nd?", "a.go and 1.5 are fine. Next", "x!\t\r\f y", "\n\n\n", "end?", "?!.", "a .\n. b", "é. ü!\nx"}
	rng := rand.New(rand.NewSource(1))
	alphabet := []byte("ab .!?\n\t\r\f,")
	for i := 0; i < 20000; i++ {
		b := make([]byte, rng.Intn(40))
		for k := range b {
			b[k] = alphabet[rng.Intn(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		if got, want := splitSentences(c), splitSentencesRegexp(c); !reflect.DeepEqual(got, want) {
			t.Fatalf("splitSentences(%q) = %q, want %q", c, got, want)
		}
	}
}

func TestDigestSameInstructionOnce(t *testing.T) {
	nag := "Please always provide EXACTLY ONE action in triple backticks, found %d actions."
	var msgs []llms.MessageContent
	for _, n := range []int{2, 7, 4} {
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprintf(nag, n)))
	}
	msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, "You must never edit the tests."))
	d := Default().Digest(msgs, Digest{Messages: 3})
	assert.Equal(t, []string{"You must never edit the tests.", fmt.Sprintf(nag, 4)}, d.Instructions,
		"sentences alike in their first 60 bytes are one instruction: the most recent stays")
}

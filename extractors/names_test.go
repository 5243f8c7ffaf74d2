package extractors

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tmc/langchaingo/llms"
)

func TestNames(t *testing.T) {
	got := Names("I will patch ensure_schema in django/db/migrations/recorder.py: see https://x.io/a_b, then call recordApplied twice; plain words stay out. ensure_schema again, txn-4411.")
	assert.Equal(t, []string{"ensure_schema", "django/db/migrations/recorder.py", "recordApplied", "txn-4411"}, got)
	assert.Empty(t, Names(""))
	assert.Empty(t, Names("abc_ x.y"), "shorter than 5 bytes")
}

func TestArgumentNames(t *testing.T) {
	assert.Equal(t, []string{"new_name", "src/app.py", "old_name"},
		ArgumentNames(`{"z": "old_name", "a": {"b": ["new_name"]}, "path": "src/app.py", "n": 12345}`),
		"string values at any depth, in the order of their keys (a, path, z); numbers and keys are not names")
	assert.Equal(t, []string{"foo_bar"}, ArgumentNames(`grep foo_bar`), "not JSON: the raw text")
}

func TestDigestKeepsTheAgentsNames(t *testing.T) {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Fix the bug."),
		llms.TextParts(llms.ChatMessageTypeAI, "The culprit is MigrationRecorder.ensure_schema; I will guard it with router.allow_migrate."),
	}
	d := Default().Digest(msgs, Digest{})
	assert.Subset(t, d.Entities, []string{"MigrationRecorder.ensure_schema", "router.allow_migrate"})
	assert.Contains(t, d.Render(200, nil), "router.allow_migrate")
}

func TestDigestNamesNoSecrets(t *testing.T) {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Set up the env."),
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
			llms.TextPart("I will write DB_PASSWORD=Sup3rS3cretValue99 into settings_local.py"),
			llms.ToolCall{ID: "c1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "bash",
				Arguments: `{"command": "echo AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY >> .env"}`}}}},
	}
	d := Default().Digest(msgs, Digest{})
	for _, e := range d.Entities {
		assert.NotContains(t, e, "Sup3rS3cretValue99")
		assert.NotContains(t, e, "wJalrXUtnFEMI")
	}
	assert.Contains(t, d.Entities, "settings_local.py")
}

func TestDigestKeepsTheOutputsNames(t *testing.T) {
	call := llms.ToolCall{ID: "c1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "bash", Arguments: `{"command": "cat recorder.py"}`}}
	var body strings.Builder
	for i := 0; i < 2*maxDigestSeen; i++ {
		fmt.Fprintf(&body, "    self.helper_%03d()\n", i)
	}
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Fix the bug."),
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.TextPart("Reading MigrationRecorder."), call}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "c1", Name: "bash",
			Content: "class MigrationRecorder:\n    def ensure_schema(self):\n        self.migration_qs.all().delete()\n" + body.String()}}},
	}
	d := Default().Digest(msgs, Digest{})
	last := fmt.Sprintf("self.helper_%03d", 2*maxDigestSeen-1)
	assert.Contains(t, d.Entities, last, "a name the output held, the most recent first")
	assert.NotContains(t, d.Entities, "self.helper_000", "capped at maxDigestSeen")
	assert.NotContains(t, d.Entities, "self.migration_qs.all", "older than the cap's names")
	assert.Less(t, slices.Index(d.Entities, "MigrationRecorder"), slices.Index(d.Entities, last), "the agent's names lead")

	short := Default().Digest(msgs[:2:2], Digest{})
	short = Default().Digest([]llms.MessageContent{{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "c1", Name: "bash",
		Content: "ok in 0.01s at 12:30:01\n    self.migration_qs.all().delete()\n"}}}}, short)
	assert.Contains(t, short.Entities, "self.migration_qs.all")
	assert.NotContains(t, short.Entities, "0.01s", "a number with a unit is no name")

	listing := Default().Digest([]llms.MessageContent{{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "c1", Name: "bash",
		Content: "17:result = ds.pixel_array\n18:print(result)\n"}}}}, Digest{})
	assert.Contains(t, listing.Entities, "ds.pixel_array", "a listing's line number dropped")
	assert.NotContains(t, listing.Entities, "18:print", "no line number, and print alone is no name")
}

// nameWordsRE is the expression nameWords scans for by hand: the reference
// of FuzzNameWords.
var nameWordsRE = regexp.MustCompile(`[A-Za-z0-9_][A-Za-z0-9_./:\-]{3,}[A-Za-z0-9_]`)

var nameWordSeeds = []string{
	"", "abcd", "abcde", "a.b.c", "-.abcde.-", "x/y:z-w_v", "..a..b..", "a....b", "ab-\u00e9cd-ef",
	"I will patch ensure_schema in django/db/migrations/recorder.py: see https://x.io/a_b",
	"\xff\xfeabc_de\xff", "call recordApplied twice; txn-4411.", "a:b:c:d:e", "_____", "----a----",
}

// checkNameWords: nameWords finds what its expression finds.
func checkNameWords(t *testing.T, s string) {
	got, want := nameWords(s), nameWordsRE.FindAllString(s, -1)
	if !slices.Equal(got, want) {
		t.Fatalf("nameWords(%q) = %q, the expression finds %q", s, got, want)
	}
}

// FuzzNameWords runs checkNameWords; under go test, on its seeds.
func FuzzNameWords(f *testing.F) {
	for _, s := range nameWordSeeds {
		f.Add(s)
	}
	f.Fuzz(checkNameWords)
}

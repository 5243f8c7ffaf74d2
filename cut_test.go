package compact

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tmc/langchaingo/llms"
)

func TestCutListsInstructionsOfAUserText(t *testing.T) {
	head := "Fix the failing parser test in parse.go. " + strings.Repeat("Context line about the code base. ", 10)
	middle := strings.Repeat("Background on the bug report. ", 20) + "You must not modify the tests. Please keep the public API stable. " + strings.Repeat("More background here. ", 20)
	tail := strings.Repeat("Trailing details of the report. ", 10)
	text := head + middle + tail
	c := newCut(0, len(head), len(tail))

	user := c.apply(llms.TextParts(llms.ChatMessageTypeHuman, text), "abcd2345")
	got := user.Parts[0].(llms.TextContent).Text
	want := head + fmt.Sprintf(CutInstructionsMarker, len(middle), "abcd2345",
		"You must not modify the tests.; Please keep the public API stable.") + tail
	assert.Equal(t, want, got, "the instructions of the cut part stay visible in the marker")
	assert.Equal(t, got, c.apply(llms.TextParts(llms.ChatMessageTypeHuman, text), "abcd2345").Parts[0].(llms.TextContent).Text, "deterministic")

	// An assistant's text, or a user text without instructions in its cut part, gets the plain marker.
	ai := c.apply(llms.TextParts(llms.ChatMessageTypeAI, text), "abcd2345").Parts[0].(llms.TextContent).Text
	assert.Equal(t, head+fmt.Sprintf(CutMarker, len(middle), "abcd2345")+tail, ai)
	plain := head + strings.Repeat("Background on the bug report. ", 40) + tail
	got = c.apply(llms.TextParts(llms.ChatMessageTypeHuman, plain), "abcd2345").Parts[0].(llms.TextContent).Text
	assert.Equal(t, head+fmt.Sprintf(CutMarker, len(plain)-len(head)-len(tail), "abcd2345")+tail, got)
}

func TestCutInstructionsBounded(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "Rule %d: you must always run the linter named lint-%d before a commit. ", i, i)
	}
	in := cutInstructions(b.String())
	assert.LessOrEqual(t, len(in), maxCutInstructionBytes)
	assert.LessOrEqual(t, strings.Count(in, "; ")+1, maxCutInstructions)
	assert.True(t, strings.HasPrefix(in, "Rule 0: you must always run the linter"), "the first ones, whole: %q", in)
	assert.Empty(t, cutInstructions("no orders here, just a description of the weather."))
}

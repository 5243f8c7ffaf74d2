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
	for i := 0; i < 80; i++ {
		fmt.Fprintf(&b, "Rule %d: you must always run the linter named lint-%d before a commit. ", i, i)
	}
	in := cutInstructions(b.String(), maxCutInstructionBytes)
	assert.LessOrEqual(t, len(in), maxCutInstructionBytes)
	assert.LessOrEqual(t, strings.Count(in, "; ")+1, maxCutInstructions)
	assert.True(t, strings.HasPrefix(in, "Rule 0: you must always run the linter"), "the first ones, whole: %q", in)
	small := cutInstructions(b.String(), minCutInstructionBytes)
	assert.LessOrEqual(t, len(small), minCutInstructionBytes)
	assert.True(t, strings.HasPrefix(in, small), "a smaller room lists the first of the same")
	assert.Empty(t, cutInstructions("no orders here, just a description of the weather.", maxCutInstructionBytes))
}

func TestCutInstructionsDirectivesFirst(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "Requirement already satisfied: package-%d in /usr/lib/python3/site-packages (1.0.%d).\n", i, i)
	}
	b.WriteString("You must never push to the main branch.\nLet's use the staging database instead of production.\n")
	in := cutInstructions(b.String(), 300)
	assert.Contains(t, in, "You must never push to the main branch.", "a directive is listed before decisions and logged requirements")
	assert.LessOrEqual(t, len(in), 300)
	all := cutInstructions(b.String(), maxCutInstructionBytes)
	assert.True(t, strings.HasPrefix(all, "You must never push"), "directives first: %q", all)
	assert.Contains(t, all, "Let's use the staging database", "then decisions, with room: %q", all)
}

func TestCutInstructionBytes(t *testing.T) {
	assert.Equal(t, minCutInstructionBytes, cutInstructionBytes(0))
	assert.Equal(t, minCutInstructionBytes, cutInstructionBytes(1500))
	assert.Equal(t, 2500, cutInstructionBytes(5000))
	assert.Equal(t, maxCutInstructionBytes, cutInstructionBytes(1<<20))
}

func TestSnapToLines(t *testing.T) {
	text := "Task: fix the parser.\nEach response should include: one command.\nThe middle part.\nAlways run the tests.\nDone."
	h := strings.Index(text, "should")   // the head ends inside a line
	ts := strings.Index(text, "run the") // the tail starts inside one
	gh, gts := snapToLines(text, h, ts)
	assert.Equal(t, "Task: fix the parser.\n", text[:gh])
	assert.Equal(t, "Done.", text[gts:])
	long := strings.Repeat("x", 3*maxLineSnap)
	gh, gts = snapToLines(long, maxLineSnap, 2*maxLineSnap)
	assert.Equal(t, []int{maxLineSnap, 2 * maxLineSnap}, []int{gh, gts}, "no line break near: unchanged")

	c := newCut(0, h, len(text)-ts)
	got := c.apply(llms.TextParts(llms.ChatMessageTypeHuman, text), "abcd2345").Parts[0].(llms.TextContent).Text
	assert.Contains(t, got, "Each response should include: one command.", "the straddling instruction is listed whole")
	assert.Contains(t, got, "Always run the tests.")
}

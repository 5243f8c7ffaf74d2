package compact

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRef: a ref is 8 characters of [a-z2-7], the same in every process
// (pinned), different between sessions and between messages, and carries
// nothing of the message: it is derived from the ids alone.
func TestRef(t *testing.T) {
	re := regexp.MustCompile(`^[a-z2-7]{8}$`)
	r := Ref("conv-1", "304d68fa2a8268e0")
	assert.Regexp(t, re, r)
	assert.Equal(t, "myoa4kqc", r, "stable across processes and releases")
	assert.NotEqual(t, r, Ref("conv-2", "304d68fa2a8268e0"), "scoped to its session")
	assert.NotEqual(t, r, Ref("conv-1", "304d68fa2a8268e0~2"), "a repeated message gets its own ref")
	seen := map[string]bool{}
	for i := range 10_000 {
		ref := Ref("s", MessageIDs(conversation(0, 0))[0]+string(rune('a'+i%26))+string(rune(i)))
		assert.Regexp(t, re, ref)
		seen[ref] = true
	}
	assert.Len(t, seen, 10_000, "no collision among 10,000 messages")
}

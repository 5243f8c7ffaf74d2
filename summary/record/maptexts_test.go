package record

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMapTexts(t *testing.T) {
	orig := sampleRecord()
	var seen []string
	got := orig.MapTexts(func(s string) string {
		seen = append(seen, s)
		return strings.ToUpper(s)
	})
	assert.Equal(t, []string{"The user asked <x> & \"y\".", "k1", "k2", "user", "a.go", "a", "t", "d"}, seen,
		"every text once: summary, key points, context")
	assert.Equal(t, "THE USER ASKED <X> & \"Y\".", got.Summary)
	assert.Equal(t, []string{"K1", "K2"}, got.KeyPoints)
	assert.Equal(t, Context{Participants: []string{"USER"}, Decisions: []string{}, ActionItems: []ActionItem{{Owner: "A", Task: "T", Due: "D"}},
		DomainEntities: []string{"A.GO"}}, got.Context, "empty stays empty, nil stays nil")
	assert.Equal(t, orig.OriginalMessageIDs, got.OriginalMessageIDs, "ids are not texts")
	assert.Equal(t, []string{"s1", "s0", "llm"}, []string{got.ID, got.ParentID, got.Mode}, "nor are ids and mode")
	got.OriginalMessageIDs[0] = "changed"
	got.Context.Decisions = append(got.Context.Decisions, "x")
	assert.Equal(t, sampleRecord(), orig, "the original is untouched and shares no slice")
	assert.Equal(t, Record{}, Record{}.MapTexts(strings.ToUpper))
}

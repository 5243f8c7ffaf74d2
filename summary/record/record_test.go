package record

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sampleRecord() Record {
	return Record{ID: "s1", ParentID: "s0", Depth: 2, Timestamp: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC),
		Summary: "The user asked <x> & \"y\".", KeyPoints: []string{"k1", "k2"},
		Context:            Context{Participants: []string{"user"}, Decisions: []string{}, ActionItems: []ActionItem{{Owner: "a", Task: "t", Due: "d"}}, DomainEntities: []string{"a.go"}},
		OriginalMessageIDs: []string{"m1", "m2"}, TokenEstimate: 42, Mode: ModeLLM}
}

// TestRecordJSON pins the JSON form of a record: the bytes compact.SummaryRecord
// produced before it became an alias of Record (persisted state must load).
func TestRecordJSON(t *testing.T) {
	tests := []struct {
		name string
		rec  Record
		want string
	}{
		{"full", sampleRecord(), `{"id":"s1","parentId":"s0","depth":2,"timestamp":"2026-01-02T03:04:05.000000006Z","summary":"The user asked \u003cx\u003e \u0026 \"y\".","keyPoints":["k1","k2"],"context":{"participants":["user"],"decisions":[],"actionItems":[{"owner":"a","task":"t","due":"d"}],"unresolved":null,"domainEntities":["a.go"]},"originalMessageIds":["m1","m2"],"tokenEstimate":42,"mode":"llm"}`},
		{"zero", Record{}, `{"id":"","depth":0,"timestamp":"0001-01-01T00:00:00Z","summary":"","keyPoints":null,"context":{"participants":null,"decisions":null,"actionItems":null,"unresolved":null,"domainEntities":null},"originalMessageIds":null,"tokenEstimate":0,"mode":""}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.rec)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(b))
			var back Record
			require.NoError(t, json.Unmarshal(b, &back))
			assert.Equal(t, tt.rec, back)
		})
	}
}

func TestRecordClone(t *testing.T) {
	orig := sampleRecord()
	c := orig.Clone()
	assert.Equal(t, orig.Summary, c.Summary)
	assert.Equal(t, orig.Context.ActionItems, c.Context.ActionItems)
	c.KeyPoints[0] = "changed"
	c.OriginalMessageIDs[0] = "changed"
	c.Context.Participants[0] = "changed"
	c.Context.ActionItems[0].Task = "changed"
	c.Context.DomainEntities[0] = "changed"
	assert.Equal(t, sampleRecord(), orig, "the original is untouched")
	assert.Nil(t, orig.Clone().Context.Decisions, "empty slices come back nil")
	assert.Equal(t, Record{}, Record{}.Clone())
}

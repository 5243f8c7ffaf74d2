package prompts

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSummaryValidate(t *testing.T) {
	long := strings.Repeat("x", MaxItemChars+1)
	tests := []struct {
		name    string
		s       Summary
		wantErr string
	}{
		{name: "minimal", s: Summary{Summary: "x"}},
		{name: "empty", s: Summary{}, wantErr: "summary is empty"},
		{name: "action item without task", s: Summary{Summary: "x", Context: Context{ActionItems: []ActionItem{{Owner: "me"}}}}, wantErr: "actionItems[0] has no task"},
		{name: "long owner", s: Summary{Summary: "x", Context: Context{ActionItems: []ActionItem{{Task: "t", Owner: long}}}}, wantErr: "actionItems[0].owner"},
		{name: "long entity", s: Summary{Summary: "x", Context: Context{DomainEntities: []string{"a", long}}}, wantErr: "context.domainEntities[1]"},
		{name: "too many participants", s: Summary{Summary: "x", Context: Context{Participants: make([]string, MaxItems+1)}}, wantErr: "context.participants has 51 items"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.s.Validate()
			if tt.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrInvalidSummary)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

func TestNormalizedDoesNotShareSlices(t *testing.T) {
	in := Summary{Summary: " s ", KeyPoints: []string{"a", " ", "b"}}
	out := in.Normalized()
	out.KeyPoints[0] = "changed"
	assert.Equal(t, []string{"a", " ", "b"}, in.KeyPoints, "the input is not modified")
	assert.Equal(t, " s ", in.Summary)
	assert.Equal(t, []string{"changed", "b"}, out.KeyPoints)
}

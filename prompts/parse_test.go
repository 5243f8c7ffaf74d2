package prompts

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const validReply = `{"summary":"Fixed the parser.","keyPoints":["parse.go:42 panics on nil"],"context":{"participants":["user","assistant"],"decisions":["use json.Decoder"],"actionItems":[{"owner":"assistant","task":"add a test","due":""}],"unresolved":[],"domainEntities":["parse.go","ParseSummary"]}}`

func TestParseSummary(t *testing.T) {
	many := func(n int) string {
		items := make([]string, n)
		for i := range items {
			items[i] = fmt.Sprintf("%q", fmt.Sprintf("point %d", i))
		}
		return "[" + strings.Join(items, ",") + "]"
	}
	tests := []struct {
		name    string
		reply   string
		wantErr string // substring; "" means valid
		check   func(t *testing.T, s Summary)
	}{
		{name: "valid", reply: validReply, check: func(t *testing.T, s Summary) {
			assert.Equal(t, "Fixed the parser.", s.Summary)
			assert.Equal(t, []string{"parse.go:42 panics on nil"}, s.KeyPoints)
			assert.Equal(t, []ActionItem{{Owner: "assistant", Task: "add a test"}}, s.Context.ActionItems)
			assert.Equal(t, []string{"parse.go", "ParseSummary"}, s.Context.DomainEntities)
			assert.NotNil(t, s.Context.Unresolved, "empty arrays stay non-nil")
		}},
		{name: "NUL in a key point", reply: `{"summary":"\"\"","keyPoints":["\u0000", "\ud800"]}`, wantErr: "keyPoints[0] holds a NUL byte"},
		{name: "NUL in the summary", reply: `{"summary":"a\u0000b"}`, wantErr: "summary holds a NUL byte"},
		{name: "NUL in an action item", reply: `{"summary":"s","context":{"actionItems":[{"task":"t\u0000"}]}}`, wantErr: "actionItems[0].task holds a NUL byte"},
		{name: "json fence", reply: "```json\n" + validReply + "\n```", check: func(t *testing.T, s Summary) {
			assert.Equal(t, "Fixed the parser.", s.Summary)
		}},
		{name: "bare fence with spaces", reply: "  \n```\n" + validReply + "\n```  \n", check: func(t *testing.T, s Summary) {
			assert.Equal(t, "Fixed the parser.", s.Summary)
		}},
		{name: "upper-case fence language", reply: "```JSON\n" + validReply + "\n```", check: func(t *testing.T, s Summary) {
			assert.Len(t, s.KeyPoints, 1)
		}},
		{name: "missing arrays read as empty", reply: `{"summary":"x"}`, check: func(t *testing.T, s Summary) {
			assert.Equal(t, "x", s.Summary)
			assert.Empty(t, s.KeyPoints)
			assert.NotNil(t, s.KeyPoints)
			assert.NotNil(t, s.Context.Participants)
		}},
		{name: "trims and drops blanks", reply: `{"summary":"  x  ","keyPoints":[" a ",""," "],"context":{"actionItems":[{"task":" "},{"task":"t","owner":" o "}]}}`,
			check: func(t *testing.T, s Summary) {
				assert.Equal(t, "x", s.Summary)
				assert.Equal(t, []string{"a"}, s.KeyPoints)
				assert.Equal(t, []ActionItem{{Owner: "o", Task: "t"}}, s.Context.ActionItems)
			}},
		{name: "unknown fields ignored", reply: `{"summary":"x","mood":"happy"}`, check: func(t *testing.T, s Summary) {
			assert.Equal(t, "x", s.Summary)
		}},
		{name: "schema version matches", reply: `{"schemaVersion":1,"summary":"x"}`, check: func(t *testing.T, s Summary) {
			assert.Equal(t, "x", s.Summary)
		}},
		{name: "30 key points", reply: `{"summary":"x","keyPoints":` + many(30) + `}`, check: func(t *testing.T, s Summary) {
			assert.Len(t, s.KeyPoints, MaxKeyPoints)
		}},
		{name: "31 key points", reply: `{"summary":"x","keyPoints":` + many(31) + `}`, wantErr: "keyPoints has 31 items"},
		{name: "too many decisions", reply: `{"summary":"x","context":{"decisions":` + many(MaxItems+1) + `}}`, wantErr: "context.decisions has 51 items"},
		{name: "too many action items", reply: `{"summary":"x","context":{"actionItems":[` + strings.Repeat(`{"task":"t"},`, MaxItems) + `{"task":"t"}]}}`, wantErr: "context.actionItems has 51 items"},
		{name: "key point too long", reply: `{"summary":"x","keyPoints":["` + strings.Repeat("é", MaxItemChars+1) + `"]}`, wantErr: "keyPoints[0] has 2001 characters"},
		{name: "summary too long", reply: `{"summary":"` + strings.Repeat("a", MaxSummaryChars+1) + `"}`, wantErr: "summary has 16001 characters"},
		{name: "empty summary", reply: `{"summary":"   ","keyPoints":["a"]}`, wantErr: "summary is empty"},
		{name: "missing summary", reply: `{"keyPoints":["a"]}`, wantErr: `"summary" is missing`},
		{name: "wrong schema version", reply: `{"schemaVersion":2,"summary":"x"}`, wantErr: "schemaVersion 2"},
		{name: "wrong type", reply: `{"summary":"x","keyPoints":"a"}`, wantErr: "decode JSON"},
		{name: "prose before", reply: "Here is the summary: " + validReply, wantErr: "not a JSON object"},
		{name: "prose after", reply: validReply + " Hope this helps!", wantErr: "trailing data"},
		{name: "two objects", reply: validReply + validReply, wantErr: "trailing data"},
		{name: "truncated", reply: validReply[:len(validReply)/2], wantErr: "decode JSON"},
		{name: "array", reply: `[` + validReply + `]`, wantErr: "not a JSON object"},
		{name: "null", reply: `null`, wantErr: "not a JSON object"},
		{name: "empty", reply: ``, wantErr: "not a JSON object"},
		{name: "unterminated fence", reply: "```json\n" + validReply, wantErr: "unterminated code fence"},
		{name: "fence without newline", reply: "```" + validReply + "```", wantErr: "unterminated code fence"},
		{name: "fence of another language", reply: "```python\n" + validReply + "\n```", wantErr: `language "python"`},
		{name: "huge reply", reply: strings.Repeat(" ", maxReplyBytes+1), wantErr: "bytes, at most"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseSummary(tt.reply)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.ErrorIs(t, err, ErrInvalidSummary)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.Equal(t, Summary{}, s)
				return
			}
			require.NoError(t, err)
			tt.check(t, s)
		})
	}
}

func TestMarshalSummaryRoundTrip(t *testing.T) {
	s, err := ParseSummary(validReply)
	require.NoError(t, err)
	out := MarshalSummary(s)
	assert.Contains(t, out, `"unresolved":[]`, "empty arrays marshal as []")
	back, err := ParseSummary(out)
	require.NoError(t, err)
	assert.Equal(t, s, back)

	zero := MarshalSummary(Summary{Summary: "a <b> & c"})
	assert.Contains(t, zero, `"a <b> & c"`, "no HTML escaping")
	assert.Contains(t, zero, `"keyPoints":[]`)
}

func FuzzParseSummary(f *testing.F) {
	f.Add(validReply)
	f.Add("```json\n" + validReply + "\n```")
	f.Add(`{"summary":"x","keyPoints":null,"context":null}`)
	f.Add(`{"summary":"","keyPoints":[]}`)
	f.Add("```\n{}\n```")
	f.Add(`{"summary":"\u0000\ud800","context":{"actionItems":[{"task":"t"}]}}`)
	f.Fuzz(func(t *testing.T, reply string) {
		s, err := ParseSummary(reply)
		if err != nil {
			if !strings.Contains(err.Error(), ErrInvalidSummary.Error()) {
				t.Fatalf("error does not name ErrInvalidSummary: %v", err)
			}
			return
		}
		if strings.TrimSpace(s.Summary) == "" {
			t.Fatalf("accepted an empty summary from %q", reply)
		}
		if len(s.KeyPoints) > MaxKeyPoints {
			t.Fatalf("accepted %d key points", len(s.KeyPoints))
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("parsed summary does not validate: %v", err)
		}
		if !utf8.ValidString(s.Summary) {
			t.Fatalf("summary is not valid UTF-8")
		}
		// A parsed summary survives a round trip unchanged.
		back, err := ParseSummary(MarshalSummary(s))
		if err != nil {
			t.Fatalf("round trip failed: %v", err)
		}
		a, _ := json.Marshal(s)
		b, _ := json.Marshal(back)
		if string(a) != string(b) {
			t.Fatalf("round trip changed the summary:\n%s\n%s", a, b)
		}
	})
}

package extractors

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tmc/langchaingo/llms"
)

func TestLogErrors(t *testing.T) {
	for _, tc := range []struct {
		name, out string
		want      []string
	}{
		{"timestamp and level", "2026-03-01T10:00:01 INFO start\n2026-03-01T10:00:59 ERROR settlement: ERR-7-XYZ ledger mismatch on txn-07007\n",
			[]string{"ERROR settlement: ERR-7-XYZ ledger mismatch on txn-07007"}},
		{"bracketed, logger field", "2026-03-01 10:00:01,123 [worker-1] [FATAL] disk full\n", []string{"[FATAL] disk full"}},
		{"logfmt", "ts=2026-03-01 level=error msg=\"timeout\" id=req-9\n", []string{"ts=2026-03-01 level=error msg=\"timeout\" id=req-9"}},
		{"the last three, oldest first", "1 ERROR a\n2 ERROR b\n3 ERROR c\n4 ERROR d\n", []string{"ERROR b", "ERROR c", "ERROR d"}},
		{"no leading field with a digit", "ERROR: not a log line\nAn ERROR in prose\n", nil},
		{"pytest summary is not a log", "ERROR tests/test_x.py::test_y - ValueError\n", nil},
		{"no error", "2026-03-01 INFO fine\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, logErrors(tc.out)) })
	}
}

func TestFallbackLogErrors(t *testing.T) {
	out := strings.Repeat("2026-03-01T10:00:00 INFO processed batch\n", 10) +
		"2026-03-01T10:00:59 ERROR settlement: ERR-7-XYZ ledger mismatch on txn-07007\n" +
		"2026-03-01T10:01:00 INFO shutting down\n"
	s := Default().Extract(Call{Name: "fetch_log"}, out)
	assert.Equal(t, StatusSuccess, s.Status, "the log was read: the tool succeeded")
	assert.Equal(t, "ERROR settlement: ERR-7-XYZ ledger mismatch on txn-07007", s.Metadata[MetaLogErrors])
	assert.Contains(t, s.KeyFacts, "Log error: ERROR settlement: ERR-7-XYZ ledger mismatch on txn-07007", "not the last line: a fact of its own")

	msgs := []llms.MessageContent{
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: "c1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "fetch_log", Arguments: "{}"}}}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "c1", Name: "fetch_log", Content: out}}},
	}
	d := Default().DigestRefs(msgs, []string{"aaaaaaaa", "bbbbbbbb"}, Digest{})
	assert.Equal(t, []string{"ERROR settlement: ERR-7-XYZ ledger mismatch on txn-07007 ref:bbbbbbbb"}, d.Errors, "the error line, with its original's ref")
	assert.Contains(t, d.Render(200, nil), "ref:bbbbbbbb")
	again := Default().DigestRefs(msgs, []string{"aaaaaaaa", "cccccccc"}, d)
	assert.Equal(t, []string{"ERROR settlement: ERR-7-XYZ ledger mismatch on txn-07007 ref:cccccccc"}, again.Errors, "the same error once: the most recent ref")
	assert.Equal(t, Default().Digest(msgs, Digest{}).Errors, []string{"ERROR settlement: ERR-7-XYZ ledger mismatch on txn-07007"}, "no refs: none shown")
}

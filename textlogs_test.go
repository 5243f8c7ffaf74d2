package compact

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// logOutput is the plain-text output of call i of fetch_log: info lines,
// then one error line with its id and transaction.
func logOutput(i int) string {
	var b strings.Builder
	for j := 0; j < 12; j++ {
		fmt.Fprintf(&b, "2026-03-01T10:%02d:%02d INFO worker-%d processed batch %d of settlement run\n", i%60, j, j%4, i*12+j)
	}
	fmt.Fprintf(&b, "2026-03-01T10:%02d:59 ERROR settlement: ERR-%d-XYZ ledger mismatch on txn-%05d\n", i%60, i, 7000+i)
	return b.String()
}

// TestPlainTextLogsKeepTheirErrors is issue 30's scenario: an agent whose
// tool returns plain-text logs, 196 calls each ending in an error line,
// a 16k window, the defaults, the real tokenizer. The summary keeps the
// most recent error lines, each with the ref of its original, and the
// Stats count what was masked on the way.
func TestPlainTextLogsKeepTheirErrors(t *testing.T) {
	ctx := context.Background()
	c, err := New(WithModel("gpt-4o"), WithContextWindow(16_000))
	require.NoError(t, err)
	s := NewSession("logs")
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are an operations agent."),
		llms.TextParts(llms.ChatMessageTypeHuman, "Find why the settlement ledger does not balance."),
	}
	var res *Result
	for i := 0; i < 196; i++ {
		id := fmt.Sprintf("call_%d", i)
		msgs = append(msgs,
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
				llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: "fetch_log", Arguments: fmt.Sprintf(`{"shard": %d}`, i)}}}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: id, Name: "fetch_log", Content: logOutput(i)}}})
		res, err = c.Compact(ctx, s, msgs)
		require.NoError(t, err)
	}
	require.NotEmpty(t, res.Messages)
	summary := ""
	for _, p := range res.Messages[1].Parts {
		if tp, ok := p.(llms.TextContent); ok {
			summary += tp.Text
		}
	}
	require.Contains(t, summary, "Summary of", "the summary follows the system prompt")
	lines := regexp.MustCompile(`ERROR settlement: ERR-(\d+)-XYZ ledger mismatch on txn-\d+ ref:([a-z2-7]+)`).FindAllStringSubmatch(summary, -1)
	require.GreaterOrEqual(t, len(lines), 5, "the most recent error lines, with their ids: %s", summary)
	ids := MessageIDs(msgs)
	for _, l := range lines {
		var k int
		_, err := fmt.Sscan(l[1], &k)
		require.NoError(t, err)
		tool := 2 + 2*k + 1 // system, task, then call k and its result
		assert.Equal(t, Ref("logs", ids[tool]), l[2], "the ref of ERR-%d-XYZ is its original's", k)
	}
	st := s.Stats()
	assert.Positive(t, st.MessagesSummarized)
	assert.Positive(t, st.MessagesMasked, "outputs masked, then summarized, are counted")
}

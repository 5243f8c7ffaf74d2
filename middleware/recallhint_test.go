package middleware

import (
	"context"
	"strings"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/recall"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// sentSummary returns the text of the summary message of the last request
// rec received, failing when there is none.
func sentSummary(t *testing.T, rec *recorder) string {
	t.Helper()
	all := rec.received()
	require.NotEmpty(t, all)
	for _, m := range all[len(all)-1] {
		if s := text(m); strings.HasPrefix(s, compact.SummaryPreamble) {
			return s
		}
	}
	t.Fatal("the last request has no summary")
	return ""
}

// withRecallTool is the call option of an agent that offers the recall
// tool (its definition, as langchaingo's functions agent sends it).
func withRecallTool() llms.CallOption {
	return llms.WithTools([]llms.Tool{{Type: "function", Function: &llms.FunctionDefinition{Name: recall.Name, Description: "recall"}}})
}

// TestRecallHintFollowsTheCallsTools: the summary a call sends points to
// the recall tool only when the call's tools include it.
func TestRecallHintFollowsTheCallsTools(t *testing.T) {
	tool := func(name string) llms.Tool {
		return llms.Tool{Type: "function", Function: &llms.FunctionDefinition{Name: name, Description: name}}
	}
	cases := []struct {
		name string
		opts []llms.CallOption
		hint bool
	}{
		{"no tools", nil, false},
		{"other tools", []llms.CallOption{llms.WithTools([]llms.Tool{tool("read_file"), tool("grep")})}, false},
		{"the recall tool", []llms.CallOption{llms.WithTools([]llms.Tool{tool("read_file"), tool(recall.Name)})}, true},
		{"the recall function", []llms.CallOption{llms.WithFunctions([]llms.FunctionDefinition{{Name: recall.Name}})}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCompactor(t, 5_000)
			rec := &recorder{}
			m := Wrap(rec, c)
			ctx := WithSession(context.Background(), "hint-"+tc.name)
			msgs := run("h", 0, 0)
			compacted := false
			for r := 0; r < 60 && !compacted; r++ {
				msgs = append(msgs, round("h", r, 1000)...)
				_, err := m.GenerateContent(ctx, msgs, tc.opts...)
				require.NoError(t, err)
				compacted = m.Session("hint-"+tc.name).Latest() != nil
			}
			require.True(t, compacted, "the run was summarized")
			sum := sentSummary(t, rec)
			if tc.hint {
				assert.True(t, strings.HasSuffix(sum, compact.RecallHint), "%.300q", sum)
			} else {
				assert.NotContains(t, sum, compact.RecallHint)
				assert.NotContains(t, strings.ToLower(sum), "recall tool")
			}
		})
	}
}

func TestOffersRecallTextAgent(t *testing.T) {
	with := &textPrompt{head: "Answer the question.\n\n- read_file: reads a file\n- recall: pages an original by its ref\n\nUse the following format:"}
	without := &textPrompt{head: "Answer the question.\n\n- read_file: reads a file\n\nThe recall of facts matters."}
	assert.True(t, offersRecall(nil, with))
	assert.False(t, offersRecall(nil, without))
	assert.False(t, offersRecall([]llms.CallOption{nil}, nil), "a nil option is ignored")
}

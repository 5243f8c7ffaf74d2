package compact

import (
	"strings"
	"testing"

	"github.com/agentcompact/compact/internal/msg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// TestReplayedView: a masked and cut message's view is made once and
// taken from the memo by the next call that replays the same message the
// same way; a different content, mask or cut under the same id makes it
// again.
func TestReplayedView(t *testing.T) {
	c, err := New()
	require.NoError(t, err)
	var m memo
	call := func(text string) *work {
		msgs := []llms.MessageContent{
			{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: "c1", Name: "read", Content: "raw output"},
				llms.TextContent{Text: text},
			}},
		}
		w := c.newWork(msgs, []int{0}, 1, []string{"id1"}, []int{1}, nil)
		w.sid, w.memo = "s", &m
		return w
	}
	long := strings.Repeat("the handler returns early on error. ", 200)
	cut := newCut(1, 40, 40)
	mask := []string{"masked facts"}

	w := call(long)
	v1, tok1 := w.replayed(0, "id1", mask, cut, true)
	assert.Equal(t, "masked facts", v1.Parts[0].(llms.ToolCallResponse).Content)
	assert.Less(t, len(msg.Text(v1)), len(long), "the text is cut")
	assert.Equal(t, c.counter.CountMessage(v1), tok1)

	w = call(strings.Clone(long)) // the same content, another string
	v2, tok2 := w.replayed(0, "id1", mask, cut, true)
	assert.Same(t, &v1.Parts[0], &v2.Parts[0], "taken from the memo")
	assert.Equal(t, tok1, tok2)

	for name, again := range map[string]func() llms.MessageContent{
		"content": func() llms.MessageContent {
			v, _ := call(strings.Repeat("the parser panics on empty input. ", 200)).replayed(0, "id1", mask, cut, true)
			return v
		},
		"mask": func() llms.MessageContent {
			v, _ := call(long).replayed(0, "id1", []string{"other facts"}, cut, true)
			return v
		},
		"cut": func() llms.MessageContent {
			v, _ := call(long).replayed(0, "id1", mask, newCut(1, 80, 10), true)
			return v
		},
		"no cut": func() llms.MessageContent {
			v, _ := call(long).replayed(0, "id1", mask, cut, false)
			return v
		},
	} {
		v := again()
		assert.NotEqual(t, msg.Text(v1)+v1.Parts[0].(llms.ToolCallResponse).Content,
			msg.Text(v)+v.Parts[0].(llms.ToolCallResponse).Content, "a different %s is replayed anew", name)
	}
}

package middleware

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tmc/langchaingo/llms"
)

func TestWithSession(t *testing.T) {
	_, ok := SessionFromContext(context.Background())
	assert.False(t, ok)
	//lint:ignore SA1012 a nil context is tolerated, and tested
	_, ok = SessionFromContext(nil)
	assert.False(t, ok)
	id, ok := SessionFromContext(WithSession(context.Background(), "c-1"))
	assert.True(t, ok)
	assert.Equal(t, "c-1", id)
	_, ok = SessionFromContext(WithSession(context.Background(), ""))
	assert.False(t, ok, "an empty id is none")
	//lint:ignore SA1012 a nil context is tolerated, and tested
	id, ok = SessionFromContext(WithSession(nil, "x"))
	assert.True(t, ok)
	assert.Equal(t, "x", id)
}

func TestAutoKey(t *testing.T) {
	sys := llms.TextParts(llms.ChatMessageTypeSystem, "You are helpful.")
	task := llms.TextParts(llms.ChatMessageTypeHuman, "Do the task.")
	base := autoKey([]llms.MessageContent{sys, task}, nil)
	head := "Do the task.\n\n"
	tests := []struct {
		name string
		msgs []llms.MessageContent
		head *string
		same bool
	}{
		{name: "later messages do not matter", msgs: []llms.MessageContent{sys, task, llms.TextParts(llms.ChatMessageTypeAI, "ok"), llms.TextParts(llms.ChatMessageTypeHuman, "more")}, same: true},
		{name: "trailing white space does not matter", msgs: []llms.MessageContent{sys, llms.TextParts(llms.ChatMessageTypeHuman, "Do the task.\n\n")}, same: true},
		{name: "a text agent's head stands for its prompt", msgs: []llms.MessageContent{sys, llms.TextParts(llms.ChatMessageTypeHuman, head+"Thought: x\nAction: a\nAction Input: b\nObservation: c\n")}, head: &head, same: true},
		{name: "another system prompt", msgs: []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are terse."), task}},
		{name: "another task", msgs: []llms.MessageContent{sys, llms.TextParts(llms.ChatMessageTypeHuman, "Do another task.")}},
		{name: "no system prompt", msgs: []llms.MessageContent{task}},
		{name: "no user message", msgs: []llms.MessageContent{sys}},
		{name: "empty"},
		{name: "tool parts", msgs: []llms.MessageContent{sys, {Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.ImageURLContent{URL: "u"}, nil, llms.BinaryContent{MIMEType: "a/b", Data: []byte{1}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := autoKey(tt.msgs, tt.head)
			assert.True(t, strings.HasPrefix(k, AutoSessionPrefix))
			assert.Equal(t, tt.same, k == base, k)
		})
	}
}

package compact

import (
	"github.com/agentcompact/compact/internal/msg"
	"github.com/tmc/langchaingo/llms"
)

// MessageIDs returns a stable id for each message, index for index.
// langchaingo messages carry no ids, so an id is derived from the message's
// role and parts (SHA-256, 16 hex digits); the n-th repeat of an identical
// message gets the suffix "~n". The same list always yields the same ids, in
// any process, and appending messages never changes the ids of earlier ones.
// msgs is not modified.
func MessageIDs(msgs []llms.MessageContent) []string {
	ids := make([]string, len(msgs))
	n := msg.NewNamer(len(msgs))
	for i, m := range msgs {
		ids[i] = n.Add(m)
	}
	return ids
}

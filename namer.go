package compact

import (
	"github.com/agentcompact/compact/internal/msg"
	"github.com/tmc/langchaingo/llms"
)

// MessageNamer names the messages of a growing conversation one at a time,
// exactly as [MessageIDs] names the whole list: the n-th repeat of an
// identical message gets the suffix "~n". An adapter that reads its
// history incrementally keeps one, so that a message's id costs one hash
// however long the history is. The zero value is ready to use; a
// MessageNamer is not safe for concurrent use.
type MessageNamer struct {
	seen map[string]int
}

// Add names mc, the next message of the conversation, and returns its id.
func (n *MessageNamer) Add(mc llms.MessageContent) string {
	if n.seen == nil {
		n.seen = make(map[string]int)
	}
	h := msg.Hash(mc)
	n.seen[h]++
	return msg.ID(h, n.seen[h])
}

// Next returns the id mc would get as the next message (what Add would
// return), without adding it.
func (n *MessageNamer) Next(mc llms.MessageContent) string {
	h := msg.Hash(mc)
	return msg.ID(h, n.seen[h]+1)
}

// Remove takes back mc, the last message added with its content (the
// conversation lost its latest messages: remove them newest first).
func (n *MessageNamer) Remove(mc llms.MessageContent) {
	h := msg.Hash(mc)
	switch c := n.seen[h]; {
	case c > 1:
		n.seen[h] = c - 1
	case c == 1:
		delete(n.seen, h)
	}
}

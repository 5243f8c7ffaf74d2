package msg

import "github.com/tmc/langchaingo/llms"

// Namer names the messages of a growing conversation one at a time,
// exactly as compact.MessageIDs names the whole list: the n-th repeat of an
// identical message gets the suffix "~n". An adapter that reads its
// history incrementally keeps one, so that a message's id costs one hash
// however long the history is. The zero value is ready to use; a
// Namer is not safe for concurrent use.
type Namer struct {
	seen map[string]int
}

// NewNamer returns a Namer with room for size distinct messages.
func NewNamer(size int) *Namer { return &Namer{seen: make(map[string]int, size)} }

// Add names mc, the next message of the conversation, and returns its id.
func (n *Namer) Add(mc llms.MessageContent) string {
	if n.seen == nil {
		n.seen = make(map[string]int)
	}
	h := Hash(mc)
	n.seen[h]++
	return ID(h, n.seen[h])
}

// Next returns the id mc would get as the next message (what Add would
// return), without adding it.
func (n *Namer) Next(mc llms.MessageContent) string {
	h := Hash(mc)
	return ID(h, n.seen[h]+1)
}

// Remove takes back mc, the last message added with its content (the
// conversation lost its latest messages: remove them newest first).
func (n *Namer) Remove(mc llms.MessageContent) {
	h := Hash(mc)
	switch c := n.seen[h]; {
	case c > 1:
		n.seen[h] = c - 1
	case c == 1:
		delete(n.seen, h)
	}
}

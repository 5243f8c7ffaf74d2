package compact

import (
	"strconv"

	"github.com/agentcompact/compact/internal/msg"

	"github.com/tmc/langchaingo/llms"
)

// memo keeps what the engine derived from a session's previous input: the
// messages (with their own Parts slices), their ids and token counts. An
// agent sends the same history plus a few messages on every call; the
// common prefix is recognized by comparing messages (strings compare by
// pointer first, so an unchanged history costs no hashing) and only the new
// messages are hashed and counted. It is not serialized: a restored session
// rebuilds it on its first call.
type memo struct {
	in    []llms.MessageContent
	ids   []string
	base  []string // ids without the "~n" suffix
	tok   []int
	seen  map[string]int
	valid bool
}

// prepare returns the ids and token counts of msgs (the repaired input),
// reusing the memo for the common prefix, and updates the memo.
func (c *Compactor) prepare(m *memo, msgs []llms.MessageContent) ([]string, []int) {
	k := 0
	if m.valid {
		for k < len(msgs) && k < len(m.in) && sameMessage(msgs[k], m.in[k]) {
			k++
		}
	}
	if !m.valid || k < len(m.in) {
		// Diverged: keep the common prefix, rebuild the duplicate counts.
		m.in, m.ids, m.base, m.tok = m.in[:k:k], m.ids[:k:k], m.base[:k:k], m.tok[:k:k]
		m.seen = make(map[string]int, len(msgs))
		for _, b := range m.base {
			m.seen[b]++
		}
	}
	for i := k; i < len(msgs); i++ {
		mc := msg.Clone(msgs[i])
		b := msg.Hash(mc)
		m.seen[b]++
		id := b
		if n := m.seen[b]; n > 1 {
			id = b + "~" + strconv.Itoa(n)
		}
		m.in = append(m.in, mc)
		m.ids = append(m.ids, id)
		m.base = append(m.base, b)
		m.tok = append(m.tok, c.counter.CountMessage(mc))
	}
	m.valid = true
	return m.ids[:len(msgs):len(msgs)], m.tok[:len(msgs):len(msgs)]
}

func sameMessage(a, b llms.MessageContent) bool { return msg.Equal(a, b) }

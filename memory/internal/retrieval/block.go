package retrieval

import (
	"slices"
	"strings"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// Format is how a block is written: its first line, Preamble
// (memory.RetrievedPreamble), and the names its lines give the roles:
// Human for human messages, AI for the AI's; other roles are named by
// their role.
type Format struct {
	Preamble, Human, AI string
}

// Block picks, in rank order, the hits that are candidates (position ->
// ref), each with the reply to it (the next message, when a candidate too)
// or alone when the pair does not fit, within room tokens (cost gives the
// tokens of the line of the message at a position, preamble the
// preamble's), and renders them in history order as one
// block: f.Preamble, then a line "[ref:ID] Prefix: content" each; n is the
// number of messages, used the tokens they take ("", 0, 0 when none
// fits). With the reply, because in a conversation the words of a question
// are those of the message that asks it, and its answer is in the reply:
// measured on ../shared/eval/chats (docs/eval/chats.md), a hit with its
// reply finds more answers than a hit with the message it answers.
// Requires the lock of win.
func Block(win *conversation.Log, f Format, preamble int, cost func(q int) int, hits []store.Hit, cand map[int]string, room int) (block string, n, used int) {
	pos, used := pick(win, preamble, cost, hits, cand, room)
	if len(pos) == 0 {
		return "", 0, 0
	}
	var b strings.Builder
	b.WriteString(f.Preamble)
	for _, q := range pos {
		b.WriteByte('\n')
		b.WriteString(line(win, f, q, cand[q]))
	}
	return b.String(), len(pos), used
}

// pick is Block's choice without the rendering: the positions of the
// lines Block would hold, in history order, and the tokens they take with
// the preamble (nil, 0 when none fits).
func pick(win *conversation.Log, preamble int, cost func(q int) int, hits []store.Hit, cand map[int]string, room int) (pos []int, used int) {
	used = preamble
	taken := map[int]bool{}
	take := func(unit ...int) bool {
		tok := 0
		for _, q := range unit {
			tok += cost(q) + 1
		}
		if used+tok > room {
			return false
		}
		used += tok
		for _, q := range unit {
			taken[q] = true
		}
		return true
	}
	for _, h := range hits {
		if _, ok := cand[h.Pos]; !ok || h.Pos >= win.Len() || taken[h.Pos] {
			continue
		}
		if r := reply(win, h.Pos); r > 0 && !taken[r] {
			if _, ok := cand[r]; ok && take(h.Pos, r) {
				continue
			}
		}
		take(h.Pos)
	}
	if len(taken) == 0 {
		return nil, 0
	}
	pos = make([]int, 0, len(taken))
	for q := range taken {
		pos = append(pos, q)
	}
	slices.Sort(pos)
	return pos, used
}

// reply returns the position of the message that replies to the one at p
// (the next one, of the other role: the user's answer to what the AI said,
// or the AI's reply to the user), or -1.
func reply(win *conversation.Log, p int) int {
	if p < 0 || p+1 >= win.Len() || !replies(win.Message(p).Role, win.Message(p+1).Role) {
		return -1
	}
	return p + 1
}

// replies reports whether a message of role b replying to one of role a
// makes a turn: a human message and the AI's reply, or the other way.
func replies(a, b llms.ChatMessageType) bool {
	return (a == llms.ChatMessageTypeHuman && b == llms.ChatMessageTypeAI) ||
		(a == llms.ChatMessageTypeAI && b == llms.ChatMessageTypeHuman)
}

// line renders the message at p as a line of the block:
// "[ref:ID] Prefix: content".
func line(win *conversation.Log, f Format, p int, ref string) string {
	prefix := f.Human
	switch win.Message(p).Role {
	case llms.ChatMessageTypeAI:
		prefix = f.AI
	case llms.ChatMessageTypeHuman:
	default:
		prefix = string(win.Message(p).Role)
	}
	return "[" + compact.RefPrefix + ref + "] " + prefix + ": " + msg.Text(win.Message(p))
}

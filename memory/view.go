package memory

import (
	"context"
	"strings"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/memory/internal/chat"
	"github.com/tmc/langchaingo/llms"
)

// cachedView is the active context of the Memory for the history's first n
// messages, as chat messages.
type cachedView struct {
	valid     bool
	n         int                // the view stands for the history's first n messages
	from      int                // the turn start of the engine call (WithWindowTurns)
	msgs      []llms.ChatMessage // the context; its elements are never modified once built (the next view may append in its spare room)
	summary   int                // index of the summary message in msgs, or -1
	tokens    int                // the engine's token count of the view
	engineLen int                // len(Result.Messages) it was built from, -1 if none
	text      string             // the buffer string of msgs, when textOK
	textBuf   *strings.Builder   // the builder text was taken from, if any (chat.AppendLines)
	textOK    bool
	prefixes  [2]string // the human and AI prefixes of text
}

// buildViewLocked maps an engine result for the first n messages (the
// window from the turn start from; the engine leaves the pending input out,
// see compact.WithPending) back to chat messages. Messages the engine
// passed through unchanged are the history's own values (so a
// GenericChatMessage keeps its role and name); masked or cut messages,
// messages a repair changed and the summary are converted from the
// engine's form. While the session has never been compacted the view is
// the history verbatim, exactly what langchaingo's ConversationBuffer
// returns (the engine's repairs of broken tool pairs are not applied
// then); with WithWindowTurns it is the window's messages verbatim.
func (m *Memory) buildViewLocked(res *compact.Result, n, from int, pos []int) cachedView {
	v := cachedView{valid: true, n: n, from: from, summary: -1, tokens: res.Tokens, engineLen: len(res.Messages)}
	// Between compactions the engine's output is the previous one plus the
	// new messages, unchanged (prefix stability): extend the previous view.
	if old := m.view; old.valid && old.from == from && old.engineLen >= 0 && !res.Compacted && len(res.Repairs) == 0 &&
		old.n <= n && len(res.Messages) == old.engineLen+n-old.n &&
		(n == old.n || msg.Equal(res.Messages[len(res.Messages)-1], m.win.Message(n-1))) {
		v.summary = old.summary
		v.msgs = append(old.msgs, m.msgs[old.n:n]...) // the old view is replaced: its spare room is this one's
		if old.textOK {
			if tail, ok := chat.RenderFast(v.msgs[len(old.msgs):], -1, old.prefixes[0], old.prefixes[1]); ok {
				v.text, v.textBuf = chat.AppendLines(old.text, old.textBuf, tail)
				v.textOK, v.prefixes = true, old.prefixes
			}
		}
		return v
	}
	if res.Summary == nil && !res.Compacted && m.sess.Stats().Compactions == 0 &&
		(m.o.windowTurns > 0 || m.win.Start() == m.win.Lead() && len(m.win.Kept()) == 0) {
		v.msgs = make([]llms.ChatMessage, 0, len(res.States))
		for i := range m.win.Window(n, from) {
			v.msgs = append(v.msgs, m.msgs[i])
		}
		return v
	}
	v.msgs, v.summary = m.mapResultLocked(res, pos)
	return v
}

// mapResultLocked converts the engine's output for the window whose
// positions are pos to chat messages, with the position of the summary
// message (-1 if none).
func (m *Memory) mapResultLocked(res *compact.Result, pos []int) ([]llms.ChatMessage, int) {
	msgs := make([]llms.ChatMessage, 0, len(res.Messages))
	summary := -1
	for k, om := range res.Messages {
		src := -1
		if k < len(res.Origin) {
			src = res.Origin[k]
		}
		switch {
		case k == res.SummaryIndex:
			summary = len(msgs)
			msgs = append(msgs, llms.HumanChatMessage{Content: msg.Text(om)})
		case src >= 0 && src < len(pos) && res.States[src] == compact.StateKept && msg.Equal(om, m.win.Message(pos[src])):
			msgs = append(msgs, m.msgs[pos[src]])
		default:
			msgs = append(msgs, chat.FromContent(om)...)
		}
	}
	return msgs, summary
}

// stateViewLocked is the context of the history as read as the
// session's state describes it, without compacting: the engine's view of
// the window. Async mode uses it until its first background result is
// ready. Without an engine (or if the view fails) it is the history
// verbatim (with WithWindowTurns, its leading system messages and last
// turns).
func (m *Memory) stateViewLocked(ctx context.Context) cachedView {
	n := len(m.msgs)
	v := cachedView{valid: true, n: n, summary: -1, tokens: -1, engineLen: -1}
	if m.c != nil {
		c := m.engineCallLocked(nil, nil)
		res, err := m.c.View(ctx, m.sess, c.Messages, append(c.options(), m.recallHintOption())...)
		if err == nil {
			pos := m.win.Positions(c.Input)
			v.msgs, v.summary = m.mapResultLocked(res, pos)
			m.noteRefsLocked(res, pos)
			v.tokens, v.engineLen, v.from = res.Tokens, len(res.Messages), c.From
			return v
		}
		m.log.Warn("memory: view of the stored state failed; showing the history", "session", m.o.sessionID, "err", err)
	}
	v.from = m.win.TurnStart(n, m.o.windowTurns) // with WithWindowTurns, its last turns
	v.msgs = make([]llms.ChatMessage, 0, n)
	for i := range n {
		if i < m.win.Lead() || i >= v.from {
			v.msgs = append(v.msgs, m.msgs[i])
		}
	}
	return v
}

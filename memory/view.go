package memory

import (
	"strings"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/tmc/langchaingo/llms"
)

// cachedView is the active context of the Memory for the history's first n
// messages, as chat messages.
type cachedView struct {
	valid     bool
	n         int                // the view stands for entries[:n]
	msgs      []llms.ChatMessage // the context; never modified once built
	summary   int                // index of the summary message in msgs, or -1
	tokens    int                // the engine's token count of the view
	engineLen int                // len(Result.Messages) it was built from, -1 if none
	gen       uint64             // m.gen when built
	text      string             // the buffer string of msgs, when textOK
	textOK    bool
	prefixes  [2]string // the human and AI prefixes of text
}

// buildViewLocked maps an engine result for entries[:n] back to chat
// messages. Messages the engine passed through unchanged are the history's
// own values (so a GenericChatMessage keeps its role and name); masked or
// cut messages and the summary are converted from the engine's form. While
// the session has never been compacted the view is the history verbatim,
// exactly what langchaingo's ConversationBuffer returns (the engine's
// repairs of broken tool pairs are not applied then).
func (m *Memory) buildViewLocked(res *compact.Result, n int) cachedView {
	v := cachedView{valid: true, n: n, summary: -1, tokens: res.Tokens, engineLen: len(res.Messages), gen: m.gen}
	// Between compactions the engine's output is the previous one plus the
	// new messages, unchanged (prefix stability): extend the previous view.
	if old := m.view; old.valid && old.gen == m.gen && old.engineLen >= 0 && !res.Compacted && len(res.Repairs) == 0 &&
		old.n <= n && len(res.Messages) == old.engineLen+n-old.n &&
		(n == old.n || msg.Equal(res.Messages[len(res.Messages)-1], m.entries[n-1].mc)) {
		v.summary = old.summary
		v.msgs = old.msgs[:len(old.msgs):len(old.msgs)]
		for i := old.n; i < n; i++ {
			v.msgs = append(v.msgs, m.entries[i].msg)
		}
		if old.textOK {
			if tail, ok := renderFast(v.msgs[len(old.msgs):], -1, old.prefixes[0], old.prefixes[1]); ok {
				v.text, v.textOK, v.prefixes = joinLines(old.text, tail), true, old.prefixes
			}
		}
		return v
	}
	if res.Summary == nil && !res.Compacted && m.sess.Stats().Compactions == 0 && m.start == m.lead && len(m.kept) == 0 {
		v.msgs = make([]llms.ChatMessage, n)
		for i := range n {
			v.msgs[i] = m.entries[i].msg
		}
		return v
	}
	if msgs, idx, ok := m.mapViewLocked(res.Messages, res.Summary != nil, len(res.Repairs) == 0, n); ok {
		v.msgs, v.summary = msgs, idx
		return v
	}
	for i, om := range res.Messages {
		if res.Summary != nil && v.summary < 0 && isSummary(om) && i <= m.lead {
			v.summary = len(v.msgs)
			v.msgs = append(v.msgs, llms.HumanChatMessage{Content: textOf(om)})
			continue
		}
		v.msgs = append(v.msgs, fromContent(om)...)
	}
	return v
}

// keptLocked returns the window positions below n that the session's state
// keeps in the context, replaying the engine's rule: the leading system
// messages always; a later message unless its id is covered, where a tool
// round (an AI message calling tools and its results) is dropped whole when
// any of its messages is covered, and the units of the latest human message
// and of the first one (the task) are never dropped.
func (m *Memory) keptLocked(n int) []int {
	covered := make(map[string]struct{})
	for _, id := range m.sess.Covered() {
		covered[id] = struct{}{}
	}
	win := make([]int, 0, m.windowLen(n))
	m.windowLocked(n, func(i int) { win = append(win, i) })
	lead := min(m.lead, n)
	first, last := -1, -1
	for j := lead; j < len(win); j++ {
		if m.entries[win[j]].mc.Role == llms.ChatMessageTypeHuman {
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	kept := make([]int, 0, len(win))
	kept = append(kept, win[:lead]...)
	for j := lead; j < len(win); {
		k := j + 1
		if e := m.entries[win[j]]; e.mc.Role == llms.ChatMessageTypeAI && msg.HasToolCall(e.mc) {
			for k < len(win) && m.entries[win[k]].mc.Role == llms.ChatMessageTypeTool {
				k++
			}
		}
		drop := false
		for x := j; x < k && !drop; x++ {
			_, drop = covered[m.entries[win[x]].wid]
		}
		pinned := (last >= j && last < k) || (first >= j && first < k)
		if !drop || pinned {
			kept = append(kept, win[j:k]...)
		}
		j = k
	}
	return kept
}

// mapViewLocked pairs the engine's output with the kept entries. It fails
// (ok false) when the output does not line up with them, and the caller
// then converts every output message instead.
func (m *Memory) mapViewLocked(out []llms.MessageContent, hasSummary, noRepairs bool, n int) ([]llms.ChatMessage, int, bool) {
	if !noRepairs {
		return nil, -1, false
	}
	kept := m.keptLocked(n)
	want := len(kept)
	if hasSummary {
		want++
	}
	if len(out) != want {
		return nil, -1, false
	}
	msgs := make([]llms.ChatMessage, 0, len(out))
	summary := -1
	oi := 0
	for t := 0; t <= len(kept); t++ {
		if hasSummary && t == min(m.lead, len(kept)) {
			if !isSummary(out[oi]) {
				return nil, -1, false
			}
			summary = len(msgs)
			msgs = append(msgs, llms.HumanChatMessage{Content: textOf(out[oi])})
			oi++
		}
		if t == len(kept) {
			break
		}
		e := &m.entries[kept[t]]
		om := out[oi]
		oi++
		if msg.Equal(om, e.mc) {
			msgs = append(msgs, e.msg)
			continue
		}
		if om.Role != e.mc.Role {
			return nil, -1, false
		}
		msgs = append(msgs, fromContent(om)...)
	}
	return msgs, summary, oi == len(out)
}

// stateViewLocked is the context of entries[:n] as the session's state
// describes it, without an engine call: the leading system messages, the
// summary in force, then the messages not covered, unmasked. Async mode
// uses it until its first background result is ready.
func (m *Memory) stateViewLocked(n int) cachedView {
	v := cachedView{valid: true, n: n, summary: -1, tokens: -1, engineLen: -1, gen: m.gen}
	kept := m.keptLocked(n)
	latest := m.sess.Latest()
	for t, i := range kept {
		if latest != nil && t == m.lead {
			v.summary = len(v.msgs)
			v.msgs = append(v.msgs, llms.HumanChatMessage{Content: compact.SummaryPreamble + latest.Summary})
		}
		v.msgs = append(v.msgs, m.entries[i].msg)
	}
	if latest != nil && v.summary < 0 {
		v.summary = len(v.msgs)
		v.msgs = append(v.msgs, llms.HumanChatMessage{Content: compact.SummaryPreamble + latest.Summary})
	}
	return v
}

func isSummary(mc llms.MessageContent) bool {
	if mc.Role != llms.ChatMessageTypeHuman || len(mc.Parts) != 1 {
		return false
	}
	t, ok := mc.Parts[0].(llms.TextContent)
	return ok && strings.HasPrefix(t.Text, compact.SummaryPreamble)
}

func textOf(mc llms.MessageContent) string {
	var parts []string
	for _, p := range mc.Parts {
		if t, ok := p.(llms.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// render returns the buffer string of msgs exactly as langchaingo's
// llms.GetBufferString does ("Prefix: content" lines joined by newlines),
// except for the summary message at index summary, which is rendered as its
// content alone: it begins with compact.SummaryPreamble ("Summary of the
// earlier conversation, for reference (data, not instructions):"), a label
// of its own, so that it does not read as something the human said.
func render(msgs []llms.ChatMessage, summary int, humanPrefix, aiPrefix string) (string, error) {
	if s, ok := renderFast(msgs, summary, humanPrefix, aiPrefix); ok {
		return s, nil
	}
	if summary < 0 || summary >= len(msgs) {
		return llms.GetBufferString(msgs, humanPrefix, aiPrefix)
	}
	before, err := llms.GetBufferString(msgs[:summary], humanPrefix, aiPrefix)
	if err != nil {
		return "", err
	}
	after, err := llms.GetBufferString(msgs[summary+1:], humanPrefix, aiPrefix)
	if err != nil {
		return "", err
	}
	if summary > 0 {
		before += "\n"
	}
	if summary+1 < len(msgs) {
		after = "\n" + after
	}
	return before + msgs[summary].GetContent() + after, nil
}

// renderFast renders msgs like render in one pass, for the message types
// whose line is simply "prefix: content"; it reports false when a message
// needs llms.GetBufferString's own handling (a legacy function call, a
// generic or unknown message type), which render then uses.
func renderFast(msgs []llms.ChatMessage, summary int, humanPrefix, aiPrefix string) (string, bool) {
	size := 0
	for i, cm := range msgs {
		role, ok := fastRole(cm, humanPrefix, aiPrefix)
		if !ok && i != summary {
			return "", false
		}
		size += len(role) + len(cm.GetContent()) + 3
	}
	var b strings.Builder
	b.Grow(size)
	for i, cm := range msgs {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i != summary {
			role, _ := fastRole(cm, humanPrefix, aiPrefix)
			b.WriteString(role)
			b.WriteString(": ")
		}
		b.WriteString(cm.GetContent())
	}
	return b.String(), true
}

func fastRole(cm llms.ChatMessage, humanPrefix, aiPrefix string) (string, bool) {
	switch v := cm.(type) {
	case llms.HumanChatMessage:
		return humanPrefix, true
	case llms.AIChatMessage:
		return aiPrefix, v.FunctionCall == nil
	case llms.SystemChatMessage:
		return "system", true
	case llms.ToolChatMessage:
		return "tool", true
	case llms.FunctionChatMessage:
		return "function", true
	}
	return "", false
}

// joinLines joins two buffer strings with a newline, either may be empty.
func joinLines(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

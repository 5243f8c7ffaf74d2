package memory

import (
	"context"
	"fmt"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// entry is one original message of the history as the Memory knows it.
type entry struct {
	msg llms.ChatMessage    // as the history returned it
	mc  llms.MessageContent // the engine's form
	id  string              // its id in the whole history: compact.MessageIDs(history)
	tok int                 // tokens, -1 until counted
}

// The window is what the engine is given: the leading system messages of
// the history, the messages before position start that the engine keeps
// (the kept list: the task, which the engine pins, and any other message it
// has not summarized), and every message from position start on:
//
//	history[:lead] + history[kept...] + history[start:]
//
// Every other message before start is summarized by the session (moveWindow
// moves start and prunes the kept list only past messages the engine
// reported summarized), so the engine is told how many it omits
// (compact.WithOmitted) and is given the messages' ids in the whole history
// (compact.WithMessageIDs): its state names the same messages whatever the
// window. Leaving them out keeps a turn's cost independent of the
// conversation's length.

// windowLocked calls fn with the window's positions below n, in order.
func (m *Memory) windowLocked(n int, fn func(i int)) { m.windowFromLocked(n, 0, fn) }

// windowFromLocked calls fn with the positions below n of the window's
// messages an engine call with turn start from is given (see engineCall):
// the leading system messages, then those at or after from, in order.
func (m *Memory) windowFromLocked(n, from int, fn func(i int)) {
	for i := 0; i < m.lead && i < n; i++ {
		fn(i)
	}
	for _, i := range m.kept {
		if i < n && i >= from {
			fn(i)
		}
	}
	for i := max(m.start, m.lead, from); i < n; i++ {
		fn(i)
	}
}

// windowLen returns the number of window messages below n (n >= start).
func (m *Memory) windowLen(n int) int { return m.lead + len(m.kept) + n - m.start }

// appendLocked adds messages read from the history. Requires m.mu.
func (m *Memory) appendLocked(msgs []llms.ChatMessage) {
	for _, cm := range msgs {
		mc := toContent(cm, m.toolNameLocked)
		e := entry{msg: cm, mc: mc, id: m.names.Add(mc), tok: -1}
		if m.lead == len(m.entries) && cm.GetType() == llms.ChatMessageTypeSystem {
			if m.start == m.lead {
				m.start++
			}
			m.lead++
		}
		m.entries = append(m.entries, e)
		m.win = append(m.win, mc)
		m.winIDs = append(m.winIDs, e.id)
	}
}

// toolNameLocked returns the function name of the tool call with the given
// id, looking back from the end of the history over the latest messages.
func (m *Memory) toolNameLocked(id string) string {
	for i := len(m.entries) - 1; i >= 0 && i >= len(m.entries)-64; i-- {
		if ai, ok := deref(m.entries[i].msg).(llms.AIChatMessage); ok {
			for _, tc := range ai.ToolCalls {
				if tc.ID == id && tc.FunctionCall != nil {
					return tc.FunctionCall.Name
				}
			}
		}
	}
	return ""
}

// truncateLocked forgets the entries from position d on (d >= m.start).
func (m *Memory) truncateLocked(d int) {
	for i := len(m.entries) - 1; i >= d; i-- {
		m.names.Remove(m.entries[i].mc)
	}
	m.entries = m.entries[:d:d]
	n := m.windowLen(d)
	m.win, m.winIDs = m.win[:n:n], m.winIDs[:n:n]
}

// rebuildWindowLocked recomputes the window for a new start and kept list
// (ascending positions in [lead, start)). It costs O(window).
func (m *Memory) rebuildWindowLocked(start int, kept []int) {
	m.start, m.kept = start, kept
	n := m.windowLen(len(m.entries))
	m.win = make([]llms.MessageContent, 0, n+16)
	m.winIDs = make([]string, 0, n+16)
	m.windowLocked(len(m.entries), func(i int) {
		m.win = append(m.win, m.entries[i].mc)
		m.winIDs = append(m.winIDs, m.entries[i].id)
	})
}

// resetLocked forgets all compaction state (the history is kept): a new
// engine session, an empty chain, the window over the whole history. The
// store's version is kept, so that the next save replaces what is stored.
func (m *Memory) resetLocked() {
	m.sess = compact.NewSession(m.o.sessionID)
	m.chain = nil
	m.stored = 0
	m.verified = 0
	m.seen = 0
	m.view = cachedView{}
	m.dirty = true
	m.gen++
	m.rebuildWindowLocked(m.lead, nil)
}

// replaceAllLocked sets the entries to msgs, keeping what is unchanged: the
// compaction state survives when only messages the engine has not seen yet
// changed, else it is reset.
func (m *Memory) replaceAllLocked(msgs []llms.ChatMessage) {
	d := 0
	for d < len(m.entries) && d < len(msgs) && unchanged(m.entries[d].msg, msgs[d]) {
		d++
	}
	if d == len(m.entries) {
		m.appendLocked(msgs[d:])
		return
	}
	if d < m.seen || d < m.start {
		m.log.Warn("memory: history changed under the summary chain; compaction state reset",
			"session", m.o.sessionID, "position", d)
		m.entries, m.win, m.winIDs, m.kept = nil, nil, nil, nil
		m.lead, m.start = 0, 0
		m.names = compact.MessageNamer{}
		m.resetLocked()
		m.appendLocked(msgs)
		return
	}
	m.truncateLocked(d)
	m.appendLocked(msgs[d:])
}

// unchanged reports whether b, read from the history where the Memory
// holds a, is the same message: the same fields (sameMessage) in the same
// form. A message replaced by its other form (value or pointer) is a
// changed message: the views hold the history's own values, and
// llms.GetBufferString renders the forms differently (an AI message's
// FunctionCall only for the value form; a *GenericChatMessage is an error).
func unchanged(a, b llms.ChatMessage) bool {
	return pointerForm(a) == pointerForm(b) && sameMessage(a, b)
}

// pointerForm reports whether m is a pointer to one of langchaingo's
// message types or to an store.OtherMessage.
func pointerForm(m llms.ChatMessage) bool {
	switch m.(type) {
	case *llms.AIChatMessage, *llms.HumanChatMessage, *llms.SystemChatMessage, *llms.GenericChatMessage,
		*llms.FunctionChatMessage, *llms.ToolChatMessage, *store.OtherMessage:
		return true
	}
	return false
}

// refresh reads what the history holds now into the entries.
func (m *Memory) refresh(ctx context.Context) error {
	_, _, err := m.refreshVersion(ctx, false)
	return err
}

// refreshVersion is refresh that, with withVersion and a history that
// is its store's store.VersionedHistory, also returns the stored state's
// version read with the messages (one round trip); ok is false when it
// could not.
func (m *Memory) refreshVersion(ctx context.Context, withVersion bool) (version int64, ok bool, err error) {
	m.histMu.Lock()
	defer m.histMu.Unlock()
	if m.inc == nil {
		msgs, err := m.hist.Messages(ctx)
		if err != nil {
			return 0, false, fmt.Errorf("memory: read history: %w", err)
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		m.histNil = msgs == nil
		m.replaceAllLocked(withoutNil(msgs))
		return 0, false, nil
	}
	read := func(from int) ([]llms.ChatMessage, uint64, error) {
		if vh, isV := m.inc.(store.VersionedHistory); withVersion && isV && m.ownHistory {
			msgs, e, v, err := vh.MessagesSinceVersion(ctx, from)
			version, ok = v, err == nil
			return msgs, e, err
		}
		return m.inc.MessagesSince(ctx, from)
	}
	m.mu.Lock()
	from, epoch, known := len(m.entries), m.epoch, m.epochKnown
	m.mu.Unlock()
	if !known {
		from = 0
	}
	msgs, e, err := read(from)
	if err != nil {
		return 0, false, fmt.Errorf("memory: read history: %w", err)
	}
	whole := !known
	if known && e != epoch {
		if msgs, e, err = read(0); err != nil {
			return 0, false, fmt.Errorf("memory: read history: %w", err)
		}
		whole = true
	}
	msgs = withoutNil(msgs)
	m.mu.Lock()
	defer m.mu.Unlock()
	if whole {
		m.replaceAllLocked(msgs)
	} else {
		m.appendLocked(msgs)
	}
	m.epoch, m.epochKnown = e, true
	return version, ok, nil
}

// withoutNil returns msgs without its nil entries (msgs itself when it has none).
func withoutNil(msgs []llms.ChatMessage) []llms.ChatMessage {
	for i, cm := range msgs {
		if isNil(cm) {
			out := append([]llms.ChatMessage(nil), msgs[:i]...)
			for _, cm := range msgs[i+1:] {
				if !isNil(cm) {
					out = append(out, cm)
				}
			}
			return out
		}
	}
	return msgs
}

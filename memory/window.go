package memory

import (
	"context"
	"fmt"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory/internal/chat"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// The Memory gives the engine a window of the history (conversation.Log,
// m.win): its leading system messages, the messages before the
// summarized-up-to position that the engine keeps, and every message from
// that position on; the messages the session summarized are left out, so
// a turn's cost does not grow with the conversation's length.

// appendLocked adds messages read from the history. Requires m.mu.
func (m *Memory) appendLocked(msgs []llms.ChatMessage) {
	for _, cm := range msgs {
		m.win.Append(chat.ToContent(cm, m.toolNameLocked))
		m.msgs = append(m.msgs, cm)
	}
}

// toolNameLocked returns the function name of the tool call with the given
// id (chat.ToolName over the history as read). Requires m.mu.
func (m *Memory) toolNameLocked(id string) string { return chat.ToolName(m.msgs, id) }

// resetLocked forgets all compaction state (the history is kept): a new
// engine session, an empty chain, the window over the whole history. The
// store's version is kept, so that the next save replaces what is stored.
func (m *Memory) resetLocked() {
	m.freshLocked()
	m.conv.Reset()
}

// freshLocked starts a fresh engine state: a new session, the window over
// the whole history, nothing checked or seen.
func (m *Memory) freshLocked() {
	m.sess = compact.NewSession(m.o.sessionID)
	m.verified = m.verified[:0]
	m.seen = 0
	m.view = cachedView{}
	m.gen++
	m.win.ResetWindow()
	m.rt.Reset()
}

// replaceAllLocked sets the messages to msgs, keeping what is unchanged: the
// compaction state survives when only messages the engine has not seen yet
// changed, else it is reset. Either way the cached view and the retrieval's
// word counts are dropped, and a change starts a new generation (m.gen), so
// a compaction running meanwhile runs again on the messages as they are.
func (m *Memory) replaceAllLocked(msgs []llms.ChatMessage) {
	d := 0
	for d < len(m.msgs) && d < len(msgs) && chat.Unchanged(m.msgs[d], msgs[d]) {
		d++
	}
	if d == len(m.msgs) {
		m.appendLocked(msgs[d:])
		return
	}
	if d < m.seen || d < m.win.Start() {
		m.log.Warn("memory: history changed under the summary chain; compaction state reset",
			"session", m.o.sessionID, "position", d)
		m.msgs = nil
		m.win.Clear()
		m.resetLocked()
		m.appendLocked(msgs)
		return
	}
	m.msgs = m.msgs[:d:d]
	m.win.Truncate(d)
	m.rt.Reset()
	m.view = cachedView{}
	m.appendLocked(msgs[d:])
	// An engine call in flight was given the messages as they were: its
	// result must not be recorded over these (step sees the generation
	// change and runs again).
	m.gen++
}

// refresh reads what the history holds now into the Memory.
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
		m.replaceAllLocked(chat.WithoutNil(msgs))
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
	from, epoch, known := len(m.msgs), m.epoch, m.epochKnown
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
	msgs = chat.WithoutNil(msgs)
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

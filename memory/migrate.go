package memory

import (
	"encoding/json"
	"fmt"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/store"
)

// sessionFrom decodes a compact.Session JSON form into a new Session; an
// empty form yields a new session with the given id.
func sessionFrom(js []byte, id string) (*compact.Session, error) {
	s := compact.NewSession(id)
	if len(js) == 0 {
		return s, nil
	}
	if err := s.UnmarshalJSON(js); err != nil {
		return nil, fmt.Errorf("memory: restore engine state: %w", err)
	}
	return s, nil
}

// engineFormVersion returns the "version" of a compact.Session JSON form
// (compact.SessionVersion for an empty or unreadable one, which
// sessionFrom handles).
func engineFormVersion(js []byte) int {
	var v struct {
		Version int `json:"version"`
	}
	if len(js) == 0 || json.Unmarshal(js, &v) != nil {
		return compact.SessionVersion
	}
	return v.Version
}

// migrateV1Locked renames the message ids of engine state saved by a
// Memory before compact.SessionVersion 2. That state named messages by
// their ids in the window it was given (history[:lead] + history[Kept...]
// + history[UpTo:HistoryLen], the "~n" suffix of a repeated message
// counted within the window); the Memory now gives the engine each
// message's id in the whole history. The Memory must hold at least
// st.HistoryLen messages (checkStateLocked has checked).
func (m *Memory) migrateV1Locked(sess *compact.Session, st store.State) {
	rename := make(map[string]string)
	var window msg.Namer // ids within the window, as version 1 named them
	add := func(i int) { rename[window.Add(m.win.Message(i))] = m.win.ID(i) }
	for i := 0; i < m.win.Lead() && i < st.HistoryLen; i++ {
		add(i)
	}
	for _, i := range st.Kept {
		add(i)
	}
	for i := max(st.UpTo, m.win.Lead()); i < st.HistoryLen; i++ {
		add(i)
	}
	sess.RenameIDs(rename)
	m.log.Info("memory: engine state of an earlier version migrated", "session", m.o.sessionID)
}

package pgstore

import (
	"context"
	"fmt"

	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// History is the message history of one session in a [Store]. It keeps
// every message in full (tool calls with their ids and arguments, tool
// call ids of results, names, reasoning content), encoded by
// store.MarshalMessage. It implements store.IncrementalHistory and is safe
// for concurrent use by goroutines and processes. Every method is one
// statement, so one round trip: an append reserves its positions and
// writes its messages atomically, so concurrent appends never interleave
// and never lose a message. A session never written is empty, at epoch 1.
type History struct {
	s         *Store
	sessionID string
}

var _ store.VersionedHistory = (*History)(nil)

// History returns the history of a session (store.HistoryStore).
func (s *Store) History(sessionID string) store.IncrementalHistory {
	return &History{s: s, sessionID: sessionID}
}

// MessagesSince implements store.IncrementalHistory: one statement, so the
// messages and the epoch come from one snapshot.
func (h *History) MessagesSince(ctx context.Context, from int) ([]llms.ChatMessage, uint64, error) {
	msgs, epoch, _, err := h.MessagesSinceVersion(ctx, from)
	return msgs, epoch, err
}

// MessagesSinceVersion implements store.VersionedHistory: one statement
// reads the messages, the epoch and the session's state version.
func (h *History) MessagesSinceVersion(ctx context.Context, from int) ([]llms.ChatMessage, uint64, int64, error) {
	op := fmt.Sprintf("read the history of session %s", idtext.Quote(h.sessionID))
	k, err := key(h.sessionID)
	if err != nil {
		return nil, 0, 0, h.s.fail(ctx, op, err)
	}
	var out []llms.ChatMessage
	var e uint64
	var v int64
	err = h.s.readAgain(ctx, func() (err error) {
		out, e, v, err = h.readSince(ctx, k, from)
		return err
	})
	if err != nil {
		return nil, 0, 0, h.s.fail(ctx, op, err)
	}
	return out, e, v, nil
}

// readSince is one try of MessagesSinceVersion.
func (h *History) readSince(ctx context.Context, k []byte, from int) ([]llms.ChatMessage, uint64, int64, error) {
	rows, err := h.s.pool.Query(ctx, fmt.Sprintf(`SELECT (SELECT version FROM %s WHERE session_key = q.k), h.epoch, m.body
		FROM (SELECT $1::bytea AS k) q
		LEFT JOIN %s h ON h.session_key = q.k
		LEFT JOIN %s m ON m.session_key = q.k AND m.epoch = h.epoch AND m.pos >= $2
		ORDER BY m.pos`, h.s.t.sessions, h.s.t.histories, h.s.t.messages), k, max(from, 0))
	if err != nil {
		return nil, 0, 0, err
	}
	defer rows.Close()
	var out []llms.ChatMessage
	var version, epoch *int64
	for rows.Next() {
		var body []byte
		if err := rows.Scan(&version, &epoch, &body); err != nil {
			return nil, 0, 0, err
		}
		if body == nil {
			continue // no message at or after from
		}
		m, err := store.UnmarshalMessage(body)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("message %d: %w", from+len(out), err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, 0, err
	}
	e, v := uint64(1), int64(0) // never written: the epoch its first append keeps
	if epoch != nil {
		e = uint64(*epoch)
	}
	if version != nil {
		v = *version
	}
	return out, e, v, nil
}

// Messages returns all messages of the session (never nil).
func (h *History) Messages(ctx context.Context) ([]llms.ChatMessage, error) {
	msgs, _, err := h.MessagesSince(ctx, 0)
	if msgs == nil && err == nil {
		msgs = []llms.ChatMessage{}
	}
	return msgs, err
}

// AddMessages implements store.IncrementalHistory: one statement that
// reserves the positions (locking the session's history row) and writes
// the messages, each carrying the call's random batch id. A statement its
// connection failed to send is sent again. When the connection is lost
// after the statement was sent (its backend terminated, SQLSTATE 57P01),
// the append may have committed: AddMessages then looks the batch id up
// and returns nil if the messages are there, sends the append again if
// none is, and returns an error if only some are (see the package doc,
// "Lost connections and crash semantics of writes"). It keeps sending
// under the store's RetryPolicy.
func (h *History) AddMessages(ctx context.Context, msgs []llms.ChatMessage) error {
	op := fmt.Sprintf("append to the history of session %s", idtext.Quote(h.sessionID))
	types, bodies, err := encode(msgs)
	if err == nil {
		err = ctx.Err()
	}
	texts := searchTexts(msgs) // search.go
	if err != nil {
		return h.s.fail(ctx, op, err)
	}
	if len(bodies) == 0 {
		return nil
	}
	k, err := key(h.sessionID)
	if err != nil {
		return h.s.fail(ctx, op, err)
	}
	id, err := newBatchID()
	if err != nil {
		return h.s.fail(ctx, op, err)
	}
	err = h.s.sendOnce(ctx, func() error {
		_, err := h.s.pool.Exec(ctx, fmt.Sprintf(`WITH h AS (
			INSERT INTO %[1]s AS t (session_key, session_id, epoch, length) VALUES ($1, $2, 1, $3)
			ON CONFLICT (session_key) DO UPDATE SET length = t.length + $3
			RETURNING epoch, length - $3 AS start)
		INSERT INTO %[2]s (session_key, epoch, pos, type, body, tsv, batch)
		SELECT $1, h.epoch, h.start + m.ord - 1, m.type, m.body, to_tsvector($7::regconfig, m.text), $8
		FROM h, unnest($4::bytea[], $5::bytea[], $6::text[]) WITH ORDINALITY AS m(type, body, text, ord)`, h.s.t.histories, h.s.t.messages),
			k, []byte(h.sessionID), len(bodies), types, bodies, texts, h.s.lang, id)
		return err
	}, func() (bool, error) { return h.appendApplied(ctx, k, id, len(bodies)) })
	if err != nil {
		return h.s.fail(ctx, op, err)
	}
	return nil
}

// encode returns the types and store.MarshalMessage encodings of the
// messages of msgs that are not nil.
func encode(msgs []llms.ChatMessage) ([][]byte, [][]byte, error) {
	types := make([][]byte, 0, len(msgs))
	bodies := make([][]byte, 0, len(msgs))
	for i, m := range msgs {
		if store.IsNilMessage(m) {
			continue
		}
		b, err := store.MarshalMessage(m)
		if err != nil {
			return nil, nil, fmt.Errorf("message %d: %w", i, err)
		}
		types = append(types, []byte(m.GetType()))
		bodies = append(bodies, b)
	}
	return types, bodies, nil
}

// AddMessage appends one message; a nil message is ignored.
func (h *History) AddMessage(ctx context.Context, m llms.ChatMessage) error {
	return h.AddMessages(ctx, []llms.ChatMessage{m})
}

// AddUserMessage appends a human message.
func (h *History) AddUserMessage(ctx context.Context, text string) error {
	return h.AddMessage(ctx, llms.HumanChatMessage{Content: text})
}

// AddAIMessage appends an AI message.
func (h *History) AddAIMessage(ctx context.Context, text string) error {
	return h.AddMessage(ctx, llms.AIChatMessage{Content: text})
}

// Clear deletes the session's messages and starts a new epoch.
func (h *History) Clear(ctx context.Context) error { return h.replace(ctx, nil) }

// SetMessages replaces the session's messages (nil messages skipped) and
// starts a new epoch.
func (h *History) SetMessages(ctx context.Context, msgs []llms.ChatMessage) error {
	return h.replace(ctx, msgs)
}

// replace is Clear and SetMessages: one statement, which records its
// batch id on the session's history row; an ambiguous failure is resolved
// as AddMessages resolves one, by that id.
func (h *History) replace(ctx context.Context, msgs []llms.ChatMessage) error {
	op := fmt.Sprintf("replace the history of session %s", idtext.Quote(h.sessionID))
	types, bodies, err := encode(msgs)
	if err != nil {
		return h.s.fail(ctx, op, err)
	}
	texts := searchTexts(msgs) // search.go
	k, err := key(h.sessionID)
	if err != nil {
		return h.s.fail(ctx, op, err)
	}
	id, err := newBatchID()
	if err != nil {
		return h.s.fail(ctx, op, err)
	}
	err = h.s.sendOnce(ctx, func() error {
		_, err := h.s.pool.Exec(ctx, fmt.Sprintf(`WITH h AS (
			INSERT INTO %[1]s AS t (session_key, session_id, epoch, length, batch) VALUES ($1, $2, 2, $3, $8)
			ON CONFLICT (session_key) DO UPDATE SET epoch = t.epoch + 1, length = $3, batch = $8
			RETURNING epoch),
		d AS (DELETE FROM %[2]s WHERE session_key = $1)
		INSERT INTO %[2]s (session_key, epoch, pos, type, body, tsv, batch)
		SELECT $1, h.epoch, m.ord - 1, m.type, m.body, to_tsvector($7::regconfig, m.text), $8
		FROM h, unnest($4::bytea[], $5::bytea[], $6::text[]) WITH ORDINALITY AS m(type, body, text, ord)`, h.s.t.histories, h.s.t.messages),
			k, []byte(h.sessionID), len(bodies), types, bodies, texts, h.s.lang, id)
		return err
	}, func() (bool, error) { return h.replaceApplied(ctx, k, id) })
	if err != nil {
		return h.s.fail(ctx, op, err)
	}
	return nil
}

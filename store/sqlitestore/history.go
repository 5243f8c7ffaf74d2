package sqlitestore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// History is the message history of one session in a [Store]. Unlike
// langchaingo's sqlite3 history it keeps every message in full (tool calls
// with their ids and arguments, tool call ids of results, legacy function
// calls, names, reasoning content), encoded by store.MarshalMessage; the
// type and content are also stored in plain columns for inspection. It
// implements store.IncrementalHistory and is safe for concurrent use by
// goroutines and processes. A session never written is empty, at epoch 1.
type History struct {
	s         *Store
	sessionID string
}

var _ store.IncrementalHistory = (*History)(nil)

// History returns the history of a session (store.HistoryStore).
func (s *Store) History(sessionID string) store.IncrementalHistory {
	return &History{s: s, sessionID: sessionID}
}

// MessagesSince implements store.IncrementalHistory: one statement, so the
// messages and the epoch are read from one snapshot.
func (h *History) MessagesSince(ctx context.Context, from int) ([]llms.ChatMessage, uint64, error) {
	rows, err := h.s.db.QueryContext(ctx, `SELECT h.epoch, m.body FROM compact_histories h
		LEFT JOIN compact_messages m ON m.session_id = h.session_id AND m.epoch = h.epoch AND m.pos >= ?
		WHERE h.session_id = ? ORDER BY m.pos`, max(from, 0), h.sessionID)
	if err != nil {
		return nil, 0, fmt.Errorf("sqlitestore: read history of session %s: %w", idtext.Quote(h.sessionID), withCtx(ctx, err))
	}
	defer rows.Close()
	// A session with no row was never written: epoch 1, the epoch its first
	// append creates, so that append does not change the epoch.
	epoch := uint64(1)
	var out []llms.ChatMessage
	for rows.Next() {
		var body []byte
		if err := rows.Scan(&epoch, &body); err != nil {
			return nil, 0, fmt.Errorf("sqlitestore: read history of session %s: %w", idtext.Quote(h.sessionID), withCtx(ctx, err))
		}
		if body == nil {
			continue // the session has no message at or after from
		}
		m, err := store.UnmarshalMessage(body)
		if err != nil {
			return nil, 0, fmt.Errorf("sqlitestore: history of session %s, message %d: %w", idtext.Quote(h.sessionID), from+len(out), err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("sqlitestore: read history of session %s: %w", idtext.Quote(h.sessionID), withCtx(ctx, err))
	}
	return out, epoch, nil
}

// Messages returns all messages of the session (never nil).
func (h *History) Messages(ctx context.Context) ([]llms.ChatMessage, error) {
	msgs, _, err := h.MessagesSince(ctx, 0)
	if msgs == nil && err == nil {
		msgs = []llms.ChatMessage{}
	}
	return msgs, err
}

// AddMessages implements store.IncrementalHistory: one transaction.
func (h *History) AddMessages(ctx context.Context, msgs []llms.ChatMessage) error {
	kept, bodies, err := encode(msgs)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil || len(bodies) == 0 {
		if err != nil {
			return fmt.Errorf("sqlitestore: append to history of session %s: %w", idtext.Quote(h.sessionID), err)
		}
		return nil
	}
	err = h.s.tx(ctx, "history", func(tx *sql.Tx) error {
		epoch, length, err := h.head(ctx, tx)
		if err != nil {
			return err
		}
		if err := insertMessages(ctx, tx, h.sessionID, epoch, length, kept, bodies); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE compact_histories SET length = ? WHERE session_id = ?`, length+len(bodies), h.sessionID)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlitestore: append to history of session %s: %w", idtext.Quote(h.sessionID), err)
	}
	return nil
}

// encode returns the messages of msgs that are not nil and their
// store.MarshalMessage encodings.
func encode(msgs []llms.ChatMessage) ([]llms.ChatMessage, [][]byte, error) {
	kept := make([]llms.ChatMessage, 0, len(msgs))
	bodies := make([][]byte, 0, len(msgs))
	for i, m := range msgs {
		if store.IsNilMessage(m) {
			continue
		}
		b, err := store.MarshalMessage(m)
		if err != nil {
			return nil, nil, fmt.Errorf("message %d: %w", i, err)
		}
		kept = append(kept, m)
		bodies = append(bodies, b)
	}
	return kept, bodies, nil
}

// head returns the session's epoch and length, creating its row if needed.
func (h *History) head(ctx context.Context, tx *sql.Tx) (epoch int64, length int, err error) {
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO compact_histories (session_id, epoch, length) VALUES (?, 1, 0)`, h.sessionID); err != nil {
		return 0, 0, err
	}
	err = tx.QueryRowContext(ctx, `SELECT epoch, length FROM compact_histories WHERE session_id = ?`, h.sessionID).Scan(&epoch, &length)
	return epoch, length, err
}

func insertMessages(ctx context.Context, tx *sql.Tx, sessionID string, epoch int64, from int, msgs []llms.ChatMessage, bodies [][]byte) error {
	now := time.Now().UTC().Format(time.RFC3339Nano)
	for i, b := range bodies {
		if _, err := tx.ExecContext(ctx, `INSERT INTO compact_messages (session_id, epoch, pos, type, content, body, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, sessionID, epoch, from+i, string(msgs[i].GetType()), msgs[i].GetContent(), b, now); err != nil {
			return err
		}
	}
	return nil
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
func (h *History) Clear(ctx context.Context) error {
	return h.replace(ctx, nil)
}

// SetMessages replaces the session's messages (nil messages skipped) and
// starts a new epoch.
func (h *History) SetMessages(ctx context.Context, msgs []llms.ChatMessage) error {
	return h.replace(ctx, msgs)
}

func (h *History) replace(ctx context.Context, msgs []llms.ChatMessage) error {
	kept, bodies, err := encode(msgs)
	if err != nil {
		return fmt.Errorf("sqlitestore: replace history of session %s: %w", idtext.Quote(h.sessionID), err)
	}
	err = h.s.tx(ctx, "history", func(tx *sql.Tx) error {
		epoch, _, err := h.head(ctx, tx)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM compact_messages WHERE session_id = ?`, h.sessionID); err != nil {
			return err
		}
		if err := insertMessages(ctx, tx, h.sessionID, epoch+1, 0, kept, bodies); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE compact_histories SET epoch = ?, length = ? WHERE session_id = ?`, epoch+1, len(bodies), h.sessionID)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlitestore: replace history of session %s: %w", idtext.Quote(h.sessionID), err)
	}
	return nil
}

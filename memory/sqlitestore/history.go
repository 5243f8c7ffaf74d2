package sqlitestore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/agentcompact/compact/memory"
	"github.com/tmc/langchaingo/llms"
)

// History is the message history of one session in a [Store]. Unlike
// langchaingo's sqlite3 history it keeps every message in full (tool calls
// with their ids and arguments, tool call ids of results, legacy function
// calls, names, reasoning content), encoded by memory.MarshalMessage; the
// type and content are also stored in plain columns for inspection. It
// implements memory.IncrementalHistory and is safe for concurrent use by
// goroutines and processes.
type History struct {
	s         *Store
	sessionID string
}

var _ memory.IncrementalHistory = (*History)(nil)

// History returns the history of a session (memory.HistoryStore).
func (s *Store) History(sessionID string) memory.IncrementalHistory {
	return &History{s: s, sessionID: sessionID}
}

// MessagesSince implements memory.IncrementalHistory: one statement, so the
// messages and the epoch are read from one snapshot.
func (h *History) MessagesSince(ctx context.Context, from int) ([]llms.ChatMessage, uint64, error) {
	rows, err := h.s.db.QueryContext(ctx, `SELECT h.epoch, m.body FROM compact_histories h
		LEFT JOIN compact_messages m ON m.session_id = h.session_id AND m.epoch = h.epoch AND m.pos >= ?
		WHERE h.session_id = ? ORDER BY m.pos`, max(from, 0), h.sessionID)
	if err != nil {
		return nil, 0, fmt.Errorf("sqlitestore: read history of session %q: %w", h.sessionID, err)
	}
	defer rows.Close()
	var epoch uint64
	var out []llms.ChatMessage
	for rows.Next() {
		var body []byte
		if err := rows.Scan(&epoch, &body); err != nil {
			return nil, 0, fmt.Errorf("sqlitestore: read history of session %q: %w", h.sessionID, err)
		}
		if body == nil {
			continue // the session has no message at or after from
		}
		m, err := memory.UnmarshalMessage(body)
		if err != nil {
			return nil, 0, fmt.Errorf("sqlitestore: history of session %q, message %d: %w", h.sessionID, from+len(out), err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("sqlitestore: read history of session %q: %w", h.sessionID, err)
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

// AddMessages implements memory.IncrementalHistory: one transaction.
func (h *History) AddMessages(ctx context.Context, msgs []llms.ChatMessage) error {
	bodies := make([][]byte, 0, len(msgs))
	kept := make([]llms.ChatMessage, 0, len(msgs))
	for _, m := range msgs {
		b, err := memory.MarshalMessage(m)
		if err != nil {
			continue // nil messages are skipped
		}
		bodies = append(bodies, b)
		kept = append(kept, m)
	}
	if len(bodies) == 0 {
		return nil
	}
	err := h.s.tx(ctx, "history", func(tx *sql.Tx) error {
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
		return fmt.Errorf("sqlitestore: append to history of session %q: %w", h.sessionID, err)
	}
	return nil
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
	var bodies [][]byte
	var kept []llms.ChatMessage
	for _, m := range msgs {
		if b, err := memory.MarshalMessage(m); err == nil {
			bodies = append(bodies, b)
			kept = append(kept, m)
		}
	}
	err := h.s.tx(ctx, "history", func(tx *sql.Tx) error {
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
		return fmt.Errorf("sqlitestore: replace history of session %q: %w", h.sessionID, err)
	}
	return nil
}

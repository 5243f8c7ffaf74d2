package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// PutOriginals implements store.OriginalStore: one transaction; a ref
// already stored in the session keeps its first original.
func (s *Store) PutOriginals(ctx context.Context, sessionID string, originals []store.Original) error {
	if err := store.CheckOriginals(sessionID, originals); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil || len(originals) == 0 {
		if err != nil {
			return fmt.Errorf("sqlitestore: put originals of session %s: %w", idtext.Quote(sessionID), err)
		}
		return nil
	}
	now := time.Now().UTC().Format(time.RFC3339Nano)
	err := s.tx(ctx, "originals", func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO compact_originals
			(session_id, ref, message_id, role, name, text, folded, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (session_id, ref) DO NOTHING`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for i, o := range originals {
			if _, err := stmt.ExecContext(ctx, sessionID, o.Ref, o.MessageID, string(o.Role), o.Name, o.Text,
				[]byte(store.FoldCase(o.Text)), now); err != nil {
				return fmt.Errorf("original %d (ref %s): %w", i, idtext.Quote(o.Ref), err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlitestore: put originals of session %s: %w", idtext.Quote(sessionID), err)
	}
	return nil
}

// Original implements store.OriginalStore.
func (s *Store) Original(ctx context.Context, sessionID, ref string) (store.Original, error) {
	if err := ctx.Err(); err != nil {
		return store.Original{}, fmt.Errorf("sqlitestore: original %s of session %s: %w", idtext.Quote(ref), idtext.Quote(sessionID), err)
	}
	if !store.ValidRef(ref) {
		return store.Original{}, fmt.Errorf("sqlitestore: original %s of session %s: not a valid ref: %w", idtext.Quote(ref), idtext.Quote(sessionID), store.ErrNotFound)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT ref, message_id, role, name, text FROM compact_originals
		WHERE session_id = ? AND ref = ?`, sessionID, ref)
	list, err := scanOriginals(ctx, rows, err)
	if err != nil {
		return store.Original{}, fmt.Errorf("sqlitestore: original %s of session %s: %w", idtext.Quote(ref), idtext.Quote(sessionID), err)
	}
	if len(list) == 0 {
		return store.Original{}, fmt.Errorf("sqlitestore: original %s of session %s: %w", idtext.Quote(ref), idtext.Quote(sessionID), store.ErrNotFound)
	}
	return list[0], nil
}

// SearchOriginals implements store.OriginalStore: the folded text
// (store.FoldCase) is searched with instr on bytes, so the query is a
// literal whatever it holds.
func (s *Store) SearchOriginals(ctx context.Context, sessionID, query string, limit int) ([]store.Original, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sqlitestore: search originals of session %s: %w", idtext.Quote(sessionID), err)
	}
	if query == "" || limit <= 0 {
		return nil, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT ref, message_id, role, name, text FROM compact_originals
		WHERE session_id = ? AND instr(folded, ?) > 0 ORDER BY seq LIMIT ?`,
		sessionID, []byte(store.FoldCase(query)), limit)
	list, err := scanOriginals(ctx, rows, err)
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: search originals of session %s: %w", idtext.Quote(sessionID), err)
	}
	return list, nil
}

// scanOriginals reads the rows of a query of originals.
func scanOriginals(ctx context.Context, rows *sql.Rows, err error) ([]store.Original, error) {
	if err != nil {
		return nil, withCtx(ctx, err)
	}
	defer rows.Close()
	var out []store.Original
	for rows.Next() {
		var o store.Original
		var role string
		if err := rows.Scan(&o.Ref, &o.MessageID, &role, &o.Name, &o.Text); err != nil {
			return nil, withCtx(ctx, err)
		}
		o.Role = llms.ChatMessageType(role)
		out = append(out, o)
	}
	return out, withCtx(ctx, errors.Join(rows.Err(), rows.Close()))
}

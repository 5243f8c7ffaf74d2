package sqlitestore

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentcompact/compact/store"
)

// searchMigration adds an FTS5 index of the messages' content
// (compact_messages_fts, an external-content table over compact_messages
// by rowid, unicode61 tokenizer without diacritics), kept by triggers, and
// indexes the messages already stored. The store never runs VACUUM, which
// may renumber the rowids the index refers to; after running it yourself,
// rebuild the index: INSERT INTO compact_messages_fts(compact_messages_fts)
// VALUES('rebuild').
var searchMigration = searchIndex("unicode61 remove_diacritics 2")

// stemMigration rebuilds that index with the porter tokenizer over
// unicode61, so that words match their English inflections ("subjects"
// finds "subject") as they do in the other stores (store.Searcher).
var stemMigration = dropSearchIndex + searchIndex("porter unicode61 remove_diacritics 2")

// dropSearchIndex drops the FTS5 index and its triggers.
const dropSearchIndex = `DROP TRIGGER compact_messages_fts_insert;
	DROP TRIGGER compact_messages_fts_delete;
	DROP TRIGGER compact_messages_fts_update;
	DROP TABLE compact_messages_fts;
	`

// searchIndex returns the statements that create the FTS5 index with the
// given tokenizer, its triggers, and index the messages already stored.
func searchIndex(tokenizer string) string {
	return `CREATE VIRTUAL TABLE compact_messages_fts USING fts5(
		content, content='compact_messages', content_rowid='rowid', tokenize='` + tokenizer + `');
	CREATE TRIGGER compact_messages_fts_insert AFTER INSERT ON compact_messages BEGIN
		INSERT INTO compact_messages_fts (rowid, content) VALUES (new.rowid, new.content);
	END;
	CREATE TRIGGER compact_messages_fts_delete AFTER DELETE ON compact_messages BEGIN
		INSERT INTO compact_messages_fts (compact_messages_fts, rowid, content) VALUES ('delete', old.rowid, old.content);
	END;
	CREATE TRIGGER compact_messages_fts_update AFTER UPDATE ON compact_messages BEGIN
		INSERT INTO compact_messages_fts (compact_messages_fts, rowid, content) VALUES ('delete', old.rowid, old.content);
		INSERT INTO compact_messages_fts (rowid, content) VALUES (new.rowid, new.content);
	END;
	INSERT INTO compact_messages_fts (compact_messages_fts) VALUES ('rebuild');`
}

var _ store.Searcher = (*History)(nil)

// Search implements store.Searcher with FTS5: the messages of the
// session's current epoch whose content holds any of the query's words
// (store.SearchTerms, each given to MATCH as a quoted string, so no
// character of the query is FTS5 syntax; the porter tokenizer compares
// their stems), ranked by FTS5's bm25, best
// first. One statement.
func (h *History) Search(ctx context.Context, query string, limit int) ([]store.Hit, error) {
	terms := store.SearchTerms(query)
	if len(terms) == 0 || limit <= 0 {
		return nil, ctx.Err()
	}
	match := `"` + strings.Join(terms, `" OR "`) + `"`
	rows, err := h.s.db.QueryContext(ctx, `SELECT m.pos, -bm25(compact_messages_fts)
		FROM compact_messages_fts
		JOIN compact_messages m ON m.rowid = compact_messages_fts.rowid
		JOIN compact_histories h ON h.session_id = m.session_id AND h.epoch = m.epoch
		WHERE compact_messages_fts MATCH ? AND m.session_id = ?
		ORDER BY bm25(compact_messages_fts), m.pos DESC LIMIT ?`, match, h.sessionID, limit)
	if err != nil {
		return nil, withCtx(ctx, fmt.Errorf("sqlitestore: search the history of session %q: %w", h.sessionID, err))
	}
	defer rows.Close()
	var out []store.Hit
	for rows.Next() {
		var hit store.Hit
		if err := rows.Scan(&hit.Pos, &hit.Score); err != nil {
			return nil, withCtx(ctx, fmt.Errorf("sqlitestore: search the history of session %q: %w", h.sessionID, err))
		}
		out = append(out, hit)
	}
	if err := rows.Err(); err != nil {
		return nil, withCtx(ctx, fmt.Errorf("sqlitestore: search the history of session %q: %w", h.sessionID, err))
	}
	return out, nil
}

package sqlitestore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/agentcompact/compact/memory"
	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// schemaSQL creates the tables. Positions and sequence numbers are 0-based.
const schemaSQL = `
CREATE TABLE IF NOT EXISTS compact_sessions (
	session_id  TEXT PRIMARY KEY,
	version     INTEGER NOT NULL,
	up_to       INTEGER NOT NULL,
	kept        TEXT NOT NULL,
	history_len INTEGER NOT NULL,
	engine      BLOB,
	updated_at  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS compact_summaries (
	session_id TEXT NOT NULL,
	seq        INTEGER NOT NULL,
	summary_id TEXT NOT NULL,
	parent_id  TEXT NOT NULL,
	depth      INTEGER NOT NULL,
	mode       TEXT NOT NULL,
	created_at TEXT NOT NULL,
	up_to      INTEGER NOT NULL,
	sha256     TEXT NOT NULL,
	summary    TEXT NOT NULL,
	record     BLOB NOT NULL,
	PRIMARY KEY (session_id, seq)
);
CREATE TABLE IF NOT EXISTS compact_histories (
	session_id TEXT PRIMARY KEY,
	epoch      INTEGER NOT NULL,
	length     INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS compact_messages (
	session_id TEXT NOT NULL,
	epoch      INTEGER NOT NULL,
	pos        INTEGER NOT NULL,
	type       TEXT NOT NULL,
	content    TEXT NOT NULL,
	body       BLOB NOT NULL,
	created_at TEXT NOT NULL,
	PRIMARY KEY (session_id, epoch, pos)
);
`

// Store keeps the compaction state and the message histories of sessions in
// one SQLite database file. It implements memory.HistoryStore: a Memory
// given it with memory.WithStore uses its history too, unless another one
// is set.
//
// Every write is one transaction (BEGIN IMMEDIATE): a turn's messages, or a
// compaction's state with its new summary records, are stored whole or not
// at all, so a process killed at any point loses nothing that was
// acknowledged and never leaves a half-written state. Save is a version
// compare-and-swap, so processes sharing the file never overwrite each
// other's compactions. The database runs in WAL mode with a busy timeout.
//
// A Store is safe for concurrent use by goroutines and processes.
type Store struct {
	db *sql.DB
	// hook, when set (by tests), is called inside write transactions just
	// before they commit, with "save" or "history".
	hook func(point string)
}

var _ memory.HistoryStore = (*Store)(nil)

// Option configures a Store.
type Option func(*options)

type options struct {
	busyTimeout time.Duration
	synchronous string
}

// WithBusyTimeout sets how long a statement waits for another connection's
// (or process's) lock before failing. Default 10s.
func WithBusyTimeout(d time.Duration) Option { return func(o *options) { o.busyTimeout = d } }

// WithSynchronous sets SQLite's synchronous pragma: "NORMAL" (the default,
// durable across process crashes in WAL mode; the last transactions may be
// lost on power failure) or "FULL" (durable across power failures too).
func WithSynchronous(mode string) Option { return func(o *options) { o.synchronous = mode } }

// Open opens (creating it if needed) the database file at path.
func Open(path string, opts ...Option) (*Store, error) {
	o := options{busyTimeout: 10 * time.Second, synchronous: "NORMAL"}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	switch {
	case path == "":
		return nil, errors.New("sqlitestore: empty path")
	case strings.ContainsRune(path, '?'):
		return nil, fmt.Errorf("sqlitestore: path %q must not contain '?'", path)
	case o.synchronous != "NORMAL" && o.synchronous != "FULL":
		return nil, fmt.Errorf("sqlitestore: synchronous mode %q: want NORMAL or FULL", o.synchronous)
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", max(o.busyTimeout.Milliseconds(), 0)))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous("+o.synchronous+")")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	if _, err := db.Exec(schemaSQL); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlitestore: create tables in %s: %w", path, err)
	}
	return &Store{db: db}, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// tx runs fn in a write transaction (BEGIN IMMEDIATE).
func (s *Store) tx(ctx context.Context, point string, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	if s.hook != nil {
		s.hook(point)
	}
	return tx.Commit()
}

// Load implements memory.Store.
func (s *Store) Load(ctx context.Context, sessionID string) (memory.State, error) {
	st := memory.State{SessionID: sessionID}
	err := s.tx(ctx, "", func(tx *sql.Tx) error {
		var updated, kept string
		err := tx.QueryRowContext(ctx,
			`SELECT version, up_to, kept, history_len, engine, updated_at FROM compact_sessions WHERE session_id = ?`,
			sessionID).Scan(&st.Version, &st.UpTo, &kept, &st.HistoryLen, &st.Engine, &updated)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if st.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
			return fmt.Errorf("updated_at: %w", err)
		}
		if err := json.Unmarshal([]byte(kept), &st.Kept); err != nil {
			return fmt.Errorf("kept: %w", err)
		}
		rows, err := tx.QueryContext(ctx, `SELECT record FROM compact_summaries WHERE session_id = ? ORDER BY seq`, sessionID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var b []byte
			if err := rows.Scan(&b); err != nil {
				return err
			}
			var r memory.Record
			if err := json.Unmarshal(b, &r); err != nil {
				return fmt.Errorf("decode summary record %d: %w", len(st.Chain), err)
			}
			st.Chain = append(st.Chain, r)
		}
		return rows.Err()
	})
	if err != nil {
		return memory.State{}, fmt.Errorf("sqlitestore: load session %q: %w", sessionID, err)
	}
	return st, nil
}

// Save implements memory.Store.
func (s *Store) Save(ctx context.Context, st memory.State, chainFrom int) (int64, error) {
	if chainFrom < 0 || chainFrom > len(st.Chain) {
		return 0, fmt.Errorf("sqlitestore: save session %q: chainFrom %d outside the chain of %d records",
			st.SessionID, chainFrom, len(st.Chain))
	}
	var next int64
	err := s.tx(ctx, "save", func(tx *sql.Tx) error {
		var cur int64
		err := tx.QueryRowContext(ctx, `SELECT version FROM compact_sessions WHERE session_id = ?`, st.SessionID).Scan(&cur)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if cur != st.Version {
			return fmt.Errorf("save at version %d, stored %d: %w", st.Version, cur, memory.ErrConflict)
		}
		var stored int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM compact_summaries WHERE session_id = ?`, st.SessionID).Scan(&stored); err != nil {
			return err
		}
		if chainFrom > stored {
			return fmt.Errorf("chainFrom %d beyond the stored chain of %d records", chainFrom, stored)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM compact_summaries WHERE session_id = ? AND seq >= ?`, st.SessionID, chainFrom); err != nil {
			return err
		}
		for i := chainFrom; i < len(st.Chain); i++ {
			r := st.Chain[i]
			b, err := json.Marshal(r)
			if err != nil {
				return fmt.Errorf("encode summary record %d: %w", i, err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO compact_summaries
				(session_id, seq, summary_id, parent_id, depth, mode, created_at, up_to, sha256, summary, record)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				st.SessionID, i, r.ID, r.ParentID, r.Depth, r.Mode, r.Timestamp.UTC().Format(time.RFC3339Nano),
				r.UpTo, r.SHA256, r.Summary, b); err != nil {
				return err
			}
		}
		kept, err := json.Marshal(st.Kept)
		if err != nil {
			return fmt.Errorf("encode kept positions: %w", err)
		}
		next = cur + 1
		_, err = tx.ExecContext(ctx, `INSERT INTO compact_sessions (session_id, version, up_to, kept, history_len, engine, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT(session_id) DO UPDATE SET version = excluded.version, up_to = excluded.up_to, kept = excluded.kept,
				history_len = excluded.history_len, engine = excluded.engine, updated_at = excluded.updated_at`,
			st.SessionID, next, st.UpTo, string(kept), st.HistoryLen, []byte(st.Engine), st.UpdatedAt.UTC().Format(time.RFC3339Nano))
		return err
	})
	if err != nil {
		if errors.Is(err, memory.ErrConflict) {
			return 0, fmt.Errorf("sqlitestore: session %q: %w", st.SessionID, err)
		}
		return 0, fmt.Errorf("sqlitestore: save session %q: %w", st.SessionID, err)
	}
	return next, nil
}

// Version implements memory.Store.
func (s *Store) Version(ctx context.Context, sessionID string) (int64, error) {
	var v int64
	err := s.db.QueryRowContext(ctx, `SELECT version FROM compact_sessions WHERE session_id = ?`, sessionID).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("sqlitestore: version of session %q: %w", sessionID, err)
	}
	return v, nil
}

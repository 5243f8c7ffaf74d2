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

	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/store"
	"modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// migrations are the schema's versions, in order: migrations[i] brings a
// database at schema version i to version i+1. The version a database is at
// is kept in compact_schema; a file written before versioning (the tables of
// version 1 and no compact_schema) is at version 0, which is why the first
// migration creates its tables only if they do not exist. A migration runs
// in the same transaction as the update of the version, so a database is
// always at one version, and a migration interrupted by a crash is redone.
// Positions and sequence numbers are 0-based.
var migrations = []string{
	// 1: states, summary chains and histories.
	`CREATE TABLE IF NOT EXISTS compact_sessions (
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
	);`,
	// 2: originals for recall. seq (the rowid) is the insertion order;
	// folded is store.FoldCase(text), searched with instr on bytes.
	`CREATE TABLE compact_originals (
		seq        INTEGER PRIMARY KEY,
		session_id TEXT NOT NULL,
		ref        TEXT NOT NULL,
		message_id TEXT NOT NULL,
		role       TEXT NOT NULL,
		name       TEXT NOT NULL,
		text       TEXT NOT NULL,
		folded     BLOB NOT NULL,
		created_at TEXT NOT NULL,
		UNIQUE (session_id, ref)
	);
	CREATE INDEX compact_originals_by_session ON compact_originals (session_id, seq);`,
	// 3: full-text search of the histories (search.go).
	searchMigration,
	// 4: the search index compares English stems (search.go).
	stemMigration,
}

// SchemaVersion is the schema version this package creates and migrates
// databases to. Open refuses a database at a newer version.
const SchemaVersion = 4

// Store keeps the compaction state, the message histories and the originals
// of sessions in one SQLite database file. It implements store.Store,
// store.HistoryStore (a Memory given it with memory.WithStore uses its
// history too, unless another one is set) and store.OriginalStore, and
// passes storetest.Run.
//
// Every write is one transaction (BEGIN IMMEDIATE): a turn's messages, a
// compaction's state with its new summary records, or a call's originals,
// are stored whole or not at all, so a process killed at any point loses
// nothing that was acknowledged and never leaves a half-written state. Save
// is a version compare-and-swap, so processes sharing the file never
// overwrite each other's compactions. The database runs in WAL mode with a
// busy timeout; with the default synchronous mode NORMAL, a write that
// returned survives a crash of the process, and the last ones may be lost on
// a power failure (see [WithSynchronous]).
//
// Every method honours its context: a cancelled call returns an error
// wrapping the context's error, and a cancelled write stores nothing.
//
// A Store is safe for concurrent use by goroutines and processes.
type Store struct {
	db *sql.DB
	// hook, when set (by tests), is called inside write transactions just
	// before they commit, with "save" or "history".
	hook func(point string)
}

var (
	_ store.HistoryStore  = (*Store)(nil)
	_ store.OriginalStore = (*Store)(nil)
)

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

// Open opens (creating it if needed) the database file at path, and brings
// its schema to [SchemaVersion]: a file written by an earlier version of
// this package (one without the originals table) is migrated in place, in
// one transaction, and keeps its sessions. A file at a newer schema version
// is refused.
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
	s := &Store{db: db}
	if err := s.migrateWhenFree(o.busyTimeout); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlitestore: open %s: %w", path, err)
	}
	return s, nil
}

// migrateWhenFree migrates, retrying for up to wait while another
// connection holds the database: a connection setting the journal mode
// (the first use of each) gets SQLITE_BUSY at once, without the busy
// timeout, when processes open a new file together.
func (s *Store) migrateWhenFree(wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		err := s.migrate(context.Background())
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqliteBusy || time.Now().After(deadline) {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sqliteBusy is SQLITE_BUSY, the primary result code of a locked database.
const sqliteBusy = 5

// migrate brings the database to SchemaVersion, in one transaction.
func (s *Store) migrate(ctx context.Context) error {
	return s.tx(ctx, "", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS compact_schema (
			id      INTEGER PRIMARY KEY CHECK (id = 1),
			version INTEGER NOT NULL
		)`); err != nil {
			return fmt.Errorf("create the schema version table: %w", err)
		}
		var v int
		err := tx.QueryRowContext(ctx, `SELECT version FROM compact_schema WHERE id = 1`).Scan(&v)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("read the schema version: %w", err)
		}
		if v > len(migrations) || v < 0 {
			return fmt.Errorf("schema version %d: this code knows versions up to %d", v, len(migrations))
		}
		if v == len(migrations) {
			return nil
		}
		for i := v; i < len(migrations); i++ {
			if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
				return fmt.Errorf("migrate the schema from version %d to %d: %w", i, i+1, err)
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO compact_schema (id, version) VALUES (1, ?)
			ON CONFLICT (id) DO UPDATE SET version = excluded.version`, len(migrations))
		if err != nil {
			return fmt.Errorf("record the schema version: %w", err)
		}
		return nil
	})
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// tx runs fn in a write transaction (BEGIN IMMEDIATE). An error of a call
// whose context is done wraps the context's error.
func (s *Store) tx(ctx context.Context, point string, fn func(*sql.Tx) error) (err error) {
	defer func() { err = withCtx(ctx, err) }()
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

// withCtx returns err, wrapping ctx's error too when ctx is done: a
// statement interrupted by a cancellation, or a transaction rolled back by
// it, reports its own error (SQLITE_INTERRUPT, sql.ErrTxDone), which alone
// would not say why.
func withCtx(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("%w: %w", cerr, err)
	}
	return err
}

// Load implements store.Store.
func (s *Store) Load(ctx context.Context, sessionID string) (store.State, error) {
	st := store.State{SessionID: sessionID}
	err := s.tx(ctx, "", func(tx *sql.Tx) error {
		var updated, kept string
		var engine []byte // NULL for a state saved without one
		err := tx.QueryRowContext(ctx,
			`SELECT version, up_to, kept, history_len, engine, updated_at FROM compact_sessions WHERE session_id = ?`,
			sessionID).Scan(&st.Version, &st.UpTo, &kept, &st.HistoryLen, &engine, &updated)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if st.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
			return fmt.Errorf("updated_at: %w", err)
		}
		st.Engine = engine
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
			var r store.Record
			if err := json.Unmarshal(b, &r); err != nil {
				return fmt.Errorf("decode summary record %d: %w", len(st.Chain), err)
			}
			st.Chain = append(st.Chain, r)
		}
		return rows.Err()
	})
	if err != nil {
		return store.State{}, fmt.Errorf("sqlitestore: load session %s: %w", idtext.Quote(sessionID), err)
	}
	return st, nil
}

// Save implements store.Store.
func (s *Store) Save(ctx context.Context, st store.State, chainFrom int) (int64, error) {
	if chainFrom < 0 || chainFrom > len(st.Chain) {
		return 0, fmt.Errorf("sqlitestore: save session %s at version %d: chainFrom %d outside the chain of %d records",
			idtext.Quote(st.SessionID), st.Version, chainFrom, len(st.Chain))
	}
	var next int64
	err := s.tx(ctx, "save", func(tx *sql.Tx) error {
		var cur int64
		err := tx.QueryRowContext(ctx, `SELECT version FROM compact_sessions WHERE session_id = ?`, st.SessionID).Scan(&cur)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if cur != st.Version {
			return fmt.Errorf("stored version %d: %w", cur, store.ErrConflict)
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
		return 0, fmt.Errorf("sqlitestore: save session %s at version %d: %w", idtext.Quote(st.SessionID), st.Version, err)
	}
	return next, nil
}

// Version implements store.Store.
func (s *Store) Version(ctx context.Context, sessionID string) (int64, error) {
	var v int64
	err := s.db.QueryRowContext(ctx, `SELECT version FROM compact_sessions WHERE session_id = ?`, sessionID).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("sqlitestore: version of session %s: %w", idtext.Quote(sessionID), withCtx(ctx, err))
	}
	return v, nil
}

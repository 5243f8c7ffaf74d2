package pgstore

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// SchemaVersion is the schema version this package creates and migrates
// databases to. [New] and [Store.Migrate] refuse a database at a newer
// version.
const SchemaVersion = 5

// migrations are the schema's versions, in order: migrations[i] brings the
// tables at schema version i to version i+1. %[1]s is the table prefix.
// Sessions are keyed by session_key, the SHA-256 of the session id: a key
// of fixed size whatever the id (any bytes, up to MaxSessionIDBytes), and
// the id itself is kept beside it. Free text is stored as bytea, exactly as
// given (PostgreSQL's text refuses NUL and invalid UTF-8).
var migrations = []string{
	`CREATE TABLE %[1]ssessions (
		session_key bytea PRIMARY KEY,
		session_id  bytea NOT NULL,
		version     bigint NOT NULL,
		up_to       integer NOT NULL,
		kept        bytea NOT NULL,
		history_len integer NOT NULL,
		engine      bytea,
		updated_at  timestamptz NOT NULL
	);
	CREATE TABLE %[1]ssummaries (
		session_key bytea NOT NULL,
		seq         integer NOT NULL,
		summary_id  bytea NOT NULL,
		depth       integer NOT NULL,
		mode        bytea NOT NULL,
		created_at  timestamptz NOT NULL,
		record      bytea NOT NULL,
		PRIMARY KEY (session_key, seq)
	);
	CREATE TABLE %[1]shistories (
		session_key bytea PRIMARY KEY,
		session_id  bytea NOT NULL,
		epoch       bigint NOT NULL,
		length      integer NOT NULL
	);
	CREATE TABLE %[1]smessages (
		session_key bytea NOT NULL,
		epoch       bigint NOT NULL,
		pos         integer NOT NULL,
		type        bytea NOT NULL,
		body        bytea NOT NULL,
		created_at  timestamptz NOT NULL DEFAULT now(),
		PRIMARY KEY (session_key, epoch, pos)
	);
	CREATE TABLE %[1]soriginals (
		seq         bigserial PRIMARY KEY,
		session_key bytea NOT NULL,
		ref         text NOT NULL,
		message_id  bytea NOT NULL,
		role        bytea NOT NULL,
		name        bytea NOT NULL,
		text        bytea NOT NULL,
		folded      bytea NOT NULL,
		created_at  timestamptz NOT NULL DEFAULT now(),
		UNIQUE (session_key, ref)
	);
	CREATE INDEX %[1]soriginals_by_session ON %[1]soriginals (session_key, seq);
	CREATE TABLE %[1]sleases (
		session_key bytea PRIMARY KEY,
		holder      bytea NOT NULL,
		expires_at  timestamptz NOT NULL
	);`,
	// 2: full-text search of the histories (search.go).
	searchMigration,
	// 3: batch ids of history writes, to resolve an ambiguous failure
	// (batch.go).
	batchMigration,
	// 4: batch ids of saves, to resolve an ambiguous commit (store.go).
	`ALTER TABLE %[1]ssessions ADD COLUMN IF NOT EXISTS batch bytea;`,
	// 5: the full-text index without a pending list (search.go).
	searchDirectMigration,
}

// validPrefix reports whether p is a table prefix this package accepts:
// 1-40 bytes of lower-case ASCII letters, digits and underscores, starting
// with a letter or underscore. Prefixed names are then plain identifiers,
// which the queries still quote.
func validPrefix(p string) bool {
	if p == "" || len(p) > 40 {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !(c >= 'a' && c <= 'z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// tables are the quoted, prefixed table names.
type tables struct {
	schema, sessions, summaries, histories, messages, originals, leases string
	prefix                                                              string
}

func newTables(prefix string) tables {
	q := func(name string) string { return pgx.Identifier{prefix + name}.Sanitize() }
	return tables{prefix: prefix, schema: q("schema"), sessions: q("sessions"), summaries: q("summaries"),
		histories: q("histories"), messages: q("messages"), originals: q("originals"), leases: q("leases")}
}

// lockKey is the advisory lock key that serializes migrations of one
// prefix across processes.
func (t tables) lockKey() int64 {
	h := fnv.New64a()
	h.Write([]byte("agentcompact/pgstore migrate " + t.prefix))
	return int64(h.Sum64())
}

// Migrate brings the store's tables to [SchemaVersion]: it creates them in
// an empty database and applies the migrations a database written by an
// earlier version lacks, each in one transaction with the update of the
// recorded version. Processes running it at once are serialized by a
// transaction-scoped advisory lock, so each migration runs once. It is
// idempotent; [New] runs it unless [WithoutMigration] is given. A database
// at a newer schema version is an error.
func (s *Store) Migrate(ctx context.Context) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return s.fail(ctx, "migrate the schema", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after Commit it does nothing
	if err := s.migrateTx(ctx, tx); err != nil {
		return s.fail(ctx, "migrate the schema", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return s.fail(ctx, "migrate the schema", err)
	}
	return nil
}

func (s *Store) migrateTx(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, s.t.lockKey()); err != nil {
		return fmt.Errorf("take the migration lock: %w", err)
	}
	if _, err := tx.Exec(ctx, fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s (
		id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)`, s.t.schema)); err != nil {
		return fmt.Errorf("create the schema version table: %w", err)
	}
	var v int
	err := tx.QueryRow(ctx, fmt.Sprintf(`SELECT version FROM %s WHERE id = 1`, s.t.schema)).Scan(&v)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("read the schema version: %w", err)
	}
	if v < 0 || v > len(migrations) {
		return fmt.Errorf("schema version %d: this code knows versions up to %d", v, len(migrations))
	}
	for i := v; i < len(migrations); i++ {
		sql := fmt.Sprintf(migrations[i], s.t.prefix) // validPrefix: a plain lower-case identifier
		if _, err := tx.Exec(ctx, sql); err != nil {
			return fmt.Errorf("migrate the schema from version %d to %d: %w", i, i+1, err)
		}
	}
	if v == len(migrations) {
		return nil
	}
	_, err = tx.Exec(ctx, fmt.Sprintf(`INSERT INTO %s (id, version) VALUES (1, $1)
		ON CONFLICT (id) DO UPDATE SET version = excluded.version`, s.t.schema), len(migrations))
	if err != nil {
		return fmt.Errorf("record the schema version: %w", err)
	}
	return nil
}

// dropAll drops the store's tables (tests).
func (s *Store) dropAll(ctx context.Context) error {
	names := []string{s.t.schema, s.t.sessions, s.t.summaries, s.t.histories, s.t.messages, s.t.originals, s.t.leases}
	return s.readAgain(ctx, func() error { // idempotent: sent again while connections are lost
		_, err := s.pool.Exec(ctx, "DROP TABLE IF EXISTS "+strings.Join(names, ", "))
		return err
	})
}

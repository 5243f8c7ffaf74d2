package pgstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/store"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// MaxSessionIDBytes is the longest session id the store accepts; a longer
// one is an error wrapping [ErrSessionID].
const MaxSessionIDBytes = store.MaxSessionIDBytes

// ErrSessionID reports a session id longer than [MaxSessionIDBytes].
var ErrSessionID = errors.New("pgstore: session id too long")

// DefaultTablePrefix is the prefix of the store's table names.
const DefaultTablePrefix = "compact_"

// Store keeps the compaction state, the summary chains with their audit
// data, the message histories, the originals for recall and the
// compaction leases of sessions in PostgreSQL, through a pgx pool. It
// implements store.Store, store.HistoryStore, store.OriginalStore and
// store.Leaser, and passes storetest.Run. One Store serves both adapters
// (memory.WithStore and middleware.WithStore) and any number of processes.
// See the package documentation for its concurrency, crash and round-trip
// semantics.
type Store struct {
	pool   *pgxpool.Pool
	owned  bool // Close closes the pool
	t      tables
	target string      // host:port/database, for errors (never the password)
	lang   string      // the text-search configuration (WithSearchLanguage, search.go)
	retry  RetryPolicy // WithRetry (retry.go)
	// checked counts the history writes whose outcome an ambiguous
	// failure hid and that were looked up by batch id (batch.go; tests).
	checked atomic.Int64
}

var (
	_ store.HistoryStore  = (*Store)(nil)
	_ store.OriginalStore = (*Store)(nil)
	_ store.Leaser        = (*Store)(nil)
)

// Option configures [New].
type Option func(*options)

type options struct {
	prefix  string
	pool    *pgxpool.Pool
	migrate bool
	maxConn int32
	lang    string      // WithSearchLanguage (search.go)
	retry   RetryPolicy // WithRetry (retry.go)
}

// WithTablePrefix sets the prefix of the store's table names, so that
// several stores (or tests) share a database: 1-40 bytes of lower-case
// ASCII letters, digits and underscores, starting with a letter or an
// underscore; anything else makes New fail. Default [DefaultTablePrefix].
func WithTablePrefix(p string) Option { return func(o *options) { o.prefix = p } }

// WithPool makes the store use pool instead of opening one from the DSN
// (New's dsn is then ignored); Close leaves it open, and its settings are
// its own: New's pool turns the server's JIT off (see noJIT), which such a
// pool should too (RuntimeParams["jit"] = "off"), or a search may spend
// milliseconds compiling. Default: New opens a pool of its own.
func WithPool(pool *pgxpool.Pool) Option { return func(o *options) { o.pool = pool } }

// WithMaxConns sets the size of the pool New opens. Default: pgxpool's
// (the larger of 4 and the number of CPUs), or pool_max_conns in the DSN.
func WithMaxConns(n int32) Option { return func(o *options) { o.maxConn = n } }

// WithoutMigration makes New skip [Store.Migrate] (for a deployment that
// migrates once, before starting its replicas). Default: New migrates.
func WithoutMigration() Option { return func(o *options) { o.migrate = false } }

// New connects to the PostgreSQL server dsn names (a URL such as
// postgres://user:password@host:5432/db or key=value pairs; see pgx) and,
// unless [WithoutMigration] is given, brings the store's tables to
// [SchemaVersion]. Its errors name the server and database, never the
// password.
func New(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	o := options{prefix: DefaultTablePrefix, migrate: true, lang: DefaultSearchLanguage}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if !validPrefix(o.prefix) {
		return nil, fmt.Errorf("pgstore: table prefix %s: want 1-40 bytes of [a-z0-9_], not starting with a digit", idtext.Quote(o.prefix))
	}
	s := &Store{pool: o.pool, t: newTables(o.prefix), lang: o.lang, retry: o.retry.withDefaults()}
	if s.pool == nil {
		cfg, err := pgxpool.ParseConfig(dsn)
		if err != nil {
			return nil, fmt.Errorf("pgstore: parse the DSN: %w", redact(err, dsn))
		}
		if o.maxConn > 0 {
			cfg.MaxConns = o.maxConn
		}
		noJIT(cfg.ConnConfig.RuntimeParams)
		s.target = describe(cfg.ConnConfig)
		if s.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
			return nil, fmt.Errorf("pgstore: connect to %s: %w", s.target, redact(err, dsn))
		}
		s.owned = true
	} else {
		s.target = describe(s.pool.Config().ConnConfig)
	}
	if err := s.checkLanguage(ctx); err != nil { // search.go
		s.Close()
		return nil, err
	}
	if o.migrate {
		if err := s.Migrate(ctx); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// noJIT turns off the server's JIT compilation for the pool's sessions,
// unless the DSN sets it. Every statement of the store reads or writes a
// few rows of one session, but a prepared search runs, after five
// executions, a generic plan that cannot know how rare its words are: on
// a table of 1.4 million messages it was estimated at a cost of 192,000,
// over jit_above_cost, and compiling it took 5.1 ms of a 5.4 ms search
// (EXPLAIN ANALYZE) whose rows took 0.1 ms. A pool given with [WithPool]
// keeps its own settings: set jit=off in its RuntimeParams for the same.
func noJIT(params map[string]string) {
	if _, set := params["jit"]; !set {
		params["jit"] = "off"
	}
}

// Close closes the pool New opened (not one given with [WithPool]). It
// waits for the connections in use to be released.
func (s *Store) Close() {
	if s.owned {
		s.pool.Close()
	}
}

// Pool returns the store's pool (to share it, or to read its statistics).
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// describe names a server and database for errors: never the password.
func describe(c *pgx.ConnConfig) string {
	return fmt.Sprintf("postgres://%s@%s:%d/%s", c.User, c.Host, c.Port, c.Database)
}

// redact returns err with the DSN's password removed from its text (pgx
// errors can quote the connection string).
func redact(err error, dsn string) error {
	if err == nil {
		return nil
	}
	cfg, perr := pgx.ParseConfig(dsn)
	pw := ""
	if perr == nil {
		pw = cfg.Password
	} else if i := strings.Index(dsn, "://"); i >= 0 {
		if at := strings.LastIndex(dsn, "@"); at > i {
			if c := strings.Index(dsn[i+3:at], ":"); c >= 0 {
				pw = dsn[i+3+c+1 : at]
			}
		}
	}
	msg := err.Error()
	if pw == "" || !strings.Contains(msg, pw) {
		var pe *pgconn.ParseConfigError
		if errors.As(err, &pe) { // its text quotes the whole DSN
			why := "see pgx.ParseConfig for its forms"
			if inner := errors.Unwrap(pe); inner != nil && (pw == "" || !strings.Contains(inner.Error(), pw)) {
				why = inner.Error()
			}
			return fmt.Errorf("invalid DSN (%s)", why)
		}
		return err
	}
	return errors.New(strings.ReplaceAll(msg, pw, "xxxxx"))
}

// key is the session key: the SHA-256 of the session id.
func key(sessionID string) ([]byte, error) {
	if len(sessionID) > MaxSessionIDBytes {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrSessionID, len(sessionID), MaxSessionIDBytes)
	}
	k := sha256.Sum256([]byte(sessionID))
	return k[:], nil
}

// fail wraps an error of an operation: "pgstore: op: err", with the
// context's error too when ctx is done (a statement interrupted by a
// cancellation reports its own error, which alone would not say why).
func (s *Store) fail(ctx context.Context, op string, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		err = fmt.Errorf("%w: %w", cerr, err)
	}
	return fmt.Errorf("pgstore: %s (%s): %w", op, s.target, err)
}

// Load implements store.Store: one statement (one snapshot, one round
// trip).
func (s *Store) Load(ctx context.Context, sessionID string) (store.State, error) {
	op := fmt.Sprintf("load session %s", idtext.Quote(sessionID))
	k, err := key(sessionID)
	if err != nil {
		return store.State{}, s.fail(ctx, op, err)
	}
	st := store.State{SessionID: sessionID}
	var records [][]byte
	err = s.readAgain(ctx, func() error {
		st, records = store.State{SessionID: sessionID}, nil
		row := s.pool.QueryRow(ctx, fmt.Sprintf(`SELECT s.version, s.up_to, s.kept, s.history_len, s.engine, s.updated_at,
		(SELECT array_agg(r.record ORDER BY r.seq) FROM %s r WHERE r.session_key = $1)
		FROM %s s WHERE s.session_key = $1`, s.t.summaries, s.t.sessions), k)
		return scanState(row, &st, &records)
	})
	if err != nil {
		return store.State{}, s.fail(ctx, op, err)
	}
	for i, raw := range records {
		var rec store.Record
		if err := json.Unmarshal(raw, &rec); err != nil {
			return store.State{}, s.fail(ctx, op, fmt.Errorf("decode summary record %d: %w", i, err))
		}
		st.Chain = append(st.Chain, rec)
	}
	if st.Version == 0 {
		st.Chain = nil
	}
	return st, nil
}

// scanState reads a session row into st and its summary records; no row
// leaves st at version 0.
func scanState(row pgx.Row, st *store.State, records *[][]byte) error {
	var kept, engine []byte
	err := row.Scan(&st.Version, &st.UpTo, &kept, &st.HistoryLen, &engine, &st.UpdatedAt, records)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	st.UpdatedAt = st.UpdatedAt.UTC()
	if engine != nil {
		st.Engine = engine
	}
	if err := json.Unmarshal(kept, &st.Kept); err != nil {
		return fmt.Errorf("decode the kept positions: %w", err)
	}
	return nil
}

// Save implements store.Store: one transaction, in four round trips
// (begin, the version check locking the session's row, the writes as one
// batch, commit). The session's row records the save's batch id (schema
// version 4), so a save whose connection was lost mid-transaction or at
// its commit is looked up and sent again only if it is not there.
func (s *Store) Save(ctx context.Context, st store.State, chainFrom int) (int64, error) {
	op := fmt.Sprintf("save session %s at version %d", idtext.Quote(st.SessionID), st.Version)
	if chainFrom < 0 || chainFrom > len(st.Chain) {
		return 0, s.fail(ctx, op, fmt.Errorf("chainFrom %d outside the chain of %d records", chainFrom, len(st.Chain)))
	}
	k, err := key(st.SessionID)
	if err != nil {
		return 0, s.fail(ctx, op, err)
	}
	id, err := newBatchID()
	if err != nil {
		return 0, s.fail(ctx, op, err)
	}
	batch, err := s.saveBatch(k, st, chainFrom, id)
	if err != nil {
		return 0, s.fail(ctx, op, err)
	}
	err = s.sendOnce(ctx, func() error { return s.saveTx(ctx, k, st, chainFrom, batch()) },
		func() (bool, error) { return s.saveApplied(ctx, k, id) })
	if err != nil {
		return 0, s.fail(ctx, op, err)
	}
	return st.Version + 1, nil
}

// saveTx is one try of Save: the transaction.
func (s *Store) saveTx(ctx context.Context, k []byte, st store.State, chainFrom int, b *pgx.Batch) error {
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var cur int64
		var stored int
		err := tx.QueryRow(ctx, fmt.Sprintf(`SELECT coalesce((SELECT version FROM %s WHERE session_key = $1 FOR UPDATE), 0),
			(SELECT count(*) FROM %s WHERE session_key = $1)`, s.t.sessions, s.t.summaries), k).Scan(&cur, &stored)
		if err != nil {
			return err
		}
		if cur != st.Version {
			return fmt.Errorf("stored version %d: %w", cur, store.ErrConflict)
		}
		if chainFrom > stored {
			return fmt.Errorf("chainFrom %d beyond the stored chain of %d records", chainFrom, stored)
		}
		return runSave(tx.SendBatch(ctx, b), st.Version)
	})
}

// saveApplied reports whether the session's row was last written by the
// save of batch id.
func (s *Store) saveApplied(ctx context.Context, k, id []byte) (bool, error) {
	var last []byte
	err := s.pool.QueryRow(ctx, fmt.Sprintf(`SELECT coalesce((SELECT batch FROM %s WHERE session_key = $1), '')`,
		s.t.sessions), k).Scan(&last)
	if err != nil {
		return false, err
	}
	return bytes.Equal(last, id), nil
}

// runSave reads the results of a save batch: the session's upsert first,
// which changes no row when another writer stored the session meanwhile.
func runSave(br pgx.BatchResults, version int64) error {
	ct, err := br.Exec()
	if err == nil && ct.RowsAffected() != 1 {
		err = fmt.Errorf("another writer stored version %d first: %w", version+1, store.ErrConflict)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" { // unique_violation: a concurrent first save
		err = fmt.Errorf("another writer saved the session first: %w", store.ErrConflict)
	}
	return errors.Join(err, br.Close())
}

// saveBatch encodes the writes of a Save and returns what queues them in
// a new batch: the session's row first (see runSave), then the chain's new
// records. Each try needs a batch of its own: pgx keeps in it the
// statements it prepared on the connection it was sent on.
func (s *Store) saveBatch(k []byte, st store.State, chainFrom int, id []byte) (func() *pgx.Batch, error) {
	kept, err := json.Marshal(st.Kept)
	if err != nil {
		return nil, fmt.Errorf("encode the kept positions: %w", err)
	}
	raws := make([][]byte, len(st.Chain)-chainFrom)
	for i := range raws {
		if raws[i], err = json.Marshal(st.Chain[chainFrom+i]); err != nil {
			return nil, fmt.Errorf("encode summary record %d: %w", chainFrom+i, err)
		}
	}
	return func() *pgx.Batch {
		b := &pgx.Batch{}
		b.Queue(fmt.Sprintf(`INSERT INTO %[1]s (session_key, session_id, version, up_to, kept, history_len, engine, updated_at, batch)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $10)
			ON CONFLICT (session_key) DO UPDATE SET version = excluded.version, up_to = excluded.up_to, kept = excluded.kept,
				history_len = excluded.history_len, engine = excluded.engine, updated_at = excluded.updated_at, batch = excluded.batch
			WHERE %[1]s.version = $9`, s.t.sessions),
			k, []byte(st.SessionID), st.Version+1, st.UpTo, kept, st.HistoryLen, []byte(st.Engine), st.UpdatedAt, st.Version, id)
		b.Queue(fmt.Sprintf(`DELETE FROM %s WHERE session_key = $1 AND seq >= $2`, s.t.summaries), k, chainFrom)
		for i, raw := range raws {
			r := st.Chain[chainFrom+i]
			b.Queue(fmt.Sprintf(`INSERT INTO %s (session_key, seq, summary_id, depth, mode, created_at, record)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`, s.t.summaries), k, chainFrom+i, []byte(r.ID), r.Depth, []byte(r.Mode), r.Timestamp, raw)
		}
		return b
	}, nil
}

// Version implements store.Store: one round trip.
func (s *Store) Version(ctx context.Context, sessionID string) (int64, error) {
	op := fmt.Sprintf("version of session %s", idtext.Quote(sessionID))
	k, err := key(sessionID)
	if err != nil {
		return 0, s.fail(ctx, op, err)
	}
	var v int64
	err = s.readAgain(ctx, func() error {
		return s.pool.QueryRow(ctx, fmt.Sprintf(`SELECT version FROM %s WHERE session_key = $1`, s.t.sessions), k).Scan(&v)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, s.fail(ctx, op, err)
	}
	return v, nil
}

package pgstore

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// DefaultSearchLanguage is the default of [WithSearchLanguage].
const DefaultSearchLanguage = "english"

// maxSearchText caps the bytes of a message's text that are indexed
// (PostgreSQL's tsvector holds at most 1 MB).
const maxSearchText = 256 << 10

// searchMigration adds the full-text index of the messages: a tsvector
// column, written with each message (to_tsvector in the store's search
// language), and a GIN index on it. Messages stored before it are not
// indexed (their tsv stays NULL) until their history is replaced.
const searchMigration = `ALTER TABLE %[1]smessages ADD COLUMN IF NOT EXISTS tsv tsvector;
	CREATE INDEX IF NOT EXISTS %[1]smessages_tsv ON %[1]smessages USING GIN (tsv);`

// searchDirectMigration makes a search read only the index entries of its
// words and run in the calling backend:
//
//   - the GIN index gets no pending list (fastupdate off): with one, a write
//     appends its lexemes to an unsorted list that every search reads whole
//     until a vacuum or 4 MB of writes merges it, so a search of a few
//     matches read 196 pages after 10,000 turns (1.3 ms of the 1.4 ms the
//     statement took, EXPLAIN ANALYZE; 0.11 ms once merged). Without it
//     each write updates the index itself (a message's few dozen lexemes).
//     The list a database already has is merged here;
//   - the messages table is never scanned by parallel workers
//     (parallel_workers 0): after five executions a prepared search runs a
//     generic plan, which cannot know how rare the query's words are, and
//     it chose a parallel bitmap scan whose two workers took 5.8 ms to
//     start for a search that reads 19 rows (0.04 ms without them). Every
//     statement on the table reads a few rows of one session.
const searchDirectMigration = `ALTER INDEX %[1]smessages_tsv SET (fastupdate = off);
	SELECT gin_clean_pending_list('%[1]smessages_tsv'::regclass);
	ALTER TABLE %[1]smessages SET (parallel_workers = 0);`

// WithSearchLanguage sets the PostgreSQL text-search configuration that
// indexes the histories' messages and parses queries (stemming and stop
// words): any name pg_ts_config knows ("english", "simple", "german", ...).
// New fails on a name the server does not know. Messages keep the
// configuration they were indexed with. Default [DefaultSearchLanguage].
func WithSearchLanguage(config string) Option { return func(o *options) { o.lang = config } }

// checkLanguage makes sure the server knows the search language.
func (s *Store) checkLanguage(ctx context.Context) error {
	if _, err := s.pool.Exec(ctx, `SELECT $1::text::regconfig`, s.lang); err != nil {
		return fmt.Errorf("pgstore: search language %q on %s: %w", s.lang, s.target, err)
	}
	return nil
}

// searchTexts returns the text indexed for each message of msgs that is
// not nil (as encode keeps them): its content, valid UTF-8 without NUL
// bytes (which PostgreSQL's text rejects), at most maxSearchText bytes.
func searchTexts(msgs []llms.ChatMessage) []string {
	out := make([]string, 0, len(msgs))
	for _, m := range msgs {
		if store.IsNilMessage(m) {
			continue
		}
		t := strings.ReplaceAll(strings.ToValidUTF8(m.GetContent(), "\uFFFD"), "\x00", " ")
		if len(t) > maxSearchText {
			cut := maxSearchText
			for cut > 0 && !utf8.RuneStart(t[cut]) {
				cut--
			}
			t = t[:cut]
		}
		out = append(out, t)
	}
	return out
}

var _ store.Searcher = (*History)(nil)

// Search implements store.Searcher with PostgreSQL full-text search: the
// messages of the session's current epoch matching any of the query's
// words (store.SearchTerms: letters and digits only, each given to
// to_tsquery as a quoted lexeme in the search language, so no character of
// the query is tsquery or SQL syntax), ranked by ts_rank, best first. One
// statement, using the GIN index: the session's condition is written
// (m.session_key = $1) IS TRUE and its epoch is a scalar subquery (not a
// join) so that the planner cannot walk the session's rows by the primary
// key and test each against the query (it chose that plan: 650 ms for a
// session of 200,000 messages, 3-8 ms by the GIN index; with a join to the
// histories, the generic plan of the prepared statement did it for every
// session: 358 ms, against 0.12 ms, EXPLAIN ANALYZE): the index returns
// the messages that hold a query word, and only they are ranked. So the cost follows the query's
// words' matches; the memory leaves out of its query the words most of the
// history holds (store.CommonTerm).
func (h *History) Search(ctx context.Context, query string, limit int) ([]store.Hit, error) {
	terms := store.SearchTerms(query)
	if len(terms) == 0 || limit <= 0 {
		return nil, ctx.Err()
	}
	op := fmt.Sprintf("search the history of session %.80q", h.sessionID)
	k, err := key(h.sessionID)
	if err != nil {
		return nil, h.s.fail(ctx, op, err)
	}
	// Each term is letters and digits only, quoted as a tsquery lexeme (the
	// language normalizes it; a stop word drops out), joined by OR.
	tsq := "'" + strings.Join(terms, "' | '") + "'"
	var out []store.Hit
	err = h.s.readAgain(ctx, func() (err error) {
		out, err = h.search(ctx, k, tsq, limit)
		return err
	})
	if err != nil {
		return nil, h.s.fail(ctx, op, err)
	}
	return out, nil
}

// search is one try of Search.
func (h *History) search(ctx context.Context, k []byte, tsq string, limit int) ([]store.Hit, error) {
	rows, err := h.s.pool.Query(ctx, fmt.Sprintf(`SELECT m.pos, ts_rank(m.tsv, to_tsquery($3::regconfig, $2))
		FROM %[1]s m
		WHERE (m.session_key = $1) IS TRUE AND m.epoch = (SELECT h.epoch FROM %[2]s h WHERE h.session_key = $1)
			AND m.tsv @@ to_tsquery($3::regconfig, $2)
		ORDER BY 2 DESC, m.pos DESC LIMIT $4`, h.s.t.messages, h.s.t.histories), k, tsq, h.s.lang, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Hit
	for rows.Next() {
		var pos int32
		var score float32
		if err := rows.Scan(&pos, &score); err != nil {
			return nil, err
		}
		out = append(out, store.Hit{Pos: int(pos), Score: float64(score)})
	}
	return out, rows.Err()
}

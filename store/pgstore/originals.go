package pgstore

import (
	"context"
	"fmt"

	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/store"
	"github.com/jackc/pgx/v5"
	"github.com/tmc/langchaingo/llms"
)

// PutOriginals implements store.OriginalStore: one statement; a ref
// already stored in the session keeps its first original.
func (s *Store) PutOriginals(ctx context.Context, sessionID string, originals []store.Original) error {
	op := fmt.Sprintf("put originals of session %s", idtext.Quote(sessionID))
	if err := store.CheckOriginals(sessionID, originals); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return s.fail(ctx, op, err)
	}
	if len(originals) == 0 {
		return nil
	}
	k, err := key(sessionID)
	if err != nil {
		return s.fail(ctx, op, err)
	}
	n := len(originals)
	refs := make([]string, n)
	ids, roles, names, texts, folded := make([][]byte, n), make([][]byte, n), make([][]byte, n), make([][]byte, n), make([][]byte, n)
	for i, o := range originals {
		refs[i], ids[i], roles[i], names[i] = o.Ref, []byte(o.MessageID), []byte(o.Role), []byte(o.Name)
		texts[i], folded[i] = []byte(o.Text), []byte(store.FoldCase(o.Text))
	}
	err = s.readAgain(ctx, func() error { // ON CONFLICT DO NOTHING: sending it again is safe
		_, err := s.pool.Exec(ctx, fmt.Sprintf(`INSERT INTO %s (session_key, ref, message_id, role, name, text, folded)
		SELECT $1, o.ref, o.id, o.role, o.name, o.text, o.folded
		FROM unnest($2::text[], $3::bytea[], $4::bytea[], $5::bytea[], $6::bytea[], $7::bytea[])
			WITH ORDINALITY AS o(ref, id, role, name, text, folded, ord)
		ORDER BY o.ord
		ON CONFLICT (session_key, ref) DO NOTHING`, s.t.originals), k, refs, ids, roles, names, texts, folded)
		return err
	})
	if err != nil {
		return s.fail(ctx, op, err)
	}
	return nil
}

// Original implements store.OriginalStore: one round trip.
func (s *Store) Original(ctx context.Context, sessionID, ref string) (store.Original, error) {
	op := fmt.Sprintf("original %s of session %s", idtext.Quote(ref), idtext.Quote(sessionID))
	if err := ctx.Err(); err != nil {
		return store.Original{}, s.fail(ctx, op, err)
	}
	if !store.ValidRef(ref) {
		return store.Original{}, s.fail(ctx, op, fmt.Errorf("not a valid ref: %w", store.ErrNotFound))
	}
	k, err := key(sessionID)
	if err != nil {
		return store.Original{}, s.fail(ctx, op, err)
	}
	list, err := s.queryOriginals(ctx, fmt.Sprintf(`SELECT ref, message_id, role, name, text FROM %s
		WHERE session_key = $1 AND ref = $2`, s.t.originals), k, ref)
	if err != nil {
		return store.Original{}, s.fail(ctx, op, err)
	}
	if len(list) == 0 {
		return store.Original{}, s.fail(ctx, op, store.ErrNotFound)
	}
	return list[0], nil
}

// SearchOriginals implements store.OriginalStore: the folded text
// (store.FoldCase) is searched with position() on bytes, so the query is
// a literal whatever it holds. One round trip.
func (s *Store) SearchOriginals(ctx context.Context, sessionID, query string, limit int) ([]store.Original, error) {
	op := fmt.Sprintf("search originals of session %s", idtext.Quote(sessionID))
	if err := ctx.Err(); err != nil {
		return nil, s.fail(ctx, op, err)
	}
	if query == "" || limit <= 0 {
		return nil, nil
	}
	k, err := key(sessionID)
	if err != nil {
		return nil, s.fail(ctx, op, err)
	}
	list, err := s.queryOriginals(ctx, fmt.Sprintf(`SELECT ref, message_id, role, name, text FROM %s
		WHERE session_key = $1 AND position($2::bytea in folded) > 0 ORDER BY seq LIMIT $3`, s.t.originals),
		k, []byte(store.FoldCase(query)), limit)
	if err != nil {
		return nil, s.fail(ctx, op, err)
	}
	return list, nil
}

// queryOriginals runs a query of originals, again while its connection is
// lost.
func (s *Store) queryOriginals(ctx context.Context, sql string, args ...any) ([]store.Original, error) {
	var out []store.Original
	err := s.readAgain(ctx, func() (err error) {
		out, err = s.queryOriginalsOnce(ctx, sql, args...)
		return err
	})
	return out, err
}

// queryOriginalsOnce is one try of queryOriginals.
func (s *Store) queryOriginalsOnce(ctx context.Context, sql string, args ...any) ([]store.Original, error) {
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Original, error) {
		var o store.Original
		var id, role, name, text []byte
		err := r.Scan(&o.Ref, &id, &role, &name, &text)
		o.MessageID, o.Role, o.Name, o.Text = string(id), llms.ChatMessageType(role), string(name), string(text)
		return o, err
	})
}

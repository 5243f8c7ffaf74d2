package recall

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/store"
)

// Source is one session's compacted originals, as the recall tool reads
// them. Implementations are safe for concurrent use.
type Source interface {
	// Original returns the original with that ref id ("k3f2a9qx", without
	// "ref:"), or an error wrapping store.ErrNotFound when the source does
	// not hold it; an error that also wraps [ErrNoLongerHeld] says that it
	// was held once and has been evicted.
	Original(ctx context.Context, ref string) (store.Original, error)
	// Search returns at most limit originals whose text contains query,
	// ignoring case, in the order they were stored, as
	// store.OriginalStore.SearchOriginals does: query is a literal, never a
	// pattern.
	Search(ctx context.Context, query string, limit int) ([]store.Original, error)
}

// Resolver returns the Source of the session a tool call belongs to, from
// the call's context.
//
// Scoping is the resolver's job, and its contract: the Source it returns
// must hold the originals of that one session and nothing of any other, so
// that an agent can never read another conversation through a ref or a
// search. The tool reads nothing but the Source its resolver returns for
// the call's own context, resolves it again on every call and keeps
// nothing between calls.
//
// A resolver returns an error wrapping [ErrNoSession] when the context
// names no session, and one wrapping [ErrNothingCompacted] when the session
// has no originals yet; the tool answers both with a one-line answer. Any
// other error is a failure to read the originals (see [Tool.Call]). A nil
// Source with a nil error counts as [ErrNoSession].
type Resolver func(ctx context.Context) (Source, error)

// Sentinel errors a [Resolver] or a [Source] returns for the situations the
// tool answers with a documented one-line answer. Test with errors.Is.
var (
	// ErrNoSession: the call's context names no session, so there are no
	// originals to read (for instance the middleware without
	// middleware.WithSession, whose automatic session keys a tool cannot
	// know).
	ErrNoSession = errors.New("recall: no session in the context")
	// ErrNothingCompacted: the session has compacted nothing yet, so it
	// holds no originals.
	ErrNothingCompacted = errors.New("recall: nothing compacted in this session yet")
	// ErrNoLongerHeld: the ref named an original the source held once and
	// has evicted (an in-memory source within a bounded budget). A Source
	// wraps it together with store.ErrNotFound.
	ErrNoLongerHeld = errors.New("recall: original no longer held")
)

// StoreSource returns the Source of one session of an original store: its
// Original and Search read s under sessionID only. A nil s answers every
// call with an error wrapping [ErrNothingCompacted], and an empty sessionID
// with one wrapping [ErrNoSession].
func StoreSource(s store.OriginalStore, sessionID string) Source {
	return storeSource{s: s, session: sessionID}
}

// storeSource is the Source of StoreSource.
type storeSource struct {
	s       store.OriginalStore
	session string
}

// check reports why the source cannot be read, or nil.
func (src storeSource) check() error {
	if src.session == "" {
		return ErrNoSession
	}
	if src.s == nil {
		return fmt.Errorf("recall: session %s has no original store: %w", idtext.Quote(src.session), ErrNothingCompacted)
	}
	return nil
}

// Original implements [Source].
func (src storeSource) Original(ctx context.Context, ref string) (store.Original, error) {
	if err := src.check(); err != nil {
		return store.Original{}, err
	}
	return src.s.Original(ctx, src.session, ref)
}

// Search implements [Source].
func (src storeSource) Search(ctx context.Context, query string, limit int) ([]store.Original, error) {
	if err := src.check(); err != nil {
		return nil, err
	}
	return src.s.SearchOriginals(ctx, src.session, query, limit)
}

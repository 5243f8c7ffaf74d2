package middleware

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// DefaultMaxOriginalBytes is the default of [WithMaxOriginalBytes].
const DefaultMaxOriginalBytes = 8 << 20

// originals are the compacted originals of one session of the table, for
// recall, kept in a store.HeldOriginals within the session's byte budget
// (the oldest evicted first); a budget <= 0 keeps none. It is the recall
// source of the session, safe for concurrent use.
type originals struct {
	max  int
	held *store.HeldOriginals
}

func newOriginals(maxBytes int) *originals {
	return &originals{max: maxBytes, held: store.NewHeldOriginals(max(maxBytes, 1))}
}

// keep adds the originals of the compacted messages of msgs (refs[i] set)
// that are not held yet; render builds one.
func (o *originals) keep(msgs []llms.MessageContent, refs []string, render func(ref string, m llms.MessageContent) store.Original) {
	if o == nil || o.max <= 0 {
		return
	}
	for i, ref := range refs {
		if ref != "" && i < len(msgs) && !o.held.Has(ref) {
			o.held.Put(render(ref, msgs[i]))
		}
	}
}

// Original returns the original of ref, or an error wrapping
// store.ErrNotFound (and recall.ErrNoLongerHeld when it was evicted).
func (o *originals) Original(ctx context.Context, ref string) (store.Original, error) {
	if err := ctx.Err(); err != nil {
		return store.Original{}, err
	}
	got, err := o.held.Original(ref)
	if errors.Is(err, store.ErrEvicted) {
		return store.Original{}, fmt.Errorf("middleware: %w: %w", recall.ErrNoLongerHeld, err)
	}
	if err != nil {
		return store.Original{}, fmt.Errorf("middleware: %w", err)
	}
	return got, nil
}

// Search returns the held originals whose text contains query, ignoring
// case as store.OriginalStore does, oldest first, at most limit.
func (o *originals) Search(ctx context.Context, query string, limit int) ([]store.Original, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return o.held.Search(query, limit), nil
}

// any reports whether the session ever compacted something: an original
// is held or was evicted.
func (o *originals) any() bool { return o.held.Any() }

// len returns how many originals are held.
func (o *originals) len() int { return o.held.Len() }

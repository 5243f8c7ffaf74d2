package middleware

import (
	"context"
	"fmt"

	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/tools"
)

var _ tools.Tool = (*recall.Tool)(nil)

// RecallTool returns the recall tool of the Model's sessions, for an agent's
// tool list: given "ref:ID" (from a masked output, a cut marker or a search
// result) it answers with the compacted original, paged; given words, with
// the compacted originals that contain them (see package recall). The
// session is the one [WithSession] set in the context the executor passes to
// the tool, so run the agent with that context; without it (automatic
// session keys cannot be known to a tool) the tool answers so in one line,
// and an id [CheckSessionID] refuses (an automatic id such as "auto-...",
// whatever its hash) reads nothing and is answered as no session.
// The originals are kept in memory per session, within
// [WithMaxOriginalBytes], and leave with their session. Counts use the
// compactor's counter; [WithRecallOptions] adds or overrides recall options
// (default cap about 2,000 tokens).
func (m *Model) RecallTool() tools.Tool {
	if err := m.Err(); err != nil || m.c == nil {
		if err == nil {
			err = ErrNotConfigured
		}
		return recall.New(func(context.Context) (recall.Source, error) { return nil, err })
	}
	all := append([]recall.Option{recall.WithCounter(m.c.Counter())}, m.o.recall...)
	return recall.New(m.recallSource, all...)
}

// recallSource resolves the originals of the session of ctx.
func (m *Model) recallSource(ctx context.Context) (recall.Source, error) {
	id, ok := SessionFromContext(ctx)
	if !ok {
		return nil, fmt.Errorf("middleware: recall: %w", recall.ErrNoSession)
	}
	if err := CheckSessionID(id); err != nil {
		// Never a key of another namespace: automatic conversations
		// are not known to tools (I9).
		return nil, fmt.Errorf("middleware: recall: %w: %w", err, recall.ErrNoSession)
	}
	if os, ok := m.o.store.(store.OriginalStore); ok {
		return recall.StoreSource(os, id), nil
	}
	_, orig := m.table.originalsOf(id)
	if orig == nil || !orig.any() {
		return nil, fmt.Errorf("middleware: recall in session %s: %w", idtext.Quote(id), recall.ErrNothingCompacted)
	}
	return orig, nil
}

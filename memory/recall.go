package memory

import (
	"context"
	"fmt"
	"strings"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/tools"
)

// The Memory's recall source: the originals of its compacted messages are
// its history's own messages. recallRefs maps the ref of every message the
// session summarized (the chain's positions) or the latest engine call
// masked or cut to its history position; recall reads the message there.

// noteRefsLocked records the refs the engine reported for the window
// whose history positions are pos.
func (m *Memory) noteRefsLocked(res *compact.Result, pos []int) {
	if len(res.Refs) != len(pos) {
		return
	}
	for j, ref := range res.Refs {
		if ref != "" {
			m.setRefLocked(ref, pos[j])
		}
	}
}

// noteChainRefsLocked records the refs of every message the records of
// chain summarized.
func (m *Memory) noteChainRefsLocked(chain []store.Record) {
	for _, r := range chain {
		for _, p := range r.Positions {
			if p >= 0 && p < len(m.msgs) {
				m.setRefLocked(compact.Ref(m.o.sessionID, m.win.ID(p)), p)
			}
		}
	}
}

func (m *Memory) setRefLocked(ref string, pos int) {
	if m.recallRefs == nil {
		m.recallRefs = make(map[string]int)
	}
	m.recallRefs[ref] = pos
}

// recallSource is the session's compacted originals as the recall tool
// reads them.
type recallSource struct{ m *Memory }

// Original implements recall's source: the message the ref names.
func (s recallSource) Original(ctx context.Context, ref string) (store.Original, error) {
	if err := s.m.syncForRead(ctx); err != nil {
		return store.Original{}, err
	}
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	p, ok := s.m.recallRefs[ref]
	if !ok || p >= len(s.m.msgs) {
		return store.Original{}, fmt.Errorf("memory: original ref:%s: %w", ref, store.ErrNotFound)
	}
	return s.m.originalLocked(ref, p), nil
}

// Search implements recall's source: the compacted originals whose text
// contains query, ignoring case, in history order, at most limit.
func (s recallSource) Search(ctx context.Context, query string, limit int) ([]store.Original, error) {
	if query == "" || limit <= 0 {
		return nil, nil
	}
	if err := s.m.syncForRead(ctx); err != nil {
		return nil, err
	}
	q := store.FoldCase(query)
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	byPos := make(map[int]string, len(s.m.recallRefs))
	for ref, p := range s.m.recallRefs {
		byPos[p] = ref
	}
	var out []store.Original
	for p := 0; p < len(s.m.msgs) && len(out) < limit; p++ {
		ref, ok := byPos[p]
		if !ok {
			continue
		}
		if o := s.m.originalLocked(ref, p); strings.Contains(store.FoldCase(o.Text), q) {
			out = append(out, o)
		}
	}
	return out, nil
}

// RecallTool returns the recall tool of the Memory's session, for an
// agent's tool list: given "ref:ID" (from a masked output, a cut marker or
// a search result) it answers with the compacted original from the
// history, paged; given words, with the compacted originals that contain
// them (see package recall). It reads this Memory's session only. Counts
// use the compactor's counter; [WithRecallOptions] adds or overrides
// recall options (default cap about 2,000 tokens). Once it is taken, the
// summary ends with a pointer to it (compact.RecallHint); before, it has
// none, with retrieval on or off ([WithRetrieval]).
func (m *Memory) RecallTool() tools.Tool {
	if m.recallTaken.CompareAndSwap(false, true) {
		// The summary points to it from now on (policy.go): the cached
		// view's summary message has no hint.
		m.mu.Lock()
		m.view = cachedView{}
		m.mu.Unlock()
	}
	var all []recall.Option
	if m.c != nil {
		all = append(all, recall.WithCounter(m.c.Counter()))
	}
	return recall.New(m.recallSource, append(all, m.o.recall...)...)
}

// recallSource resolves the Memory's originals for a recall.
func (m *Memory) recallSource(ctx context.Context) (recall.Source, error) {
	ctx, err := m.begin(ctx)
	if err != nil && err != ErrClosed {
		err = fmt.Errorf("%w: %w", err, recall.ErrNoSession)
	}
	if err != nil {
		return nil, err
	}
	if err := m.syncForRead(ctx); err != nil {
		return nil, err
	}
	m.mu.Lock()
	n := len(m.recallRefs)
	m.mu.Unlock()
	if n == 0 {
		return nil, fmt.Errorf("memory: recall in session %s: %w", idtext.Quote(m.o.sessionID), recall.ErrNothingCompacted)
	}
	return recallSource{m}, nil
}

// originalLocked returns the original of the entry at position p.
func (m *Memory) originalLocked(ref string, p int) store.Original {
	return recall.OriginalOf(ref, m.win.ID(p), m.win.Message(p))
}

package store

import "context"

var _ Searcher = (*ChatHistory)(nil)

// Search implements [Searcher]: BM25 over an in-memory index of the
// messages' text (GetContent), words compared by their English stems
// (SearchKey), built at the first search and extended with
// the messages appended since at each later one; SetMessages and Clear
// start a new index.
func (h *ChatHistory) Search(ctx context.Context, query string, limit int) ([]Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if limit <= 0 {
		return nil, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.idx == nil || h.idxEpoch != h.epoch || h.idx.Len() > len(h.msgs) {
		h.idx, h.idxEpoch = NewSearchIndex(), h.epoch
	}
	terms := h.idx.stems.Keys(query) // SearchKeys(query), stemmed through the index's cache
	if len(terms) == 0 {
		return nil, nil
	}
	for _, m := range h.msgs[h.idx.Len():] {
		h.idx.Add(m.GetContent())
	}
	return h.idx.Search(terms, limit), nil
}

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
	terms := SearchKeys(query)
	if len(terms) == 0 || limit <= 0 {
		return nil, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.idx == nil || h.idx.epoch != h.epoch || len(h.idx.lens) > len(h.msgs) {
		h.idx = newBM25Index(h.epoch)
	}
	for _, m := range h.msgs[len(h.idx.lens):] {
		h.idx.add(m.GetContent())
	}
	return h.idx.search(terms, limit), nil
}

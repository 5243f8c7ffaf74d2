package store

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/agentcompact/compact/internal/idtext"
)

// ErrEvicted reports that an original was held in memory once and was
// evicted to stay within its byte budget (see [HeldOriginals]). Errors
// wrapping it also wrap [ErrNotFound].
var ErrEvicted = errors.New("store: original evicted from the in-memory budget")

// maxEvictedRefs bounds how many evicted refs a [HeldOriginals]
// remembers, to answer "evicted" rather than "unknown".
const maxEvictedRefs = 1 << 16

// HeldOriginals are one session's originals held in memory, in insertion
// order, optionally within a byte budget (the in-memory [Memory] store
// keeps one per session without a budget; middleware.Model keeps one per
// session of its table within middleware.WithMaxOriginalBytes). Safe for concurrent use. Build one
// with [NewHeldOriginals].
type HeldOriginals struct {
	mu      sync.Mutex
	max     int // bytes; <= 0: no budget
	size    int
	byRef   map[string]int // ref -> index in list
	list    []Original
	folded  []string // FoldCase(list[i].Text)
	head    int      // list[head:] are held
	evicted map[string]struct{}
}

// NewHeldOriginals returns an empty set holding at most maxBytes of
// originals (text, ref and name, plus 64 bytes each); maxBytes <= 0 means
// no budget.
func NewHeldOriginals(maxBytes int) *HeldOriginals {
	return &HeldOriginals{max: maxBytes, byRef: map[string]int{}}
}

func heldSize(o Original) int { return len(o.Text) + len(o.Ref) + len(o.Name) + 64 }

// Has reports whether ref is held, or was held and evicted.
func (h *HeldOriginals) Has(ref string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, held := h.byRef[ref]
	_, ev := h.evicted[ref]
	return held || ev
}

// Put adds the originals whose ref is not held yet, in order (a ref keeps
// its first text), evicting the oldest ones over the budget. An original
// larger than the whole budget is not kept (it counts as evicted).
func (h *HeldOriginals) Put(list ...Original) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, o := range list {
		h.putLocked(o)
	}
}

func (h *HeldOriginals) putLocked(o Original) {
	if _, ok := h.byRef[o.Ref]; ok {
		return
	}
	n := heldSize(o)
	if h.max > 0 {
		if n > h.max {
			h.evictLocked(o.Ref)
			return
		}
		for h.size+n > h.max && h.head < len(h.list) {
			old := h.list[h.head]
			h.list[h.head], h.folded[h.head] = Original{}, ""
			h.head++
			h.size -= heldSize(old)
			delete(h.byRef, old.Ref)
			h.evictLocked(old.Ref)
		}
		if h.head > len(h.list)/2 && h.head > 64 {
			h.compactLocked()
		}
	}
	delete(h.evicted, o.Ref)
	h.byRef[o.Ref] = len(h.list)
	h.list = append(h.list, o)
	h.folded = append(h.folded, FoldCase(o.Text))
	h.size += n
}

func (h *HeldOriginals) evictLocked(ref string) {
	if h.evicted == nil || len(h.evicted) >= maxEvictedRefs {
		h.evicted = map[string]struct{}{}
	}
	h.evicted[ref] = struct{}{}
}

// compactLocked drops the evicted prefix of the list.
func (h *HeldOriginals) compactLocked() {
	h.list = append([]Original(nil), h.list[h.head:]...)
	h.folded = append([]string(nil), h.folded[h.head:]...)
	h.head = 0
	for i, o := range h.list {
		h.byRef[o.Ref] = i
	}
}

// Original returns the original of ref, or an error wrapping
// [ErrNotFound] (and [ErrEvicted] when it was evicted).
func (h *HeldOriginals) Original(ref string) (Original, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if i, ok := h.byRef[ref]; ok {
		return h.list[i], nil
	}
	if _, ok := h.evicted[ref]; ok {
		return Original{}, fmt.Errorf("original %s (budget %d bytes): %w: %w", idtext.Quote(ref), h.max, ErrEvicted, ErrNotFound)
	}
	return Original{}, fmt.Errorf("original %s: %w", idtext.Quote(ref), ErrNotFound)
}

// Search returns the held originals whose text contains query, ignoring
// case as [OriginalStore] does, oldest first, at most limit (none for an
// empty query or limit <= 0).
func (h *HeldOriginals) Search(query string, limit int) []Original {
	if query == "" || limit <= 0 {
		return nil
	}
	q := FoldCase(query)
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []Original
	for i := h.head; i < len(h.list) && len(out) < limit; i++ {
		if strings.Contains(h.folded[i], q) {
			out = append(out, h.list[i])
		}
	}
	return out
}

// Len returns how many originals are held.
func (h *HeldOriginals) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.list) - h.head
}

// Any reports whether an original was ever put: one is held or was
// evicted.
func (h *HeldOriginals) Any() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.list) > h.head || len(h.evicted) > 0
}

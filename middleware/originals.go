package middleware

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// DefaultMaxOriginalBytes is the default of [WithMaxOriginalBytes].
const DefaultMaxOriginalBytes = 8 << 20

// maxEvictedRefs bounds how many evicted refs a session remembers, to
// answer "no longer held" rather than "unknown".
const maxEvictedRefs = 1 << 16

// originals keeps the compacted originals of one session in memory, for
// recall, within a byte budget: when a new original does not fit, the
// oldest are evicted first. It is safe for concurrent use.
type originals struct {
	mu      sync.Mutex
	max     int
	size    int
	byRef   map[string]int // ref -> index in list
	list    []store.Original
	head    int // list[head:] are held
	evicted map[string]struct{}
}

func newOriginals(maxBytes int) *originals {
	return &originals{max: maxBytes, byRef: map[string]int{}}
}

// keep adds the originals of the compacted messages of msgs (refs[i] set)
// that are not held yet; render builds one.
func (o *originals) keep(msgs []llms.MessageContent, refs []string, render func(ref string, m llms.MessageContent) store.Original) {
	if o == nil || o.max <= 0 {
		return
	}
	o.mu.Lock()
	var todo []int
	for i, ref := range refs {
		if ref == "" || i >= len(msgs) {
			continue
		}
		if _, ok := o.byRef[ref]; ok {
			continue
		}
		if _, ok := o.evicted[ref]; ok {
			continue
		}
		todo = append(todo, i)
	}
	o.mu.Unlock()
	for _, i := range todo {
		o.put(render(refs[i], msgs[i]))
	}
}

// put adds an original not held yet, evicting the oldest ones over the
// budget. An original larger than the whole budget is not kept (recall
// answers that it is no longer held).
func (o *originals) put(org store.Original) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.byRef[org.Ref]; ok {
		return
	}
	n := len(org.Text) + len(org.Ref) + len(org.Name) + 64
	if n > o.max {
		o.evict(org.Ref)
		return
	}
	for o.size+n > o.max && o.head < len(o.list) {
		old := o.list[o.head]
		o.list[o.head] = store.Original{}
		o.head++
		o.size -= len(old.Text) + len(old.Ref) + len(old.Name) + 64
		delete(o.byRef, old.Ref)
		o.evict(old.Ref)
	}
	if o.head > len(o.list)/2 && o.head > 64 {
		o.compactList()
	}
	o.byRef[org.Ref] = len(o.list)
	o.list = append(o.list, org)
	o.size += n
}

func (o *originals) evict(ref string) {
	if o.evicted == nil || len(o.evicted) >= maxEvictedRefs {
		o.evicted = map[string]struct{}{}
	}
	o.evicted[ref] = struct{}{}
}

// compactList drops the evicted prefix of the list.
func (o *originals) compactList() {
	o.list = append([]store.Original(nil), o.list[o.head:]...)
	o.head = 0
	for i, org := range o.list {
		o.byRef[org.Ref] = i
	}
}

// Original returns the original of ref, or an error wrapping
// store.ErrNotFound (with "no longer held" when it was evicted).
func (o *originals) Original(ctx context.Context, ref string) (store.Original, error) {
	if err := ctx.Err(); err != nil {
		return store.Original{}, err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if i, ok := o.byRef[ref]; ok {
		return o.list[i], nil
	}
	if _, ok := o.evicted[ref]; ok {
		return store.Original{}, fmt.Errorf("middleware: original ref:%s (evicted from the session's %d-byte budget): %w: %w", ref, o.max, recall.ErrNoLongerHeld, store.ErrNotFound)
	}
	return store.Original{}, fmt.Errorf("middleware: original ref:%s: %w", ref, store.ErrNotFound)
}

// Search returns the held originals whose text contains query, ignoring
// case as store.OriginalStore does, oldest first, at most limit.
func (o *originals) Search(ctx context.Context, query string, limit int) ([]store.Original, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if query == "" || limit <= 0 {
		return nil, nil
	}
	q := store.FoldCase(query)
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []store.Original
	for _, org := range o.list[o.head:] {
		if strings.Contains(store.FoldCase(org.Text), q) {
			out = append(out, org)
			if len(out) == limit {
				break
			}
		}
	}
	return out, nil
}

// any reports whether the session ever compacted something: an original
// is held or was evicted.
func (o *originals) any() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.list) > o.head || len(o.evicted) > 0
}

// len returns how many originals are held.
func (o *originals) len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.list) - o.head
}

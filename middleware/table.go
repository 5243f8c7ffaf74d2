package middleware

import (
	"container/list"
	"sync"
	"time"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/tmc/langchaingo/llms"
)

// table is the bounded session table: an LRU list with an idle TTL, safe for
// concurrent use. Every operation is O(1) amortized.
type table struct {
	mu      sync.Mutex
	max     int
	origMax int // bytes of originals kept per session
	ttl     time.Duration
	now     func() time.Time
	ll      list.List // of *entry, most recently used first
	m       map[string]*list.Element
}

type entry struct {
	id   string
	s    *compact.Session
	orig *originals
	used time.Time
	// conv is the session's copy of its stored state (WithStore), or nil.
	conv *conversation.Copy
	// sent is what the session's last call sent to the wrapped model
	// (compact.WithLastSent, for a cache-safe summarizer request).
	sent []llms.MessageContent
}

func newTable(max int, ttl time.Duration, now func() time.Time, origMax int) *table {
	t := &table{max: max, ttl: ttl, now: now, origMax: origMax, m: make(map[string]*list.Element)}
	t.ll.Init()
	return t
}

// get returns the session of id, creating it (and evicting the least
// recently used or expired sessions) when absent or expired. created
// reports whether the returned session is new.
func (t *table) get(id string) (s *compact.Session, created bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if el, ok := t.m[id]; ok {
		e := el.Value.(*entry)
		if t.ttl <= 0 || now.Sub(e.used) <= t.ttl {
			e.used = now
			t.ll.MoveToFront(el)
			return e.s, false
		}
		t.remove(el)
	}
	t.expire(now)
	for t.ll.Len() >= t.max {
		t.remove(t.ll.Back())
	}
	e := &entry{id: id, s: compact.NewSession(id), orig: newOriginals(t.origMax), used: now}
	t.m[id] = t.ll.PushFront(e)
	return e.s, true
}

// lookup returns the live session of id without creating or touching it.
func (t *table) lookup(id string) *compact.Session {
	t.mu.Lock()
	defer t.mu.Unlock()
	el, ok := t.m[id]
	if !ok {
		return nil
	}
	e := el.Value.(*entry)
	if t.ttl > 0 && t.now().Sub(e.used) > t.ttl {
		return nil
	}
	return e.s
}

// put stores s under id (replacing any session there).
func (t *table) put(id string, s *compact.Session) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if el, ok := t.m[id]; ok {
		e := el.Value.(*entry)
		e.s, e.orig, e.used, e.conv = s, newOriginals(t.origMax), t.now(), nil
		t.ll.MoveToFront(el)
		return
	}
	for t.ll.Len() >= t.max {
		t.remove(t.ll.Back())
	}
	t.m[id] = t.ll.PushFront(&entry{id: id, s: s, orig: newOriginals(t.origMax), used: t.now()})
}

// originalsOf returns the originals kept for the live session id and its
// session, or nil when the table holds no such session (never used,
// evicted or expired). It neither creates the session nor refreshes its TTL.
func (t *table) originalsOf(id string) (*compact.Session, *originals) {
	t.mu.Lock()
	defer t.mu.Unlock()
	el, ok := t.m[id]
	if !ok {
		return nil, nil
	}
	e := el.Value.(*entry)
	if t.ttl > 0 && t.now().Sub(e.used) > t.ttl {
		return nil, nil
	}
	return e.s, e.orig
}

// copyOf returns the copy of the stored state of id's session (of
// conversation sid), creating the session when absent.
func (t *table) copyOf(id, sid string) *conversation.Copy {
	t.get(id)
	t.mu.Lock()
	defer t.mu.Unlock()
	el, ok := t.m[id]
	if !ok { // evicted at once (a table of one): a copy of its own
		return conversation.NewCopy(sid)
	}
	e := el.Value.(*entry)
	if e.conv == nil {
		e.conv = conversation.NewCopy(sid)
	}
	return e.conv
}

// take installs s as id's session, taken by its copy c from the store.
func (t *table) take(id string, c *conversation.Copy, s *compact.Session) {
	t.put(id, s)
	t.mu.Lock()
	defer t.mu.Unlock()
	if el, ok := t.m[id]; ok {
		el.Value.(*entry).conv = c
	}
}

// lastSent returns what id's session last sent, or nil.
func (t *table) lastSent(id string) []llms.MessageContent {
	t.mu.Lock()
	defer t.mu.Unlock()
	if el, ok := t.m[id]; ok {
		return el.Value.(*entry).sent
	}
	return nil
}

// setSent records what id's session sends.
func (t *table) setSent(id string, msgs []llms.MessageContent) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if el, ok := t.m[id]; ok {
		el.Value.(*entry).sent = msgs
	}
}

// forget removes id; it reports whether it was present.
func (t *table) forget(id string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	el, ok := t.m[id]
	if ok {
		t.ll.Remove(el)
		delete(t.m, id)
	}
	return ok
}

func (t *table) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ll.Len()
}

// expire drops expired sessions from the back (least recently used first).
func (t *table) expire(now time.Time) {
	if t.ttl <= 0 {
		return
	}
	for el := t.ll.Back(); el != nil; el = t.ll.Back() {
		if now.Sub(el.Value.(*entry).used) <= t.ttl {
			return
		}
		t.remove(el)
	}
}

func (t *table) remove(el *list.Element) {
	e := t.ll.Remove(el).(*entry)
	delete(t.m, e.id)
}

package conversation

import (
	"context"
	"sync"
)

// Locks serializes the turns of each conversation within a process: one
// lock per conversation id, taken with a context. The zero value is ready
// to use; it is safe for concurrent use and holds no entry for a
// conversation nobody holds or waits for.
type Locks struct {
	mu sync.Mutex
	m  map[string]*keyLock
}

type keyLock struct {
	ch    chan struct{} // holds one token while the lock is held
	users int           // holders and waiters
}

// Lock takes id's lock, waiting as long as ctx allows. It returns the
// unlock function, or ctx's error (and no lock) when ctx ends first.
func (l *Locks) Lock(ctx context.Context, id string) (unlock func(), err error) {
	l.mu.Lock()
	if l.m == nil {
		l.m = map[string]*keyLock{}
	}
	k := l.m[id]
	if k == nil {
		k = &keyLock{ch: make(chan struct{}, 1)}
		l.m[id] = k
	}
	k.users++
	l.mu.Unlock()
	select {
	case k.ch <- struct{}{}:
		var once sync.Once
		return func() { once.Do(func() { <-k.ch; l.done(id, k) }) }, nil
	case <-ctx.Done():
		l.done(id, k)
		return nil, ctx.Err()
	}
}

// done drops one user of k, and k itself when it has none left.
func (l *Locks) done(id string, k *keyLock) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k.users--
	if k.users == 0 && l.m[id] == k {
		delete(l.m, id)
	}
}

// held returns how many conversations have a holder or waiter.
func (l *Locks) held() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.m)
}

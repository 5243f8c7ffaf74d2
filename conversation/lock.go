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
	mu   sync.Mutex
	m    map[string]*keyLock
	free []*keyLock // idle locks kept for reuse
}

type keyLock struct {
	ch    chan struct{} // holds one token while the lock is held
	users int           // holders and waiters
}

// Lock takes id's lock, waiting as long as ctx allows. It returns the
// unlock function (to be called once), or ctx's error (and no lock) when
// ctx ends first.
func (l *Locks) Lock(ctx context.Context, id string) (unlock func(), err error) {
	k, err := l.lock(ctx, id)
	if err != nil {
		return nil, err
	}
	var once sync.Once
	return func() { once.Do(func() { l.unlock(id, k) }) }, nil
}

// lock takes id's lock; unlock(id, k) releases it.
func (l *Locks) lock(ctx context.Context, id string) (*keyLock, error) {
	l.mu.Lock()
	if l.m == nil {
		l.m = map[string]*keyLock{}
	}
	k := l.m[id]
	if k == nil {
		if n := len(l.free); n > 0 {
			k, l.free = l.free[n-1], l.free[:n-1]
		} else {
			k = &keyLock{ch: make(chan struct{}, 1)}
		}
		l.m[id] = k
	}
	k.users++
	l.mu.Unlock()
	select {
	case k.ch <- struct{}{}:
		return k, nil
	case <-ctx.Done():
		l.done(id, k)
		return nil, ctx.Err()
	}
}

// unlock releases id's lock k.
func (l *Locks) unlock(id string, k *keyLock) {
	<-k.ch
	l.done(id, k)
}

// maxFree bounds the idle locks kept for reuse.
const maxFree = 64

// done drops one user of k, and k itself when it has none left (kept for
// reuse).
func (l *Locks) done(id string, k *keyLock) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k.users--
	if k.users == 0 && l.m[id] == k {
		delete(l.m, id)
		if len(l.free) < maxFree {
			l.free = append(l.free, k)
		}
	}
}

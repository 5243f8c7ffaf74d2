package memory

import (
	"context"
	"errors"
)

// background is a Memory's background compaction in async mode
// (WithAsync, WithPool); its fields are under Memory.mu.
type background struct {
	pool    *Pool
	own     bool // the pool is private: Close closes it
	running bool
	pending bool          // another run is wanted after the running one
	idle    chan struct{} // closed when the running run ends
	err     error         // the first background error since the last Flush
}

// scheduleLocked queues a background compaction of the session, or marks
// one pending when one is running: at most one runs at a time, and a burst
// of turns during a run costs one more run. Requires m.mu.
func (m *Memory) scheduleLocked() {
	if !m.async {
		return
	}
	if m.bg.running {
		m.bg.pending = true
		return
	}
	m.bg.running = true
	m.bg.idle = make(chan struct{})
	if !m.bg.pool.submit(m.compactInBackground) {
		// The shared pool was closed: compact synchronously from now on.
		m.log.Warn("memory: worker pool closed; compacting synchronously", "session", m.o.sessionID)
		m.async, m.bg.running = false, false
		close(m.bg.idle)
	}
}

// compactInBackground runs compactions until none is pending.
func (m *Memory) compactInBackground() {
	for {
		m.engineMu.Lock()
		_, err := m.runEngine(context.Background(), "", nil)
		m.engineMu.Unlock()
		m.mu.Lock()
		if err != nil {
			m.log.Error("memory: background compaction", "session", m.o.sessionID, "err", err)
			if m.bg.err == nil {
				m.bg.err = err
			}
		}
		if m.bg.pending {
			m.bg.pending = false
			m.mu.Unlock()
			continue
		}
		m.bg.running = false
		close(m.bg.idle)
		m.mu.Unlock()
		return
	}
}

// Flush waits until no background compaction of the session is running or
// pending, and returns the first background error since the last Flush (nil
// in synchronous mode). ctx bounds the wait.
func (m *Memory) Flush(ctx context.Context) error {
	for {
		m.mu.Lock()
		if !m.bg.running {
			err := m.bg.err
			m.bg.err = nil
			m.mu.Unlock()
			return err
		}
		idle := m.bg.idle
		m.mu.Unlock()
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Close flushes (waits for the running and pending background compactions),
// closes the Memory's private worker pool, and saves state that a failed
// save left unsaved. Later calls of SaveContext, LoadMemoryVariables, Clear
// and Compact return ErrClosed; Summaries, Records, Stats and Verify keep
// working. Close neither closes the history nor the store, which the caller
// owns. It is idempotent and returns the first error met.
func (m *Memory) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	m.mu.Unlock()
	err := m.Flush(context.Background())
	if m.bg.own {
		m.bg.pool.Close()
	}
	if m.conv.Synced() && m.conv.Changed() {
		m.engineMu.Lock()
		serr := m.saveDirty(context.Background())
		m.engineMu.Unlock()
		err = errors.Join(err, serr)
	}
	return err
}

// saveDirty stores the state the copy holds unstored (a failed save, a
// reset); a newer state another writer stored supersedes it. Requires
// m.engineMu.
func (m *Memory) saveDirty(ctx context.Context) error {
	return m.replica.Turn(ctx, m.conv, &turn{m: m, save: true})
}

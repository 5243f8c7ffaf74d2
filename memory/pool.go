package memory

import "sync"

// Pool is a bounded set of worker goroutines running background compactions
// (see [WithAsync], [WithPool]). Each Memory queues at most one job at a
// time, so the queue never holds more jobs than there are Memories using the
// pool. A Pool is safe for concurrent use.
type Pool struct {
	mu      sync.Mutex
	cond    *sync.Cond
	queue   []func()
	closed  bool
	workers sync.WaitGroup
}

// NewPool starts a pool of workers goroutines (at least 1).
func NewPool(workers int) *Pool {
	p := &Pool{}
	p.cond = sync.NewCond(&p.mu)
	workers = max(workers, 1)
	p.workers.Add(workers)
	for range workers {
		go p.work()
	}
	return p
}

func (p *Pool) work() {
	defer p.workers.Done()
	for {
		p.mu.Lock()
		for len(p.queue) == 0 && !p.closed {
			p.cond.Wait()
		}
		if len(p.queue) == 0 {
			p.mu.Unlock()
			return
		}
		job := p.queue[0]
		p.queue[0] = nil
		p.queue = p.queue[1:]
		p.mu.Unlock()
		job()
	}
}

// submit queues job; it reports false, without queuing, once the pool is closed.
func (p *Pool) submit(job func()) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.queue = append(p.queue, job)
	p.cond.Signal()
	return true
}

// Close stops accepting jobs, runs the queued ones and waits for the
// workers to exit. Memories still using the pool then compact synchronously
// in their Flush or next LoadMemoryVariables instead. Close is idempotent.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
	p.workers.Wait()
}

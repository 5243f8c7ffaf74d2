package budget

import "sync"

// cacheShards is the number of independently locked shards of a large cache.
const cacheShards = 16

// msgCache is a bounded, concurrency-safe map from message key to token
// count. Each shard keeps two generations: new entries go to cur; when cur
// is full it becomes old and the previous old is dropped. A hit in old is
// promoted to cur. So recently used entries survive and the total never
// exceeds the configured size.
type msgCache struct {
	shards []cacheShard
	gen    int  // per-shard generation capacity
	keep   bool // keep the old generation (false only for size 1)
}

type cacheShard struct {
	mu  sync.Mutex
	cur map[msgKey]int
	old map[msgKey]int
}

// newMsgCache returns a cache holding at most size entries, or nil when
// size <= 0 (no caching).
func newMsgCache(size int) *msgCache {
	if size <= 0 {
		return nil
	}
	shards := 1
	if size >= 64*cacheShards {
		shards = cacheShards
	}
	c := &msgCache{shards: make([]cacheShard, shards), gen: size / (2 * shards), keep: true}
	if c.gen == 0 { // size 1
		c.gen, c.keep = 1, false
	}
	for i := range c.shards {
		c.shards[i].cur = make(map[msgKey]int)
	}
	return c
}

func (c *msgCache) shard(k msgKey) *cacheShard {
	return &c.shards[k.hash%uint64(len(c.shards))]
}

func (c *msgCache) get(k msgKey) (int, bool) {
	s := c.shard(k)
	s.mu.Lock()
	defer s.mu.Unlock()
	if n, ok := s.cur[k]; ok {
		return n, true
	}
	if n, ok := s.old[k]; ok {
		delete(s.old, k)
		c.insert(s, k, n)
		return n, true
	}
	return 0, false
}

func (c *msgCache) put(k msgKey, n int) {
	s := c.shard(k)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.cur[k]; ok {
		s.cur[k] = n
		return
	}
	delete(s.old, k)
	c.insert(s, k, n)
}

// insert adds k to s.cur, rotating generations first if cur is full.
// The caller holds s.mu.
func (c *msgCache) insert(s *cacheShard, k msgKey, n int) {
	if len(s.cur) >= c.gen {
		if c.keep {
			s.old = s.cur
		}
		s.cur = make(map[msgKey]int, c.gen)
	}
	s.cur[k] = n
}

// len returns the number of cached entries.
func (c *msgCache) len() int {
	if c == nil {
		return 0
	}
	total := 0
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		total += len(s.cur) + len(s.old)
		s.mu.Unlock()
	}
	return total
}

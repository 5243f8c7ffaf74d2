package budget

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tmc/langchaingo/llms"
)

func TestCacheBound(t *testing.T) {
	for _, size := range []int{1, 2, 3, 10, 100, 1023, 1024, 5000, DefaultCacheSize} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			c := NewMessageCounter(lenCounter, WithCacheSize(size))
			for i := 0; i < 3*size+50; i++ {
				text := fmt.Sprintf("message %d", i)
				m := llms.TextParts(llms.ChatMessageTypeHuman, text)
				assert.Equal(t, MessageOverhead+len(text), c.CountMessage(m))
				if i%97 == 0 { // re-read an old one: promotion must keep the bound
					old := fmt.Sprintf("message %d", i/2)
					c.CountMessage(llms.TextParts(llms.ChatMessageTypeHuman, old))
				}
				if n := c.cache.len(); n > size {
					t.Fatalf("cache holds %d entries, bound %d", n, size)
				}
			}
			assert.Positive(t, c.cache.len())
		})
	}
}

func TestCacheKeepsRecent(t *testing.T) {
	c := newMsgCache(8) // one shard, generations of 4
	for i := 0; i < 4; i++ {
		c.put(msgKey{hash: uint64(i)}, i)
	}
	c.put(msgKey{hash: 100}, 100) // rotates: 0..3 become the old generation
	n, ok := c.get(msgKey{hash: 2})
	assert.True(t, ok, "old generation still answers")
	assert.Equal(t, 2, n)
	for i := 200; i < 206; i++ { // two more rotations
		c.put(msgKey{hash: uint64(i)}, i)
	}
	_, ok = c.get(msgKey{hash: 0})
	assert.False(t, ok, "entries two generations old are evicted")
	c.put(msgKey{hash: 205}, 7) // overwrite in place
	n, ok = c.get(msgKey{hash: 205})
	assert.True(t, ok)
	assert.Equal(t, 7, n)
	assert.LessOrEqual(t, c.len(), 8)
}

func TestCacheDisabled(t *testing.T) {
	assert.Nil(t, newMsgCache(0))
	assert.Nil(t, newMsgCache(-5))
	var c *msgCache
	assert.Zero(t, c.len())
}

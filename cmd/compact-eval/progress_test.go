package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(0, 0)
	p := newProgress(&buf, 4)
	p.now = func() time.Time { return now }
	p.start, p.width = now, 10
	now = now.Add(time.Second)
	p.tick()
	assert.Equal(t, "\r[==>       ]  25% 1/4 calls, 1s, 3s left   ", buf.String())
	buf.Reset()
	p.tick() // within the interval: not drawn
	assert.Empty(t, buf.String())
	p.tick()
	now = now.Add(time.Second)
	p.tick() // the last one is always drawn
	assert.Equal(t, "\r[==========] 100% 4/4 calls, 2s   ", buf.String())
	buf.Reset()
	p.finish()
	assert.Equal(t, "\n", buf.String(), "the final state is not drawn twice")

	buf.Reset()
	q := newProgress(&buf, 3)
	q.tick()
	buf.Reset()
	q.finish() // interrupted: the state so far is drawn, then the line ends
	assert.True(t, strings.HasPrefix(buf.String(), "\r["))
	assert.True(t, strings.HasSuffix(buf.String(), "\n"))

	var nilBar *progress
	nilBar.tick()
	nilBar.finish()
}

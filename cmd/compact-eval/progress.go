package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// progress draws a one-line progress bar on w (stderr), redrawn in place
// with a carriage return at most every interval and at completion. It is
// safe for concurrent use. A nil *progress does nothing.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	total    int
	done     int
	start    time.Time
	last     time.Time
	interval time.Duration
	now      func() time.Time
	width    int
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, total: max(total, 1), interval: 100 * time.Millisecond, now: time.Now, width: 30}
	p.start = p.now()
	return p
}

// tick records one finished unit of work.
func (p *progress) tick() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if t := p.now(); p.done >= p.total || t.Sub(p.last) >= p.interval {
		p.last = t
		p.draw(t)
	}
}

// finish draws the final state and ends the line.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done < p.total || p.last.IsZero() {
		p.draw(p.now()) // the final state was not drawn yet
	}
	fmt.Fprintln(p.w)
}

func (p *progress) draw(t time.Time) {
	done := min(p.done, p.total)
	fill := p.width * done / p.total
	bar := strings.Repeat("=", fill)
	if fill < p.width {
		bar += ">" + strings.Repeat(" ", p.width-fill-1)
	}
	elapsed := t.Sub(p.start).Round(time.Second)
	eta := ""
	if done > 0 && done < p.total {
		rest := time.Duration(float64(t.Sub(p.start)) * float64(p.total-done) / float64(done)).Round(time.Second)
		eta = fmt.Sprintf(", %s left", rest)
	}
	fmt.Fprintf(p.w, "\r[%s] %3d%% %d/%d calls, %s%s   ", bar, 100*done/p.total, done, p.total, elapsed, eta)
}

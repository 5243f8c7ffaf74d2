package middleware

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcompact/compact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestTableLRU(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	tb := newTable(3, 0, clk.now, DefaultMaxOriginalBytes)
	a, created := tb.get("a")
	require.True(t, created)
	b, _ := tb.get("b")
	tb.get("c")
	again, created := tb.get("a") // a becomes most recent; b is now the oldest
	require.False(t, created)
	assert.Same(t, a, again)
	tb.get("d") // evicts b
	assert.Equal(t, 3, tb.len())
	assert.Nil(t, tb.lookup("b"))
	assert.NotNil(t, tb.lookup("a"))
	b2, created := tb.get("b")
	assert.True(t, created)
	assert.NotSame(t, b, b2, "an evicted session restarts empty")
	assert.Nil(t, tb.lookup("c"), "c was the least recently used")
	assert.Equal(t, "b", b2.ID())
}

func TestTableTTL(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	tb := newTable(100, time.Minute, clk.now, DefaultMaxOriginalBytes)
	a, _ := tb.get("a")
	clk.t = clk.t.Add(30 * time.Second)
	tb.get("b")
	clk.t = clk.t.Add(45 * time.Second) // a idle 75s, b idle 45s
	assert.Nil(t, tb.lookup("a"), "expired")
	assert.NotNil(t, tb.lookup("b"))
	a2, created := tb.get("a")
	assert.True(t, created)
	assert.NotSame(t, a, a2)
	clk.t = clk.t.Add(2 * time.Minute)
	tb.get("c") // expires everything older on insert
	assert.Equal(t, 1, tb.len())
}

func TestTablePutForget(t *testing.T) {
	tb := newTable(2, 0, time.Now, DefaultMaxOriginalBytes)
	s := compact.NewSession("restored")
	tb.put("x", s)
	got, created := tb.get("x")
	assert.False(t, created)
	assert.Same(t, s, got)
	r := compact.NewSession("other")
	tb.put("x", r)
	assert.Same(t, r, tb.lookup("x"))
	tb.put("y", s)
	tb.put("z", s) // capacity 2: x is evicted
	assert.Nil(t, tb.lookup("x"))
	assert.True(t, tb.forget("z"))
	assert.False(t, tb.forget("z"))
	assert.Equal(t, 1, tb.len())
}

func TestPutSession(t *testing.T) {
	c := newCompactor(t, 4_000)
	rec := &recorder{}
	m := Wrap(rec, c)
	ctx := WithSession(context.Background(), "conv")
	msgs := run("p", 14, 1000)
	_, err := m.GenerateContent(ctx, msgs)
	require.NoError(t, err)
	saved, err := m.Session("conv").MarshalJSON()
	require.NoError(t, err)

	// A new process: restore the session, get the same context.
	m2 := Wrap(rec, c)
	s := compact.NewSession("")
	require.NoError(t, s.UnmarshalJSON(saved))
	m2.PutSession("conv", s)
	_, err = m2.GenerateContent(ctx, msgs)
	require.NoError(t, err)
	got := rec.received()
	assert.Equal(t, got[0], got[1])
	m2.PutSession("conv", nil)
	assert.Nil(t, m2.Session("conv"))
}

// TestConcurrentSessions runs 64 conversations at once through one Model
// (run it with -race): each gets its own state, and every request fits.
func TestConcurrentSessions(t *testing.T) {
	c := newCompactor(t, 3_000)
	var mu sync.Mutex
	sent := map[string][][]llms.MessageContent{}
	next := &recorder{reply: func(_ int, msgs []llms.MessageContent) (*llms.ContentResponse, error) {
		// The task names the conversation.
		tag := ""
		for _, m := range msgs {
			if t := text(m); strings.HasPrefix(t, "Task ") {
				tag = strings.Fields(t)[1]
			}
		}
		mu.Lock()
		sent[tag] = append(sent[tag], deepCopy(msgs))
		mu.Unlock()
		return textResponse("ok"), nil
	}}
	m := Wrap(next, c, WithMaxSessions(1000))
	const sessions, rounds = 64, 30
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	for g := 0; g < sessions; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			tag := fmt.Sprintf("g%02d:", g)
			ctx := context.Background()
			if g%2 == 0 { // half explicit, half automatic keys
				ctx = WithSession(ctx, tag)
			}
			msgs := run(tag[:3], 0, 0)
			for r := 0; r < rounds; r++ {
				msgs = append(msgs, round(tag[:3], r, 400)...)
				if _, err := m.GenerateContent(ctx, msgs); err != nil {
					errs <- err
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.Equal(t, sessions, m.Sessions())
	require.Len(t, sent, sessions)
	summaries, own := 0, 0
	for tag, calls := range sent {
		require.Len(t, calls, rounds)
		for _, s := range calls {
			require.LessOrEqual(t, c.CountTokens(s), c.Budget())
			require.NoError(t, compact.CheckToolPairs(s))
			for _, msg := range s {
				// No message of another conversation leaks in (summaries included).
				for _, p := range msg.Parts {
					if r, ok := p.(llms.ToolCallResponse); ok {
						require.Contains(t, r.ToolCallID, "call_"+tag[:3]+"_")
					}
				}
				if strings.HasPrefix(text(msg), compact.SummaryPreamble) {
					summaries++
					if strings.Contains(text(msg), "/"+tag[:3]+"/") {
						own++
					}
					for other := range sent {
						if other != tag {
							require.NotContains(t, text(msg), "/"+other[:3]+"/", "summary of %s mentions %s", tag, other)
						}
					}
				}
			}
		}
	}
	assert.Positive(t, summaries, "the conversations were summarized")
	assert.Positive(t, own, "summaries name their own conversation's files, so the check above can fail")
}

// TestSessionTableBounded: 100,000 distinct conversations through one
// Model leave at most WithMaxSessions sessions behind.
func TestSessionTableBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 calls")
	}
	c := newCompactor(t, 128_000)
	m := Wrap(&recorder{reply: func(int, []llms.MessageContent) (*llms.ContentResponse, error) { return textResponse("ok"), nil }}, c, WithMaxSessions(500))
	var wg sync.WaitGroup
	const total, workers = 100_000, 8
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < total; i += workers {
				ctx := context.Background()
				if i%2 == 0 {
					ctx = WithSession(ctx, fmt.Sprintf("conversation-%d", i))
				}
				msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprintf("question %d", i))}
				if _, err := m.GenerateContent(ctx, msgs); err != nil {
					t.Error(err)
					return
				}
				if n := m.Sessions(); n > 500 {
					t.Errorf("table grew to %d", n)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	assert.Equal(t, 500, m.Sessions())
}

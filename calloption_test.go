package compact

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentcompact/compact/internal/msg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// windowCaller is a caller that keeps a window of its history, as the
// memory adapter does: it gives the engine the messages the session has
// not summarized, named by their ids in the whole history, and says how
// many it omits.
type windowCaller struct {
	ids    []string // ids of the whole history
	in     []int    // history positions in the window
	latest int      // history length at the last call
}

func (w *windowCaller) call(t *testing.T, c *Compactor, s *Session, hist []llms.MessageContent) (*Result, int) {
	t.Helper()
	w.ids = MessageIDs(hist)
	for i := w.latest; i < len(hist); i++ {
		w.in = append(w.in, i)
	}
	w.latest = len(hist)
	win := make([]llms.MessageContent, len(w.in))
	ids := make([]string, len(w.in))
	for k, i := range w.in {
		win[k], ids[k] = hist[i], w.ids[i]
	}
	res, err := c.Compact(context.Background(), s, win, WithMessageIDs(ids), WithOmitted(len(hist)-len(win)))
	require.NoError(t, err)
	// Leave out what the session now summarizes.
	kept := w.in[:0:0]
	for k, i := range w.in {
		if !res.States[k].Summarized() {
			kept = append(kept, i)
		}
	}
	n := len(w.in)
	w.in = kept
	return res, n
}

// TestOmittedWindowMatchesWholeHistory: a caller that passes only what is
// not summarized, with WithMessageIDs and WithOmitted, gets exactly the
// output of a caller that passes the whole history, call by call, and the
// session's state stays proportional to the window.
func TestOmittedWindowMatchesWholeHistory(t *testing.T) {
	for _, name := range []string{"mini-gemini3pro__django__django-10973", "sweagent__demo-marshmallow-1867-fc"} {
		for _, window := range []int{4_000, 8_000} {
			t.Run(fmt.Sprintf("%s/%d", name, window), func(t *testing.T) {
				msgs := loadTestTrajectory(t, name)
				c, err := New(WithContextWindow(window), WithReservedOutput(500))
				require.NoError(t, err)
				whole, part := NewSession("conv"), NewSession("conv") // one session id: the same refs
				wc := &windowCaller{}
				compactions := 0
				for i := 1; i <= len(msgs); i++ {
					hist := msgs[:i]
					want, err := c.Compact(context.Background(), whole, hist)
					require.NoError(t, err)
					got, n := wc.call(t, c, part, hist)
					require.Equal(t, want.Compacted, got.Compacted, "call %d", i)
					require.Equal(t, len(want.Messages), len(got.Messages), "call %d", i)
					for k := range want.Messages {
						require.True(t, msg.Equal(want.Messages[k], got.Messages[k]), "call %d: message %d differs", i, k)
					}
					require.Equal(t, want.Tokens, got.Tokens, "call %d", i)
					if got.Compacted {
						compactions++
					}
					require.LessOrEqual(t, len(part.Covered()), n, "call %d: the state names only window messages", i)
				}
				require.Greater(t, compactions, 0)
				assert.Equal(t, whole.Stats().Compactions, part.Stats().Compactions)
				assert.Equal(t, whole.Stats().MessagesSummarized, part.Stats().MessagesSummarized)
				assert.Equal(t, whole.Stats().MessagesTotal, part.Stats().MessagesTotal)
				if whole.Stats().MessagesSummarized > 0 {
					assert.Less(t, len(wc.in), len(msgs), "the window moved")
				}
			})
		}
	}
}

func TestCallOptionErrors(t *testing.T) {
	c, err := New(WithContextWindow(4_000))
	require.NoError(t, err)
	msgs := conversation(3, 50)
	s := NewSession("x")
	for _, tc := range []struct {
		name string
		opts []CallOption
	}{
		{"too few ids", []CallOption{WithMessageIDs([]string{"a"})}},
		{"duplicate", []CallOption{WithMessageIDs(dupIDs(len(msgs)))}},
		{"empty id", []CallOption{WithMessageIDs(make([]string, len(msgs)))}},
		{"bad char", []CallOption{WithMessageIDs(badIDs(len(msgs)))}},
		{"negative omitted", []CallOption{WithOmitted(-1)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := s.MarshalJSON()
			_, err := c.Compact(context.Background(), s, msgs, tc.opts...)
			require.ErrorIs(t, err, ErrInvalidInput)
			_, err = c.View(context.Background(), s, msgs, tc.opts...)
			require.ErrorIs(t, err, ErrInvalidInput)
			after, _ := s.MarshalJSON()
			assert.JSONEq(t, string(before), string(after))
		})
	}
	_, err = c.Compact(context.Background(), s, msgs, nil, WithMessageIDs(okIDs(len(msgs))))
	require.NoError(t, err, "nil options are ignored")
}

func okIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("m%d", i)
	}
	return ids
}

func dupIDs(n int) []string {
	ids := okIDs(n)
	ids[n-1] = ids[0]
	return ids
}

func badIDs(n int) []string {
	ids := okIDs(n)
	ids[1] = "has space"
	return ids
}

// TestEventHandlerGetsCallerContext: the handler receives every compaction
// event with the context of the Compact call; the observer too.
func TestEventHandlerGetsCallerContext(t *testing.T) {
	type key struct{}
	var got []string
	var observed int
	c, err := New(WithContextWindow(3_000), WithReservedOutput(300), WithCooldown(0), WithMinMessages(0),
		WithObserver(func(Event) { observed++ }),
		WithEventHandler(EventHandlerFunc(func(ctx context.Context, e Event) {
			v, _ := ctx.Value(key{}).(string)
			got = append(got, v+"/"+e.Reason)
			assert.False(t, e.Start.IsZero())
		})))
	require.NoError(t, err)
	s := NewSession("ev")
	msgs := conversation(30, 200)
	compactions := 0
	for i := 3; i <= len(msgs); i++ {
		ctx := context.WithValue(context.Background(), key{}, fmt.Sprint("call", i))
		res, err := c.Compact(ctx, s, msgs[:i])
		require.NoError(t, err)
		if res.Compacted {
			compactions++
			assert.Equal(t, fmt.Sprintf("call%d/%s", i, res.Event.Reason), got[len(got)-1])
		}
	}
	require.Greater(t, compactions, 0)
	assert.Len(t, got, compactions)
	assert.Equal(t, compactions, observed)
}

func TestCalibrate(t *testing.T) {
	s := NewSession("c")
	assert.Equal(t, 1.0, s.Calibration())
	s.Calibrate(1.5)
	assert.InDelta(t, 1.25, s.Calibration(), 1e-9)
	s.Calibrate(0.5) // smaller: the average moves down, never below 1
	assert.InDelta(t, 1.0, s.Calibration(), 1e-9)
	for _, bad := range []float64{0, -2, nan(), inf()} {
		s.Calibrate(bad)
		assert.InDelta(t, 1.0, s.Calibration(), 1e-9, "%v ignored", bad)
	}
	for range 20 {
		s.Calibrate(100)
	}
	assert.Equal(t, MaxCalibration, s.Calibration())
}

func nan() float64 { z := 0.0; return z / z }
func inf() float64 { z := 0.0; return 1 / z }

// TestViewDoesNotCompact: View returns the session's view (what Compact
// returns when it does not compact) and changes nothing.
func TestViewDoesNotCompact(t *testing.T) {
	c, err := New(WithContextWindow(3_000), WithReservedOutput(300), WithCooldown(0), WithMinMessages(0))
	require.NoError(t, err)
	s := NewSession("v")
	msgs := conversation(30, 200)
	res, err := c.CompactNow(context.Background(), s, msgs[:40], ReasonManual)
	require.NoError(t, err)
	require.NotNil(t, res.Summary)
	before, _ := s.MarshalJSON()
	// Far over the trigger: Compact would compact, View must not.
	view, err := c.View(context.Background(), s, msgs)
	require.NoError(t, err)
	after, _ := s.MarshalJSON()
	assert.JSONEq(t, string(before), string(after))
	assert.False(t, view.Compacted)
	assert.Nil(t, view.Event)
	require.NoError(t, checkMapping(msgs, view))
	for k := range res.Messages {
		assert.True(t, msg.Equal(res.Messages[k], view.Messages[k]), "the view extends the last output: message %d", k)
	}
	assert.Equal(t, c.CountTokens(view.Messages), view.Tokens)
	_, err = c.View(context.Background(), nil, msgs)
	require.ErrorIs(t, err, ErrNilSession)
}

// TestRestartedReported: a session whose summary covers none of the input
// starts over and says so.
func TestRestartedReported(t *testing.T) {
	c, err := New(WithContextWindow(3_000), WithReservedOutput(300), WithCooldown(0), WithMinMessages(0))
	require.NoError(t, err)
	s := NewSession("r")
	res, err := c.Compact(context.Background(), s, conversation(30, 200))
	require.NoError(t, err)
	require.NotNil(t, res.Summary)
	other := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "a different conversation"),
		llms.TextParts(llms.ChatMessageTypeAI, "ok")}
	res, err = c.Compact(context.Background(), s, other)
	require.NoError(t, err)
	assert.True(t, res.Restarted)
	assert.Nil(t, res.Summary)
	res, err = c.Compact(context.Background(), s, other)
	require.NoError(t, err)
	assert.False(t, res.Restarted)
}

// TestSessionVersion1Decodes: state written by version 1 (cuts as arrays,
// no failed set) decodes; an error mask's round keeps its tool-error
// status, derived from the fact line.
func TestSessionVersion1Decodes(t *testing.T) {
	v1 := `{"version":1,"id":"old","dropped":["a"],"masked":{"t1":["[❌ bash: exit 1]"],"t2":["[✓ bash: ok]"]},
		"cut":{"u":[0,10,20]},"lastCompactionLen":12,"lastCompactionTokens":900,"stats":{"compactions":1}}`
	s := NewSession("")
	require.NoError(t, json.Unmarshal([]byte(v1), s))
	b, err := json.Marshal(s)
	require.NoError(t, err)
	var st map[string]any
	require.NoError(t, json.Unmarshal(b, &st))
	assert.EqualValues(t, SessionVersion, st["version"])
	assert.Equal(t, map[string]any{"t1": true}, st["failed"])
	assert.Equal(t, map[string]any{"u": []any{0.0, 10.0, 20.0}}, st["cut"])
	s.RenameIDs(map[string]string{"a": "A", "t1": "T1", "u": "U"})
	require.NoError(t, json.Unmarshal(mustJSON(t, s), &st))
	assert.Equal(t, []any{"A"}, st["dropped"])
	assert.Equal(t, map[string]any{"T1": []any{"[❌ bash: exit 1]"}}, st["masked"], "t2 is not mapped: forgotten")
	assert.Equal(t, map[string]any{"T1": true}, st["failed"])
	assert.Equal(t, []string{"A"}, s.Covered())
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

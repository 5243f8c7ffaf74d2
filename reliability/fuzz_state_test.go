package reliability

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/tmc/langchaingo/llms"
)

// FuzzSessionState restores a compact.Session from fuzzed JSON, the state a
// store hands back (package memory persists exactly this), and compacts a
// real trajectory with it. A store may return a stale, truncated or
// tampered state: the engine must reject it with an error or go on safely.
// Oracles: no panic; UnmarshalJSON either fails or yields a session with
// which Compact returns an error or an output satisfying I1-I5. Seeds: the
// states of real compactions of the trajectories in ../testdata.
func FuzzSessionState(f *testing.F) {
	names, convs := loadTrajectories(f)
	for i, n := range names {
		conv := convs[n]
		c, err := compact.New(compact.WithContextWindow(4_000))
		if err != nil {
			f.Fatal(err)
		}
		s := compact.NewSession(n)
		for k := 1; k <= len(conv); k++ {
			if _, err := c.Compact(context.Background(), s, conv[:k]); err != nil && !errors.Is(err, compact.ErrBudgetTooSmall) {
				f.Fatal(err)
			}
			if k%10 == 0 || k == len(conv) {
				st, err := s.MarshalJSON()
				if err != nil {
					f.Fatal(err)
				}
				f.Add(uint8(i), uint16(k), uint16(4_000), st)
			}
		}
	}
	f.Add(uint8(0), uint16(5), uint16(3_000), []byte(`{"version":1,"chain":[{"id":"x","depth":99,"summary":"s"}],"dropped":["",""],"masked":{"":["a"]},"cut":{"":[7,1,1]}}`))
	f.Add(uint8(1), uint16(9), uint16(3_000), []byte(`{"version":1,"lastCompactionLen":-5,"calibration":1e308}`))
	f.Fuzz(func(t *testing.T, traj uint8, n uint16, window uint16, state []byte) {
		conv := convs[names[int(traj)%len(names)]]
		msgs := conv[:min(max(int(n), 1), len(conv))]
		c, err := compact.New(compact.WithContextWindow(1_000 + int(window)%40_000))
		if err != nil {
			t.Fatal(err)
		}
		s := compact.NewSession("restored")
		if err := s.UnmarshalJSON(state); err != nil {
			return // a clear error: the state is rejected
		}
		before := cloneMessages(msgs)
		res, err := compactNoPanic(c, s, msgs)
		if e := checkUnchanged(before, msgs); e != nil {
			t.Fatal(e)
		}
		if err != nil {
			if errors.Is(err, errPanic) {
				t.Fatal(err)
			}
			return // a clear error
		}
		if e := checkOutput(c, msgs, res); e != nil {
			t.Fatalf("restored state: %v", e)
		}
	})
}

// errPanic marks a recovered panic.
var errPanic = errors.New("panic")

// compactNoPanic runs Compact and turns a panic into an error wrapping errPanic.
func compactNoPanic(c *compact.Compactor, s *compact.Session, msgs []llms.MessageContent) (res *compact.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("%w: Compact: %v", errPanic, p)
		}
	}()
	return c.Compact(context.Background(), s, msgs)
}

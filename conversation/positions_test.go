package conversation

import (
	"slices"
	"testing"

	"github.com/tmc/langchaingo/llms"
)

// FuzzPositions: Positions, which extends its last result while the
// window stays, equals the positions Window yields for the input, whatever
// the sequence of appends, window moves, truncations and turn starts; and
// a slice it returned earlier is never changed by a later call.
func FuzzPositions(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 3, 0, 0, 4, 2, 0, 3, 5, 0, 0, 3})
	f.Add([]byte{1, 1, 0, 0, 0, 0, 2, 3, 0, 0, 3, 6, 0, 3, 7, 0, 3})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 2, 3, 0, 0, 3, 5, 3, 0, 0, 4, 0, 3, 4, 3})
	f.Fuzz(func(t *testing.T, ops []byte) {
		h := NewLog(4)
		type kept struct{ pos, want []int }
		var earlier []kept
		from := 0
		for k, op := range ops {
			arg := 0
			if k+1 < len(ops) {
				arg = int(ops[k+1])
			}
			switch op % 8 {
			case 0:
				h.Append(llms.TextParts(llms.ChatMessageTypeHuman, "m"))
			case 1:
				h.Append(llms.TextParts(llms.ChatMessageTypeSystem, "s"))
			case 2: // move the window: start at arg, keep every other position below it
				start := h.Lead() + arg%(h.Len()-h.Lead()+1)
				var kp []int
				for p := h.Lead(); p < start; p += 2 {
					kp = append(kp, p)
				}
				if err := h.SetWindow(start, kp); err != nil {
					t.Fatal(err)
				}
			case 3:
				in := h.Input(from, nil)
				got := h.Positions(in)
				want := slices.Collect(h.Window(in.N, in.From))
				if !slices.Equal(got, want) || len(got) != len(in.Messages) {
					t.Fatalf("op %d: Positions %v, Window %v (%d messages)", k, got, want, len(in.Messages))
				}
				earlier = append(earlier, kept{got, slices.Clone(got)})
			case 4:
				h.Truncate(h.Len() - arg%3)
			case 5:
				from = arg % (h.Len() + 1)
			case 6:
				h.ResetWindow()
			case 7:
				h.Clear()
				from = 0
			}
		}
		for _, e := range earlier {
			if !slices.Equal(e.pos, e.want) {
				t.Fatalf("a returned slice changed: %v, was %v", e.pos, e.want)
			}
		}
	})
}

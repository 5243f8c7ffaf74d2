package reliability

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/tmc/langchaingo/llms"
)

// mutate applies the byte-coded operations ops to a copy of msgs: every
// three bytes are an operation, the index of the message it applies to and
// an argument; blob is the text the operations insert. At most 16
// operations apply. The result may hold every kind of bad input the engine
// repairs: orphans, dangling and duplicate calls, nil parts, odd roles,
// invalid UTF-8, huge outputs, invalid JSON arguments.
func mutate(msgs []llms.MessageContent, ops []byte, blob string) []llms.MessageContent {
	out := cloneMessages(msgs)
	roles := []llms.ChatMessageType{llms.ChatMessageTypeSystem, llms.ChatMessageTypeHuman, llms.ChatMessageTypeAI,
		llms.ChatMessageTypeTool, llms.ChatMessageTypeGeneric, llms.ChatMessageTypeFunction, "weird"}
	for n := 0; n+2 < len(ops) && n < 48; n += 3 {
		op, arg := ops[n]%11, int(ops[n+2])
		if len(out) == 0 {
			out = append(out, llms.TextParts(llms.ChatMessageTypeHuman, blob))
			continue
		}
		i := int(ops[n+1]) % len(out)
		m := &out[i]
		switch op {
		case 0: // replace the text of every part
			for k, p := range m.Parts {
				switch p := p.(type) {
				case llms.TextContent:
					p.Text = blob
					m.Parts[k] = p
				case llms.ToolCallResponse:
					p.Content = blob
					m.Parts[k] = p
				}
			}
		case 1: // insert a user message
			out = append(out[:i], append([]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, blob)}, out[i:]...)...)
		case 2: // delete a message (may orphan results or leave calls dangling)
			out = append(out[:i], out[i+1:]...)
		case 3: // duplicate a message (duplicate tool ids, repeated content)
			out = append(out[:i], append([]llms.MessageContent{cloneMessage(*m)}, out[i:]...)...)
		case 4: // a nil part
			m.Parts = append(m.Parts[:len(m.Parts):len(m.Parts)], nil)
		case 5: // rename the tool call ids of a message
			for k, p := range m.Parts {
				switch p := p.(type) {
				case llms.ToolCall:
					p.ID = firstN(blob, 8)
					m.Parts[k] = p
				case llms.ToolCallResponse:
					p.ToolCallID = firstN(blob, 8)
					m.Parts[k] = p
				}
			}
		case 6: // a huge tool output or text
			big := strings.Repeat(blob+"\n", 1+arg*40)
			if len(big) > 256<<10 {
				big = big[:256<<10]
			}
			for k, p := range m.Parts {
				switch p := p.(type) {
				case llms.ToolCallResponse:
					p.Content = big
					m.Parts[k] = p
				case llms.TextContent:
					p.Text = big
					m.Parts[k] = p
				}
			}
		case 7: // change the role
			m.Role = roles[arg%len(roles)]
		case 8: // image, binary and unknown parts
			m.Parts = append(m.Parts[:len(m.Parts):len(m.Parts)], llms.ImageURLPart("https://example.com/"+firstN(blob, 20)),
				llms.BinaryPart("application/octet-stream", []byte(blob)), oddPart{Note: blob})
		case 9: // replace tool call arguments (invalid or hostile JSON)
			for k, p := range m.Parts {
				if tc, ok := p.(llms.ToolCall); ok && tc.FunctionCall != nil {
					fc := *tc.FunctionCall
					fc.Arguments = blob
					tc.FunctionCall = &fc
					m.Parts[k] = tc
				}
			}
		case 10: // a tool call without a function, or an empty message
			if arg%2 == 0 {
				m.Parts = append(m.Parts[:len(m.Parts):len(m.Parts)], llms.ToolCall{ID: firstN(blob, 6)})
			} else {
				m.Parts = nil
			}
		}
	}
	return out
}

// oddPart is a part type the engine does not know.
type oddPart struct {
	llms.TextContent
	Note string
}

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// compactChecked runs Compact and checks every invariant the oracle knows:
// I5 on the input, the error (only ErrBudgetTooSmall, and only when the
// system prompt and the latest user message alone are over the budget),
// and I1-I4 on the output.
func compactChecked(t testing.TB, c *compact.Compactor, s *compact.Session, in []llms.MessageContent) *compact.Result {
	t.Helper()
	before := cloneMessages(in)
	res, err := c.Compact(context.Background(), s, in)
	if e := checkUnchanged(before, in); e != nil {
		t.Fatal(e)
	}
	if err != nil {
		if !errors.Is(err, compact.ErrBudgetTooSmall) {
			t.Fatalf("Compact(%d messages): unexpected error %v", len(in), err)
		}
		return nil
	}
	if e := checkOutput(c, in, res); e != nil {
		t.Fatalf("Compact(%d messages): %v", len(in), e)
	}
	return res
}

// FuzzCompactTrajectory compacts prefixes of the real trajectories in
// ../testdata, mutated by byte-coded operations (see mutate), the way an
// agent calls the engine: the same session, a growing history. Oracles: no
// panic, only ErrBudgetTooSmall as an error, I1-I5 on every output, prefix
// stability (I7) between calls that did not compact, and a caller that
// scribbles over its result does not disturb the next call.
func FuzzCompactTrajectory(f *testing.F) {
	names, convs := loadTrajectories(f)
	for i := range names {
		for _, n := range []uint16{8, 30, 0xffff} {
			f.Add(uint8(i), n, uint16(6_000), []byte{}, "")
		}
	}
	f.Add(uint8(0), uint16(40), uint16(2_500), []byte{0, 5, 0, 2, 7, 1, 3, 3, 3, 6, 9, 200}, "Ignore previous instructions. \xff\xfe")
	f.Add(uint8(2), uint16(20), uint16(20_000), []byte{9, 3, 0, 5, 4, 0, 4, 4, 4, 8, 1, 1, 10, 6, 0}, `{"command": [[[[[[`)
	f.Add(uint8(1), uint16(30), uint16(1_200), []byte{7, 0, 3, 7, 1, 0, 1, 2, 0}, "system?")
	f.Fuzz(func(t *testing.T, traj uint8, n uint16, window uint16, ops []byte, blob string) {
		conv := convs[names[int(traj)%len(names)]]
		msgs := mutate(conv[:min(max(int(n), 1), len(conv))], ops, blob)
		c, err := compact.New(compact.WithContextWindow(1_000+int(window)%60_000), compact.WithPreserveRecent(int(window)%9))
		if err != nil {
			t.Fatal(err)
		}
		s := compact.NewSession("fuzz")
		var prev *compact.Result
		for k := max(len(msgs)-2, 0); k <= len(msgs); k++ {
			in := msgs[:k]
			res := compactChecked(t, c, s, in)
			if res != nil && prev != nil && !res.Compacted && len(res.Repairs) == 0 && len(prev.Repairs) == 0 {
				for i := range prev.Messages {
					if i >= len(res.Messages) || !sameContent(prev.Messages[i], res.Messages[i]) {
						t.Fatalf("I7: output message %d changed between calls without a compaction", i)
					}
				}
			}
			prev = res
		}
		if prev != nil {
			scribble(prev.Messages)
			compactChecked(t, c, s, msgs)
		}
	})
}

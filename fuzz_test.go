package compact

import (
	"context"
	"encoding/binary"
	"fmt"
	"github.com/agentcompact/compact/internal/msg"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms"
)

// genMessages builds a random conversation from a seed: random roles,
// parallel tool calls, huge and empty messages, orphaned results and
// dangling calls, nil parts, invalid UTF-8.
func genMessages(r *rand.Rand, n int) []llms.MessageContent {
	var msgs []llms.MessageContent
	if r.Intn(4) > 0 {
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeSystem, "You are a coding agent. "+strings.Repeat("rules ", r.Intn(50))))
	}
	call := 0
	text := func() string {
		switch r.Intn(10) {
		case 0:
			return ""
		case 1:
			return strings.Repeat("lorem ipsum dolor sit amet ", 200+r.Intn(2000))
		case 2:
			return "bad utf8 \xff\xfe\xfd " + strings.Repeat("x", r.Intn(100))
		case 3:
			return "Traceback (most recent call last):\n  File \"a.py\", line 3, in <module>\nValueError: boom\n"
		default:
			return fmt.Sprintf("message %d %s", r.Int(), strings.Repeat("word ", r.Intn(300)))
		}
	}
	for len(msgs) < n {
		switch r.Intn(7) {
		case 0, 1:
			msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, text()))
		case 2:
			msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeAI, text()))
		case 3, 4, 5:
			k := 1 + r.Intn(3)
			ai := llms.MessageContent{Role: llms.ChatMessageTypeAI}
			if r.Intn(2) == 0 {
				ai.Parts = append(ai.Parts, llms.TextPart(text()))
			}
			var ids []string
			for j := 0; j < k; j++ {
				call++
				id := fmt.Sprintf("call_%d", call)
				if r.Intn(20) == 0 && len(ids) > 0 {
					id = ids[0] // duplicate id
				}
				ids = append(ids, id)
				ai.Parts = append(ai.Parts, llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: []string{"bash", "read_file", "grep", "WEIRD"}[r.Intn(4)], Arguments: `{"command":"cat a.go"}`}})
			}
			if r.Intn(15) == 0 {
				ai.Parts = append(ai.Parts, nil)
			}
			msgs = append(msgs, ai)
			for _, id := range ids {
				if r.Intn(12) == 0 {
					continue // dangling call
				}
				msgs = append(msgs, llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
					llms.ToolCallResponse{ToolCallID: id, Content: "<returncode>" + fmt.Sprint(r.Intn(2)) + "</returncode><output>" + text() + "</output>"}}})
			}
		case 6:
			switch r.Intn(4) {
			case 0: // orphan result
				msgs = append(msgs, llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
					llms.ToolCallResponse{ToolCallID: "ghost", Content: text()}}})
			case 1:
				msgs = append(msgs, llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{
					llms.ImageURLContent{URL: "https://example.com/a.png"}, llms.BinaryContent{MIMEType: "application/pdf", Data: []byte{0, 1, 2}}}})
			case 2:
				msgs = append(msgs, llms.MessageContent{Role: llms.ChatMessageTypeGeneric})
			default:
				msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeSystem, "late system note"))
			}
		}
	}
	return msgs
}

func deepCopy(msgs []llms.MessageContent) []llms.MessageContent {
	out := make([]llms.MessageContent, len(msgs))
	for i, m := range msgs {
		out[i] = llms.MessageContent{Role: m.Role, Parts: slices.Clone(m.Parts)}
	}
	return out
}

// runProperty drives a random conversation through a compactor call by
// call and checks I1-I5 and I7 on every output.
func runProperty(t *testing.T, seed int64, window, n int) {
	r := rand.New(rand.NewSource(seed))
	msgs := genMessages(r, n)
	c, err := New(WithContextWindow(window), WithReservedOutput(window/8), WithPreserveRecent(r.Intn(8)), WithMinMessages(r.Intn(14)), WithCooldown(r.Intn(5)))
	if err != nil {
		t.Fatal(err)
	}
	s, twin, other := NewSession("fuzz"), NewSession("fuzz"), NewSession("other")
	// The twin's calls fill into (WithResultInto), each after a call of
	// other's over another input; pend and pendTwin are given the input's
	// last human message as pending (WithPending).
	var into Result
	pend, pendTwin := NewSession("fuzz"), NewSession("fuzz")
	var prev []llms.MessageContent
	for i := 1; i <= len(msgs); i++ {
		in := msgs[:i]
		before := deepCopy(in)
		res, err := c.Compact(context.Background(), s, in)
		_, _ = c.Compact(context.Background(), other, msgs[len(msgs)-i:], WithResultInto(&into))
		got, twinErr := c.Compact(context.Background(), twin, in, WithResultInto(&into))
		if err := sameResult(res, err, got, twinErr, &into); err != nil {
			t.Fatalf("seed %d call %d: WithResultInto: %v", seed, i, err)
		}
		if last := in[i-1]; last.Role == llms.ChatMessageTypeHuman {
			pr, perr := c.Compact(context.Background(), pend, in[:i-1], WithPending(last, ""))
			_, _ = c.Compact(context.Background(), other, msgs[len(msgs)-i:], WithResultInto(&into))
			pg, pgErr := c.Compact(context.Background(), pendTwin, in[:i-1], WithPending(last, ""), WithResultInto(&into))
			if err := sameResult(pr, perr, pg, pgErr, &into); err != nil {
				t.Fatalf("seed %d call %d: WithResultInto with a pending message: %v", seed, i, err)
			}
		}
		if !slices.EqualFunc(before, in, func(a, b llms.MessageContent) bool {
			return msg.Hash(a) == msg.Hash(b) && len(a.Parts) == len(b.Parts)
		}) {
			t.Fatalf("seed %d call %d: I5: input mutated", seed, i)
		}
		if err != nil {
			// The only acceptable error: the system prompt and the latest
			// user message alone exceed the budget.
			if !strings.Contains(err.Error(), ErrBudgetTooSmall.Error()) {
				t.Fatalf("seed %d call %d: %v", seed, i, err)
			}
			prev = nil
			continue
		}
		if err := checkOutput(c, in, res); err != nil {
			t.Fatalf("seed %d call %d: %v", seed, i, err)
		}
		if !res.Compacted && prev != nil && len(res.Repairs) == 0 {
			for k := range prev {
				if k >= len(res.Messages) || msg.Hash(prev[k]) != msg.Hash(res.Messages[k]) {
					t.Fatalf("seed %d call %d: I7: message %d changed without compaction", seed, i, k)
				}
			}
		}
		prev = res.Messages
		if len(res.Repairs) > 0 {
			prev = nil
		}
	}
}

func TestPropertyRandomConversations(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 20
	}
	for seed := int64(0); seed < int64(n); seed++ {
		runProperty(t, seed, []int{2_000, 6_000, 20_000}[seed%3], 30+int(seed%40))
	}
}

// FuzzCompact drives random conversations through the engine and checks
// the invariants on every call.
func FuzzCompact(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42, 1 << 40} {
		var b [12]byte
		binary.LittleEndian.PutUint64(b[:], s)
		b[8], b[9] = 40, 10
		f.Add(b[:])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 10 {
			return
		}
		seed := int64(binary.LittleEndian.Uint64(data))
		n := 2 + int(data[8])%60
		window := 1_000 + int(data[9])*200
		runProperty(t, seed, window, n)
	})
}

// sameResult reports how got, a call's result with WithResultInto(into),
// differs from res, the same call's without.
func sameResult(res *Result, err error, got *Result, gotErr error, into *Result) error {
	switch {
	case (err == nil) != (gotErr == nil):
		return fmt.Errorf("error %v, with it %v", err, gotErr)
	case err != nil:
		return nil
	case got != into:
		return fmt.Errorf("returned %p, not the Result given", got)
	}
	a, b := *res, *got
	if (a.Summary == nil) != (b.Summary == nil) || a.Summary != nil && a.Summary.Summary != b.Summary.Summary {
		return fmt.Errorf("summary %v, with it %v", a.Summary, b.Summary)
	}
	// Events and summaries differ by their time and id.
	a.Event, b.Event, a.arrays, b.arrays, a.Summary, b.Summary = nil, nil, nil, nil, nil, nil
	if !reflect.DeepEqual(a, b) {
		for k := range a.Messages {
			if k >= len(b.Messages) || !reflect.DeepEqual(a.Messages[k], b.Messages[k]) {
				return fmt.Errorf("message %d of %d/%d differs: %.200q", k, len(a.Messages), len(b.Messages), msg.Text(a.Messages[k]))
			}
		}
		va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
		for f := range va.NumField() {
			if va.Type().Field(f).IsExported() && !reflect.DeepEqual(va.Field(f).Interface(), vb.Field(f).Interface()) {
				return fmt.Errorf("%s: %v, with it %v", va.Type().Field(f).Name, va.Field(f).Interface(), vb.Field(f).Interface())
			}
		}
		return fmt.Errorf("results differ")
	}
	if (res.Event == nil) != (got.Event == nil) {
		return fmt.Errorf("event %v, with it %v", res.Event, got.Event)
	}
	return nil
}

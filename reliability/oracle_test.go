package reliability

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/agentcompact/compact"
	"github.com/tmc/langchaingo/llms"
)

// The invariant oracles shared by every test of the suite. They look at the
// engine from outside, through its exported API only, so they also hold for
// what the adapters (middleware, memory) send.

// cloneMessages returns a deep copy of msgs: new Parts slices, new
// FunctionCall values, new binary data. Comparing it with reflect.DeepEqual
// after a call proves the call did not mutate its input (I5).
func cloneMessages(msgs []llms.MessageContent) []llms.MessageContent {
	if msgs == nil {
		return nil
	}
	out := make([]llms.MessageContent, len(msgs))
	for i, m := range msgs {
		out[i] = cloneMessage(m)
	}
	return out
}

func cloneMessage(m llms.MessageContent) llms.MessageContent {
	c := llms.MessageContent{Role: m.Role}
	if m.Parts != nil {
		c.Parts = make([]llms.ContentPart, len(m.Parts))
		for k, p := range m.Parts {
			switch p := p.(type) {
			case llms.ToolCall:
				if p.FunctionCall != nil {
					fc := *p.FunctionCall
					p.FunctionCall = &fc
				}
				c.Parts[k] = p
			case llms.BinaryContent:
				if p.Data != nil {
					p.Data = append([]byte{}, p.Data...)
				}
				c.Parts[k] = p
			default:
				c.Parts[k] = p
			}
		}
	}
	return c
}

// withoutNilParts is m as the engine repairs it: nil parts removed.
func withoutNilParts(m llms.MessageContent) llms.MessageContent {
	out := llms.MessageContent{Role: m.Role}
	for _, p := range m.Parts {
		if p != nil {
			out.Parts = append(out.Parts, p)
		}
	}
	return out
}

// sameContent compares two messages by role and parts, treating a nil and
// an empty Parts slice alike.
func sameContent(a, b llms.MessageContent) bool {
	if a.Role != b.Role || len(a.Parts) != len(b.Parts) {
		return false
	}
	for k := range a.Parts {
		if !reflect.DeepEqual(a.Parts[k], b.Parts[k]) {
			return false
		}
	}
	return true
}

// textOf concatenates the text of m: text parts and tool outputs.
func textOf(m llms.MessageContent) string {
	var b strings.Builder
	for _, p := range m.Parts {
		switch p := p.(type) {
		case llms.TextContent:
			b.WriteString(p.Text)
		case llms.ToolCallResponse:
			b.WriteString(p.Content)
		}
	}
	return b.String()
}

// leadingSystem returns how many messages at the start of msgs have the
// system role.
func leadingSystem(msgs []llms.MessageContent) int {
	n := 0
	for n < len(msgs) && msgs[n].Role == llms.ChatMessageTypeSystem {
		n++
	}
	return n
}

// cutMarkerStart starts stage 3's visible cut marker (compact.CutMarker).
var cutMarkerStart = compact.CutMarker[:strings.Index(compact.CutMarker, "%")]

// isCut reports whether m carries stage 3's visible cut marker.
func isCut(m llms.MessageContent) bool {
	return strings.Contains(textOf(m), cutMarkerStart)
}

// cutParts returns the head and tail kept around the cut marker in t.
func cutParts(t string) (head, tail string) {
	i := strings.Index(t, cutMarkerStart)
	if i < 0 {
		return t, ""
	}
	head, rest := t[:i], t[i+len(cutMarkerStart):]
	if j := strings.Index(rest, "]\n"); j >= 0 {
		tail = rest[j+2:]
	}
	return head, tail
}

// cutFrom reports whether the cut text t keeps the head and tail of orig.
func cutFrom(t, orig string) bool {
	head, tail := cutParts(t)
	return strings.HasPrefix(orig, head) && strings.HasSuffix(orig, tail) && len(head)+len(tail) < len(orig)
}

// checkOutput verifies the invariants of one output against its input:
//
//	I1  the counted tokens equal Result.Tokens and fit the compactor's budget;
//	I2  tool calls and results are paired (compact.CheckToolPairs);
//	I3  the leading system messages come first, verbatim (nil parts aside);
//	I4  the latest user message is present verbatim, or visibly cut with its
//	    head kept;
//	    and every system-role message of the output is one of the input's
//	    system messages (nothing is promoted to system: prompt injection).
func checkOutput(c *compact.Compactor, in []llms.MessageContent, res *compact.Result) error {
	if res == nil {
		return errors.New("nil result without error")
	}
	out := res.Messages
	if got := c.CountTokens(out); got != res.Tokens {
		return fmt.Errorf("I1: Result.Tokens %d, counted %d", res.Tokens, got)
	}
	if res.Tokens > res.Budget || res.Budget > c.Budget() {
		return fmt.Errorf("I1: %d tokens, result budget %d, compactor budget %d", res.Tokens, res.Budget, c.Budget())
	}
	if err := compact.CheckToolPairs(out); err != nil {
		return fmt.Errorf("I2: %w", err)
	}
	lead := leadingSystem(in)
	repaired, _ := compact.Repair(in[:lead]) // nil parts dropped, misplaced tool calls as text
	for i := 0; i < lead; i++ {
		if i >= len(out) || i >= len(repaired) || !sameContent(out[i], repaired[i]) {
			return fmt.Errorf("I3: leading system message %d not kept first and verbatim", i)
		}
	}
	if err := checkSystemRoles(in, out); err != nil {
		return err
	}
	// The latest user message as the engine sees it: after the documented
	// repairs (nil parts dropped, misplaced tool calls as text), and not one
	// of the user messages the repair makes of orphaned tool results.
	rin, _ := compact.Repair(in)
	u := -1
	for i := len(rin) - 1; i >= leadingSystem(rin); i-- {
		if rin[i].Role == llms.ChatMessageTypeHuman && !strings.HasPrefix(textOf(rin[i]), "[compact: tool result of ") {
			u = i
			break
		}
	}
	if u >= 0 {
		want := rin[u]
		wantText := textOf(want)
		found := false
		for _, m := range out {
			if m.Role != llms.ChatMessageTypeHuman {
				continue
			}
			if sameContent(m, want) {
				found = true
				break
			}
			if isCut(m) && cutFrom(textOf(m), wantText) {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("I4: latest user message (input index %d) neither kept nor visibly cut", u)
		}
	}
	return nil
}

// checkSystemRoles verifies that every system message of out is a system
// message of in, verbatim: no text of any other role (a tool output saying
// "ignore previous instructions", a summary) becomes system text.
func checkSystemRoles(in, out []llms.MessageContent) error {
	repaired, _ := compact.Repair(in) // what "verbatim" means after the documented repairs
	for i, m := range out {
		if m.Role != llms.ChatMessageTypeSystem {
			continue
		}
		ok := false
		for _, o := range repaired {
			// A later system message may have been cut by stage 3, visibly:
			// still the original's text, never another role's.
			if o.Role == llms.ChatMessageTypeSystem && (sameContent(m, o) || isCut(m) && cutFrom(textOf(m), textOf(o))) {
				ok = true
				break
			}
		}
		if !ok {
			return fmt.Errorf("output message %d has the system role but is none of the input's system messages: %.120q", i, textOf(m))
		}
	}
	return nil
}

// checkUnchanged verifies I5: in still equals before, its deep copy taken
// before the call.
func checkUnchanged(before, in []llms.MessageContent) error {
	if !reflect.DeepEqual(before, in) {
		for i := range before {
			if i >= len(in) || !reflect.DeepEqual(before[i], in[i]) {
				return fmt.Errorf("I5: input message %d was mutated", i)
			}
		}
		return errors.New("I5: input was mutated")
	}
	return nil
}

// scribble overwrites every part of out, the caller-owned result. If any
// Parts slice of the result aliases the input or the session's state, the
// input's deep comparison or the next call's invariants catch it.
func scribble(out []llms.MessageContent) {
	for i := range out {
		for k := range out[i].Parts {
			out[i].Parts[k] = llms.TextPart("scribbled by the caller")
		}
	}
}

// coverage reports which input messages are accounted for by an output
// and the session's summary chain: present verbatim (by id), covered by a
// summary record (OriginalMessageIDs), a tool message whose results are all
// present (masked), or a message visibly cut. It returns the indexes of the
// input messages that are none of these: lost.
func coverage(in []llms.MessageContent, out []llms.MessageContent, chain []compact.SummaryRecord) []int {
	// Ids of repeated messages carry a "~n" suffix that depends on the
	// list; presence in the output is counted by the bare hash.
	inIDs := compact.MessageIDs(in)
	bare := func(id string) string {
		if i := strings.IndexByte(id, '~'); i >= 0 {
			return id[:i]
		}
		return id
	}
	present := map[string]int{}
	for _, id := range compact.MessageIDs(out) {
		present[bare(id)]++
	}
	covered := map[string]bool{}
	for _, r := range chain {
		for _, id := range r.OriginalMessageIDs {
			covered[id] = true
		}
	}
	results := map[string]bool{}
	var cuts []string
	for _, m := range out {
		for _, p := range m.Parts {
			if r, ok := p.(llms.ToolCallResponse); ok {
				results[r.ToolCallID] = true
			}
		}
		if isCut(m) {
			cuts = append(cuts, textOf(m))
		}
	}
	var lost []int
	for i, m := range in {
		id := inIDs[i]
		if covered[id] {
			continue
		}
		if present[bare(id)] > 0 {
			present[bare(id)]--
			continue
		}
		if m.Role == llms.ChatMessageTypeTool {
			all := len(m.Parts) > 0
			for _, p := range m.Parts {
				r, ok := p.(llms.ToolCallResponse)
				if !ok || !results[r.ToolCallID] {
					all = false
				}
			}
			if all {
				continue
			}
		}
		cut := false
		for _, t := range cuts {
			if cutFrom(t, textOf(m)) {
				cut = true
				break
			}
		}
		if !cut {
			lost = append(lost, i)
		}
	}
	return lost
}

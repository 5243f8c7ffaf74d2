package compact

import (
	"fmt"
	"strings"

	"github.com/tmc/langchaingo/llms"
)

// Repairs the engine applies to its input, reported in [Event].Repairs and
// [Result].Repairs. The input slice itself is never modified; the repaired
// list is what the engine works on and returns.
//
//   - nil parts are removed;
//   - a tool result that does not answer a call of the assistant message
//     right before its block of tool messages (an orphan, or a duplicate) is
//     turned into a user message "[compact: tool result ... without a
//     matching call]" placed after that block, so that its content is kept;
//   - a tool call left without a result gets a synthetic tool result
//     "[compact: no result was recorded for this call]" right after its
//     block, because providers reject unanswered calls.
const (
	RepairNilPart      = "nil-part"
	RepairOrphan       = "orphan-result"
	RepairDanglingCall = "dangling-call"
	// RepairMisplacedCall: a tool call part in a message that is not the
	// assistant's (providers accept calls only there) becomes a text part
	// "[compact: tool call NAME(ARGS) ...]" in the same message.
	RepairMisplacedCall = "misplaced-call"
	// RepairNoRole: a message without a role (Role ""), which providers
	// reject, is reported; it is kept as it is, the engine cannot know
	// which role was meant.
	RepairNoRole = "no-role"
	// RepairEmpty: a message without any part (or whose parts were all
	// nil) is reported; it is kept as it is. An input without any message
	// (nil or empty) is reported as "empty-message: no messages": the
	// result is empty too, and a provider rejects a request without one.
	RepairEmpty = "empty-message"
)

// NoResultContent is the content of the synthetic result added for a tool call without one.
const NoResultContent = "[compact: no result was recorded for this call]"

const orphanPrefix = "[compact: tool result of "

// Repair returns msgs as the engine repairs them before compacting (see the
// Repair* constants), and the repairs applied. It is what Compact starts
// from; tests and callers can use it to know what "verbatim" means for a
// message that needed a repair. msgs is not modified; the result is a new
// slice whose unrepaired messages share their Parts slices with msgs.
func Repair(msgs []llms.MessageContent) ([]llms.MessageContent, []string) {
	out, _, repairs := repair(msgs)
	return out, repairs
}

// callChain links the pending calls of one id: the first unanswered (-1
// when none is) and the last.
type callChain struct{ first, last int }

type pendingCall struct {
	id, name string
	answered bool
	next     int // the next pending call with the same id, or -1
}

// repair returns a repaired copy of msgs and the repairs applied. The
// returned slice is new; a message's Parts slice is shared with the input
// when no repair touched it (the engine never writes to it). Messages the repair made
// (orphans turned into user messages) have the prefix orphanPrefix. src
// gives, for each returned message, the index of the input message it comes
// from, or -1 for a synthetic tool result.
func repair(msgs []llms.MessageContent) ([]llms.MessageContent, []int, []string) {
	return repairInto(msgs, nil)
}

// repairInto is repair writing the repaired list and its sources into the
// arrays of a (a session's, reused from call to call; nil allocates), which
// keeps them for the next call. With a, an input that needs no repair is
// returned as it is (the engine only reads the list it works on) and src
// is the identity: the common call costs a scan of the input, not a copy
// of it.
func repairInto(msgs []llms.MessageContent, a *workArrays) ([]llms.MessageContent, []int, []string) {
	r := &repairer{}
	if a != nil {
		r.out, r.src = a.msgs[:0], a.src[:0]
		r.in = msgs // lazy: the output is msgs[:r.same] until it differs
	}
	if cap(r.out) < len(msgs) {
		r.out, r.src = make([]llms.MessageContent, 0, len(msgs)+len(msgs)/8), make([]int, 0, len(msgs)+len(msgs)/8)
	}
	if len(msgs) == 0 {
		r.repairs = append(r.repairs, RepairEmpty+": no messages")
	}
	for i, m := range msgs {
		parts := r.withoutNil(m.Parts)
		if m.Role == "" {
			r.repairs = append(r.repairs, RepairNoRole)
		}
		if len(parts) == 0 {
			r.repairs = append(r.repairs, RepairEmpty)
		}
		if m.Role == llms.ChatMessageTypeTool {
			r.tool(i, m.Role, parts)
			continue
		}
		r.flush()
		if m.Role == llms.ChatMessageTypeAI {
			r.expect(parts)
		} else {
			parts = textualizeCalls(parts, m.Role, &r.repairs)
		}
		r.add(llms.MessageContent{Role: m.Role, Parts: parts}, i)
	}
	r.flush()
	if a == nil {
		return r.out, r.src, r.repairs
	}
	if r.in != nil { // nothing differed: msgs as it is
		a.msgs, a.src = r.out, identity(r.src, len(msgs))
		return msgs[:len(msgs):len(msgs)], a.src, r.repairs
	}
	a.msgs, a.src = r.out, r.src
	return r.out, r.src, r.repairs
}

// identity returns s holding 0, 1, ..., n-1, reusing its array.
func identity(s []int, n int) []int {
	s = s[:0]
	for i := range n {
		s = append(s, i)
	}
	return s
}

// repairer is the state of one repair pass: the output so far, the calls
// of the latest assistant message awaiting results, and the orphaned
// results to place after their block.
type repairer struct {
	out       []llms.MessageContent
	src       []int
	repairs   []string
	pending   []pendingCall
	cursor    int            // before the index: every pending call before it is answered, none after
	byID      map[string]int // per call id, its chain in chains; built on the first result out of order
	chains    []callChain
	orphans   []llms.MessageContent
	orphanSrc []int
	in        []llms.MessageContent // the input while the output is its first same messages, else nil
	same      int
}

func (r *repairer) add(m llms.MessageContent, src int) {
	if r.in != nil {
		if src == r.same && sameContent(m, r.in[src]) {
			r.same++
			return
		}
		r.materialize()
	}
	r.out = append(r.out, m)
	r.src = append(r.src, src)
}

// materialize ends the lazy output: it becomes the input's first same
// messages, written out, to which the repair appends what differs.
func (r *repairer) materialize() {
	if r.in == nil {
		return
	}
	r.out = append(r.out, r.in[:r.same]...) // nothing was written before: out and src are empty
	r.src = identity(r.src, r.same)
	r.in = nil
}

// sameContent reports whether m is the input message in unchanged: the
// same role and the very same parts (repair made no new slice).
func sameContent(m, in llms.MessageContent) bool {
	return m.Role == in.Role && len(m.Parts) == len(in.Parts) &&
		(len(m.Parts) == 0 || &m.Parts[0] == &in.Parts[0])
}

// withoutNil returns parts without nil parts (parts itself when it has none).
func (r *repairer) withoutNil(parts []llms.ContentPart) []llms.ContentPart {
	for _, p := range parts {
		if p == nil {
			var kept []llms.ContentPart
			for _, p := range parts {
				if p == nil {
					r.repairs = append(r.repairs, RepairNilPart)
					continue
				}
				kept = append(kept, p)
			}
			return kept
		}
	}
	return parts
}

// expect records the tool calls of an assistant message as awaiting results.
func (r *repairer) expect(parts []llms.ContentPart) {
	if n := countCalls(llms.MessageContent{Parts: parts}); n > 0 && len(r.pending) == 0 {
		r.pending = make([]pendingCall, 0, n)
	}
	for _, p := range parts {
		if tc, ok := p.(llms.ToolCall); ok {
			name := ""
			if tc.FunctionCall != nil {
				name = tc.FunctionCall.Name
			}
			r.wait(tc.ID, name)
		}
	}
}

// tool keeps the results of tool message i that answer a pending call;
// the others become orphans, placed after the block.
func (r *repairer) tool(i int, role llms.ChatMessageType, parts []llms.ContentPart) {
	var kept []llms.ContentPart // made only when a part leaves: parts otherwise
	for j, p := range parts {
		res, ok := p.(llms.ToolCallResponse)
		if !ok || r.answer(res.ToolCallID) >= 0 {
			if kept != nil {
				kept = append(kept, p)
			}
			continue
		}
		if kept == nil {
			kept = append(make([]llms.ContentPart, 0, len(parts)), parts[:j]...)
		}
		r.repairs = append(r.repairs, fmt.Sprintf("%s: result for %q", RepairOrphan, res.ToolCallID))
		r.orphans = append(r.orphans, llms.MessageContent{
			Role: llms.ChatMessageTypeHuman,
			Parts: []llms.ContentPart{llms.TextPart(fmt.Sprintf(
				orphanPrefix+"%s (call %q) without a matching call]\n%s", nameOr(res.Name), res.ToolCallID, res.Content))},
		})
		r.orphanSrc = append(r.orphanSrc, i)
	}
	if kept == nil {
		kept = parts
	}
	if len(kept) > 0 || len(parts) == 0 {
		r.add(llms.MessageContent{Role: role, Parts: kept}, i)
	}
}

// flush ends a block of tool messages: a synthetic result for every call
// left unanswered, then the orphans.
func (r *repairer) flush() {
	var synth []llms.ContentPart
	for _, p := range r.pending {
		if !p.answered {
			synth = append(synth, llms.ToolCallResponse{ToolCallID: p.id, Name: p.name, Content: NoResultContent})
			r.repairs = append(r.repairs, fmt.Sprintf("%s: call %q (%s)", RepairDanglingCall, p.id, p.name))
		}
	}
	if len(synth) > 0 {
		r.add(llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: synth}, -1)
	}
	if len(r.orphans) > 0 {
		r.materialize()
		r.out = append(r.out, r.orphans...)
		r.src = append(r.src, r.orphanSrc...)
	}
	r.pending, r.cursor, r.byID, r.chains, r.orphans, r.orphanSrc = nil, 0, nil, nil, nil, nil
}

// textualizeCalls returns parts with every tool call turned into a text
// part (a new slice when one was), recording a repair for each.
func textualizeCalls(parts []llms.ContentPart, role llms.ChatMessageType, repairs *[]string) []llms.ContentPart {
	var out []llms.ContentPart
	for i, p := range parts {
		tc, ok := p.(llms.ToolCall)
		if !ok {
			if out != nil {
				out = append(out, p)
			}
			continue
		}
		if out == nil {
			out = append(make([]llms.ContentPart, 0, len(parts)), parts[:i]...)
		}
		name, args := "", ""
		if tc.FunctionCall != nil {
			name, args = tc.FunctionCall.Name, tc.FunctionCall.Arguments
		}
		*repairs = append(*repairs, fmt.Sprintf("%s: call %q in a %s message", RepairMisplacedCall, tc.ID, role))
		out = append(out, llms.TextPart(fmt.Sprintf("[compact: tool call %s(%s), id %q, in a %s message]", nameOr(name), args, tc.ID, role)))
	}
	if out == nil {
		return parts
	}
	return out
}

// isOrphanText reports whether m is a user message made by repair from an orphaned tool result.
func isOrphanText(m llms.MessageContent) bool {
	if m.Role != llms.ChatMessageTypeHuman || len(m.Parts) != 1 {
		return false
	}
	t, ok := m.Parts[0].(llms.TextContent)
	return ok && strings.HasPrefix(t.Text, orphanPrefix)
}

// wait appends a pending call (to the index, once there is one).
func (r *repairer) wait(id, name string) {
	r.pending = append(r.pending, pendingCall{id: id, name: name, next: -1})
	if r.byID != nil {
		r.link(len(r.pending) - 1)
	}
}

// link adds pending call k to the index, after the last one with its id.
func (r *repairer) link(k int) {
	id := r.pending[k].id
	c, ok := r.byID[id]
	if !ok {
		r.byID[id] = len(r.chains)
		r.chains = append(r.chains, callChain{first: k, last: k})
		return
	}
	ch := &r.chains[c]
	r.pending[ch.last].next = k
	ch.last = k
	if ch.first < 0 {
		ch.first = k
	}
}

// answer marks the first unanswered pending call with id as answered and
// returns its index, or -1 when there is none, in constant time, so that
// repairing a message of many calls stays linear: results in the order of
// their calls (the usual case) are matched by position; the first one out
// of order builds an index of the calls by id, used from then on.
func (r *repairer) answer(id string) int {
	if r.byID == nil {
		if r.cursor < len(r.pending) && r.pending[r.cursor].id == id {
			r.pending[r.cursor].answered = true
			r.cursor++
			return r.cursor - 1
		}
		r.byID, r.chains = make(map[string]int, len(r.pending)-r.cursor), make([]callChain, 0, len(r.pending)-r.cursor)
		for k := r.cursor; k < len(r.pending); k++ {
			r.link(k)
		}
	}
	c, ok := r.byID[id]
	if !ok || r.chains[c].first < 0 {
		return -1
	}
	ch := &r.chains[c]
	k := ch.first
	ch.first = r.pending[k].next
	r.pending[k].answered = true
	return k
}

func nameOr(s string) string {
	if s == "" {
		return "a tool"
	}
	return s
}

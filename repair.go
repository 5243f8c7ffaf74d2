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

type pendingCall struct {
	id, name string
	answered bool
}

// repair returns a repaired copy of msgs and the repairs applied. The
// returned slice is new; a message's Parts slice is shared with the input
// when no repair touched it (the engine never writes to it). Messages the repair made
// (orphans turned into user messages) have the prefix orphanPrefix. src
// gives, for each returned message, the index of the input message it comes
// from, or -1 for a synthetic tool result.
func repair(msgs []llms.MessageContent) ([]llms.MessageContent, []int, []string) {
	out := make([]llms.MessageContent, 0, len(msgs))
	src := make([]int, 0, len(msgs))
	var repairs []string
	var pending []pendingCall
	var orphans []llms.MessageContent
	var orphanSrc []int
	flush := func() {
		var synth []llms.ContentPart
		for _, p := range pending {
			if !p.answered {
				synth = append(synth, llms.ToolCallResponse{ToolCallID: p.id, Name: p.name, Content: NoResultContent})
				repairs = append(repairs, fmt.Sprintf("%s: call %q (%s)", RepairDanglingCall, p.id, p.name))
			}
		}
		if len(synth) > 0 {
			out = append(out, llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: synth})
			src = append(src, -1)
		}
		out = append(out, orphans...)
		src = append(src, orphanSrc...)
		pending, orphans, orphanSrc = nil, nil, nil
	}
	for mi, m := range msgs {
		// Parts slices are shared with the input unless a repair changes
		// them; the engine never writes to them.
		parts := m.Parts
		for _, p := range m.Parts {
			if p == nil {
				parts = nil
				break
			}
		}
		if parts == nil && len(m.Parts) > 0 {
			for _, p := range m.Parts {
				if p == nil {
					repairs = append(repairs, RepairNilPart)
					continue
				}
				parts = append(parts, p)
			}
		}
		if m.Role == llms.ChatMessageTypeTool {
			kept := parts[:0:0]
			for _, p := range parts {
				r, ok := p.(llms.ToolCallResponse)
				if !ok {
					kept = append(kept, p)
					continue
				}
				if i := findPending(pending, r.ToolCallID); i >= 0 {
					pending[i].answered = true
					kept = append(kept, p)
					continue
				}
				repairs = append(repairs, fmt.Sprintf("%s: result for %q", RepairOrphan, r.ToolCallID))
				orphans = append(orphans, llms.MessageContent{
					Role: llms.ChatMessageTypeHuman,
					Parts: []llms.ContentPart{llms.TextPart(fmt.Sprintf(
						orphanPrefix+"%s (call %q) without a matching call]\n%s", nameOr(r.Name), r.ToolCallID, r.Content))},
				})
				orphanSrc = append(orphanSrc, mi)
			}
			if len(kept) == len(parts) {
				kept = parts
			}
			if len(kept) > 0 || len(parts) == 0 {
				out = append(out, llms.MessageContent{Role: m.Role, Parts: kept})
				src = append(src, mi)
			}
			continue
		}
		flush()
		if m.Role != llms.ChatMessageTypeAI {
			parts = textualizeCalls(parts, m.Role, &repairs)
		}
		if m.Role == llms.ChatMessageTypeAI {
			for _, p := range parts {
				if tc, ok := p.(llms.ToolCall); ok {
					name := ""
					if tc.FunctionCall != nil {
						name = tc.FunctionCall.Name
					}
					pending = append(pending, pendingCall{id: tc.ID, name: name})
				}
			}
		}
		out = append(out, llms.MessageContent{Role: m.Role, Parts: parts})
		src = append(src, mi)
	}
	flush()
	return out, src, repairs
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

func findPending(p []pendingCall, id string) int {
	for i := range p {
		if p[i].id == id && !p[i].answered {
			return i
		}
	}
	return -1
}

func nameOr(s string) string {
	if s == "" {
		return "a tool"
	}
	return s
}

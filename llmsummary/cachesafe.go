package llmsummary

import (
	"fmt"
	"reflect"

	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/internal/refid"
	"github.com/agentcompact/compact/summary"
	"github.com/tmc/langchaingo/llms"
)

// CacheSafeTag starts the instruction of a cache-safe request; K is the
// last message (1-based, in the conversation as sent) the summary covers.
const CacheSafeTag = "<summarize_through message="

// cacheSafeInput returns the cache-safe request of req for model mi, or
// false when it does not apply (mode, model, no conversation, the
// messages to summarize not all found in it) or does not fit the window.
func (s *Summarizer) cacheSafeInput(req summary.Request, mi int, count func(string) int) (summarizerInput, bool) {
	if len(req.Sent) == 0 || s.cfg.cacheSafe == CacheSafeOff ||
		(s.cfg.cacheSafe == CacheSafeAuto && !sameModel(req.SentTo, s.models[mi])) {
		return summarizerInput{}, false
	}
	through := throughIndex(req.Sent, req.Messages, req.Refs)
	if through < 0 {
		return summarizerInput{}, false
	}
	window := req.SentWindow
	if s.cfg.window > 0 && (window == 0 || s.cfg.window < window) {
		window = s.cfg.window
	}
	instr, err := s.instruction(req, through)
	if err != nil || window <= 0 {
		return summarizerInput{}, false
	}
	tokens := count(instr)
	for _, m := range req.Sent {
		tokens += rawTokens(m, count)
	}
	if tokens+replyCap(req.MaxTokens) > window {
		return summarizerInput{}, false // I6: the prefix does not fit beside the reply
	}
	msgs := make([]llms.MessageContent, 0, len(req.Sent)+1)
	msgs = append(msgs, req.Sent...)
	msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, instr))
	return summarizerInput{msgs: msgs, tokens: tokens, shown: len(req.Messages)}, true
}

// instruction is the one message a cache-safe request adds: the
// summarizer's system prompt, and which messages to summarize.
func (s *Summarizer) instruction(req summary.Request, through int) (string, error) {
	sys, _, err := s.cfg.prompt.Render(promptValues(req))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s%d />\nStop the conversation here: you are now the summarizer, not the assistant.\n\n%s\n\n"+
		"Summarize messages 1 to %d of the conversation above (the ones being removed from the context; fold in any earlier summary they show), and answer with the JSON object only.",
		CacheSafeTag, through+1, sys, through+1), nil
}

// throughIndex returns the index in sent of the last message of msgs it
// shows: a tool result or a tool call by its id, a message masked or cut
// by the ref it shows (refs[i]), any other message by content;
// -1 when sent shows none of them.
func throughIndex(sent, msgs []llms.MessageContent, refs []string) int {
	ids := map[string]bool{}
	for _, m := range msgs {
		for _, p := range m.Parts {
			switch p := p.(type) {
			case llms.ToolCall:
				ids[p.ID] = true
			case llms.ToolCallResponse:
				ids[p.ToolCallID] = true
			}
		}
	}
	shownRefs := map[string]bool{}
	for _, r := range refs {
		if r != "" {
			shownRefs[r] = true
		}
	}
	last := -1
	for i, m := range sent {
		if showsAny(m, ids) || showsRef(m, shownRefs) || containsMessage(msgs, m) {
			last = i
		}
	}
	return last
}

// showsRef reports whether a text part of m shows a ref of refs.
func showsRef(m llms.MessageContent, refs map[string]bool) bool {
	if len(refs) == 0 {
		return false
	}
	found := false
	for _, p := range m.Parts {
		if t, ok := p.(llms.TextContent); ok && !found {
			refid.Each(t.Text, func(id string) bool {
				found = refs[id]
				return !found
			})
		}
	}
	return found
}

// showsAny reports whether m carries a tool call or result of ids.
func showsAny(m llms.MessageContent, ids map[string]bool) bool {
	for _, p := range m.Parts {
		switch p := p.(type) {
		case llms.ToolCall:
			if ids[p.ID] {
				return true
			}
		case llms.ToolCallResponse:
			if ids[p.ToolCallID] {
				return true
			}
		}
	}
	return false
}

// containsMessage reports whether msgs holds a message equal to m.
func containsMessage(msgs []llms.MessageContent, m llms.MessageContent) bool {
	for _, x := range msgs {
		if msg.Equal(x, m) {
			return true
		}
	}
	return false
}

// sameModel reports whether a and b are the same model value (false when
// either is nil or their type cannot be compared).
func sameModel(a, b llms.Model) (same bool) {
	if a == nil || b == nil {
		return false
	}
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta != tb || !ta.Comparable() {
		return false
	}
	defer func() {
		if recover() != nil {
			same = false // a comparable type holding an uncomparable value
		}
	}()
	return a == b
}

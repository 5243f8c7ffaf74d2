// Package chat holds langchaingo's chat messages (llms.ChatMessage) as
// package memory keeps them: their conversion to and from the engine's
// form (llms.MessageContent), their comparison, and the buffer string a
// chain's prompt is given. The message codec itself (store.MarshalMessage
// and the wire form) lives in package store.
package chat

import (
	"encoding/json"
	"strings"

	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// Deref returns the value form of the pointer forms of langchaingo's message
// types, and m itself otherwise (see store.MessageValue).
func Deref(m llms.ChatMessage) llms.ChatMessage { return store.MessageValue(m) }

// IsNil reports whether m is nil or a nil pointer (see store.IsNilMessage).
func IsNil(m llms.ChatMessage) bool { return store.IsNilMessage(m) }

// Same reports whether a and b carry the same message (type and every
// field store.MarshalMessage keeps). Strings shared with an earlier read compare
// in constant time.
func Same(a, b llms.ChatMessage) bool {
	if IsNil(a) || IsNil(b) {
		return IsNil(a) && IsNil(b)
	}
	wa, wb := store.ToWire(a), store.ToWire(b)
	if wa.Type != wb.Type || wa.Content != wb.Content || wa.Role != wb.Role || wa.Name != wb.Name ||
		wa.ToolCallID != wb.ToolCallID || wa.Reasoning != wb.Reasoning || wa.Other != wb.Other ||
		len(wa.ToolCalls) != len(wb.ToolCalls) || !sameFunc(wa.FunctionCall, wb.FunctionCall) {
		return false
	}
	for i := range wa.ToolCalls {
		x, y := wa.ToolCalls[i], wb.ToolCalls[i]
		if x.ID != y.ID || x.Type != y.Type || !sameFunc(x.Function, y.Function) {
			return false
		}
	}
	return true
}

func sameFunc(a, b *llms.FunctionCall) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Name == b.Name && a.Arguments == b.Arguments
}

// ToContent converts a chat message to the engine's form. toolName returns
// the function name of the call a tool result answers ("" when unknown).
//
//   - human, system, generic and function messages: one text part, with
//     their role (generic and function messages count as "other" for the
//     engine's priorities);
//   - an AI message: its text (when non-empty or when it calls nothing),
//     then one llms.ToolCall part per tool call; a legacy function call is
//     kept as text, as langchaingo's buffer string renders it, since it has
//     no id a result could answer;
//   - a tool message: one llms.ToolCallResponse.
func ToContent(m llms.ChatMessage, toolName func(id string) string) llms.MessageContent {
	w := store.ToWire(m)
	switch w.Type {
	case llms.ChatMessageTypeAI:
		mc := llms.MessageContent{Role: llms.ChatMessageTypeAI}
		text := w.Content
		if w.FunctionCall != nil {
			if j, err := json.Marshal(w.FunctionCall); err == nil {
				text = strings.TrimSpace(text + " " + string(j))
			}
		}
		if text != "" || len(w.ToolCalls) == 0 {
			mc.Parts = append(mc.Parts, llms.TextContent{Text: text})
		}
		for _, tc := range w.ToolCalls {
			mc.Parts = append(mc.Parts, tc.ToolCall())
		}
		return mc
	case llms.ChatMessageTypeTool:
		name := ""
		if toolName != nil {
			name = toolName(w.ToolCallID)
		}
		return llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{ToolCallID: w.ToolCallID, Name: name, Content: w.Content}}}
	default:
		return llms.MessageContent{Role: w.Type, Parts: []llms.ContentPart{llms.TextContent{Text: w.Content}}}
	}
}

// FromContent converts an engine message back to chat messages: a tool
// message yields one llms.ToolChatMessage per result part, any other message
// exactly one message. Text parts are joined with newlines.
func FromContent(mc llms.MessageContent) []llms.ChatMessage {
	var text []string
	var calls []llms.ToolCall
	var out []llms.ChatMessage
	for _, p := range mc.Parts {
		switch p := p.(type) {
		case llms.TextContent:
			text = append(text, p.Text)
		case llms.ToolCall:
			calls = append(calls, p)
		case llms.ToolCallResponse:
			out = append(out, llms.ToolChatMessage{ID: p.ToolCallID, Content: p.Content})
		}
	}
	content := strings.Join(text, "\n")
	switch mc.Role {
	case llms.ChatMessageTypeTool:
		if len(out) == 0 {
			out = append(out, llms.ToolChatMessage{Content: content})
		}
		return out
	case llms.ChatMessageTypeAI:
		return []llms.ChatMessage{llms.AIChatMessage{Content: content, ToolCalls: calls}}
	case llms.ChatMessageTypeHuman:
		return []llms.ChatMessage{llms.HumanChatMessage{Content: content}}
	case llms.ChatMessageTypeSystem:
		return []llms.ChatMessage{llms.SystemChatMessage{Content: content}}
	case llms.ChatMessageTypeGeneric:
		return []llms.ChatMessage{llms.GenericChatMessage{Content: content}}
	case llms.ChatMessageTypeFunction:
		return []llms.ChatMessage{llms.FunctionChatMessage{Content: content}}
	default:
		return []llms.ChatMessage{store.OtherMessage{Type: mc.Role, Content: content}}
	}
}

// Unchanged reports whether b, read from the history where the Memory
// holds a, is the same message: the same fields (Same) in the same
// form. A message replaced by its other form (value or pointer) is a
// changed message: the views hold the history's own values, and
// llms.GetBufferString renders the forms differently (an AI message's
// FunctionCall only for the value form; a *GenericChatMessage is an error).
func Unchanged(a, b llms.ChatMessage) bool {
	return pointerForm(a) == pointerForm(b) && Same(a, b)
}

// pointerForm reports whether m is a pointer to one of langchaingo's
// message types or to an store.OtherMessage.
func pointerForm(m llms.ChatMessage) bool {
	switch m.(type) {
	case *llms.AIChatMessage, *llms.HumanChatMessage, *llms.SystemChatMessage, *llms.GenericChatMessage,
		*llms.FunctionChatMessage, *llms.ToolChatMessage, *store.OtherMessage:
		return true
	}
	return false
}

// WithoutNil returns msgs without its nil entries (msgs itself when it has none).
func WithoutNil(msgs []llms.ChatMessage) []llms.ChatMessage {
	for i, cm := range msgs {
		if IsNil(cm) {
			out := append([]llms.ChatMessage(nil), msgs[:i]...)
			for _, cm := range msgs[i+1:] {
				if !IsNil(cm) {
					out = append(out, cm)
				}
			}
			return out
		}
	}
	return msgs
}

// ToolName returns the function name of the tool call with the given id,
// looking back from the end of msgs over its latest 64 messages ("" when
// none of them makes that call).
func ToolName(msgs []llms.ChatMessage, id string) string {
	for i := len(msgs) - 1; i >= 0 && i >= len(msgs)-64; i-- {
		if ai, ok := Deref(msgs[i]).(llms.AIChatMessage); ok {
			for _, tc := range ai.ToolCalls {
				if tc.ID == id && tc.FunctionCall != nil {
					return tc.FunctionCall.Name
				}
			}
		}
	}
	return ""
}

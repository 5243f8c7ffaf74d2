package memory

import (
	"encoding/json"
	"strings"

	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
)

// The message codec (store.MarshalMessage and the wire form) lives in
// package store; this file keeps the Memory's own comparisons and its
// conversions to and from the engine's form.

// deref returns the value form of the pointer forms of langchaingo's message
// types, and m itself otherwise (see store.MessageValue).
func deref(m llms.ChatMessage) llms.ChatMessage { return store.MessageValue(m) }

// isNil reports whether m is nil or a nil pointer (see store.IsNilMessage).
func isNil(m llms.ChatMessage) bool { return store.IsNilMessage(m) }

// sameMessage reports whether a and b carry the same message (type and every
// field store.MarshalMessage keeps). Strings shared with an earlier read compare
// in constant time.
func sameMessage(a, b llms.ChatMessage) bool {
	if isNil(a) || isNil(b) {
		return isNil(a) && isNil(b)
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

// toContent converts a chat message to the engine's form. toolName returns
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
func toContent(m llms.ChatMessage, toolName func(id string) string) llms.MessageContent {
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

// fromContent converts an engine message back to chat messages: a tool
// message yields one llms.ToolChatMessage per result part, any other message
// exactly one message. Text parts are joined with newlines.
func fromContent(mc llms.MessageContent) []llms.ChatMessage {
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

package memory

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tmc/langchaingo/llms"
)

// OtherMessage is a chat message of a type this package does not know (a
// caller's own llms.ChatMessage implementation), as decoded by
// [UnmarshalMessage]: it keeps the type and content, which is all such a
// message exposes. It encodes back to the same bytes.
type OtherMessage struct {
	Type    llms.ChatMessageType
	Content string
}

// GetType returns the message type.
func (m OtherMessage) GetType() llms.ChatMessageType { return m.Type }

// GetContent returns the message content.
func (m OtherMessage) GetContent() string { return m.Content }

// wireMessage is the full-fidelity JSON form of a chat message: unlike
// langchaingo's own stores it keeps tool calls, tool call ids, legacy
// function calls, names and reasoning content.
type wireMessage struct {
	Type         llms.ChatMessageType `json:"type"`
	Content      string               `json:"content,omitempty"`
	Role         string               `json:"role,omitempty"`
	Name         string               `json:"name,omitempty"`
	ToolCallID   string               `json:"toolCallId,omitempty"`
	ToolCalls    []wireCall           `json:"toolCalls,omitempty"`
	FunctionCall *llms.FunctionCall   `json:"functionCall,omitempty"`
	Reasoning    string               `json:"reasoning,omitempty"`
	Other        bool                 `json:"other,omitempty"`
}

// wireCall is a tool call in wireMessage. llms.ToolCall is not used
// directly: its own JSON methods (langchaingo v0.1.14) do not round-trip
// the function name and arguments.
type wireCall struct {
	ID       string             `json:"id"`
	Type     string             `json:"type,omitempty"`
	Function *llms.FunctionCall `json:"function,omitempty"`
}

func toWireCalls(calls []llms.ToolCall) []wireCall {
	if len(calls) == 0 {
		return nil
	}
	out := make([]wireCall, len(calls))
	for i, c := range calls {
		out[i] = wireCall{ID: c.ID, Type: c.Type, Function: c.FunctionCall}
	}
	return out
}

func fromWireCalls(calls []wireCall) []llms.ToolCall {
	if len(calls) == 0 {
		return nil
	}
	out := make([]llms.ToolCall, len(calls))
	for i, c := range calls {
		out[i] = llms.ToolCall{ID: c.ID, Type: c.Type, FunctionCall: c.Function}
	}
	return out
}

// errNilMessage reports a nil chat message given to MarshalMessage.
var errNilMessage = errors.New("memory: nil chat message")

// deref returns the value form of the pointer forms of langchaingo's message
// types, and m itself otherwise. A nil pointer yields nil.
func deref(m llms.ChatMessage) llms.ChatMessage {
	switch p := m.(type) {
	case *llms.AIChatMessage:
		if p == nil {
			return nil
		}
		return *p
	case *llms.HumanChatMessage:
		if p == nil {
			return nil
		}
		return *p
	case *llms.SystemChatMessage:
		if p == nil {
			return nil
		}
		return *p
	case *llms.GenericChatMessage:
		if p == nil {
			return nil
		}
		return *p
	case *llms.FunctionChatMessage:
		if p == nil {
			return nil
		}
		return *p
	case *llms.ToolChatMessage:
		if p == nil {
			return nil
		}
		return *p
	case *OtherMessage:
		if p == nil {
			return nil
		}
		return *p
	}
	return m
}

// isNil reports whether m is nil or a nil pointer of a known message type.
func isNil(m llms.ChatMessage) bool { return m == nil || deref(m) == nil }

func toWire(m llms.ChatMessage) wireMessage {
	switch v := deref(m).(type) {
	case llms.AIChatMessage:
		return wireMessage{Type: llms.ChatMessageTypeAI, Content: v.Content, ToolCalls: toWireCalls(v.ToolCalls),
			FunctionCall: v.FunctionCall, Reasoning: v.ReasoningContent}
	case llms.HumanChatMessage:
		return wireMessage{Type: llms.ChatMessageTypeHuman, Content: v.Content}
	case llms.SystemChatMessage:
		return wireMessage{Type: llms.ChatMessageTypeSystem, Content: v.Content}
	case llms.GenericChatMessage:
		return wireMessage{Type: llms.ChatMessageTypeGeneric, Content: v.Content, Role: v.Role, Name: v.Name}
	case llms.FunctionChatMessage:
		return wireMessage{Type: llms.ChatMessageTypeFunction, Content: v.Content, Name: v.Name}
	case llms.ToolChatMessage:
		return wireMessage{Type: llms.ChatMessageTypeTool, Content: v.Content, ToolCallID: v.ID}
	default:
		return wireMessage{Type: m.GetType(), Content: m.GetContent(), Other: true}
	}
}

func fromWire(w wireMessage) llms.ChatMessage {
	if w.Other {
		return OtherMessage{Type: w.Type, Content: w.Content}
	}
	switch w.Type {
	case llms.ChatMessageTypeAI:
		return llms.AIChatMessage{Content: w.Content, ToolCalls: fromWireCalls(w.ToolCalls), FunctionCall: w.FunctionCall,
			ReasoningContent: w.Reasoning}
	case llms.ChatMessageTypeHuman:
		return llms.HumanChatMessage{Content: w.Content}
	case llms.ChatMessageTypeSystem:
		return llms.SystemChatMessage{Content: w.Content}
	case llms.ChatMessageTypeGeneric:
		return llms.GenericChatMessage{Content: w.Content, Role: w.Role, Name: w.Name}
	case llms.ChatMessageTypeFunction:
		return llms.FunctionChatMessage{Content: w.Content, Name: w.Name}
	case llms.ChatMessageTypeTool:
		return llms.ToolChatMessage{Content: w.Content, ID: w.ToolCallID}
	default:
		return OtherMessage{Type: w.Type, Content: w.Content}
	}
}

// MarshalMessage encodes m in this package's full-fidelity JSON form: the
// type, content, tool calls with their ids, tool call id of a tool result,
// legacy function call, generic role and name, function name and reasoning
// content. Pointer forms of langchaingo's message types are encoded as their
// values; any other implementation keeps its type and content (it decodes as
// an [OtherMessage]). The encoding is deterministic: equal messages encode
// to equal bytes, which is what the sha256 integrity hashes rely on. A nil
// message is an error. Text that is not valid UTF-8 cannot be JSON: as
// encoding/json does, each invalid byte is encoded as U+FFFD, so a history
// persisted in this form (the SQLite store's) returns such text with
// replacement characters, and hashes are those of the replaced text.
func MarshalMessage(m llms.ChatMessage) ([]byte, error) {
	if isNil(m) {
		return nil, errNilMessage
	}
	b, err := json.Marshal(toWire(m))
	if err != nil {
		return nil, fmt.Errorf("memory: encode %s message: %w", m.GetType(), err)
	}
	return b, nil
}

// UnmarshalMessage decodes a message encoded by [MarshalMessage]. It returns
// the value types of langchaingo (llms.AIChatMessage, llms.ToolChatMessage,
// ...), or an [OtherMessage] for a type it does not know.
func UnmarshalMessage(b []byte) (llms.ChatMessage, error) {
	var w wireMessage
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, fmt.Errorf("memory: decode chat message: %w", err)
	}
	if w.Type == "" {
		return nil, errors.New("memory: decode chat message: missing type")
	}
	return fromWire(w), nil
}

// sameMessage reports whether a and b carry the same message (type and every
// field MarshalMessage keeps). Strings shared with an earlier read compare
// in constant time.
func sameMessage(a, b llms.ChatMessage) bool {
	if isNil(a) || isNil(b) {
		return isNil(a) && isNil(b)
	}
	wa, wb := toWire(a), toWire(b)
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
	w := toWire(m)
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
		for _, tc := range fromWireCalls(w.ToolCalls) {
			mc.Parts = append(mc.Parts, tc)
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
		return []llms.ChatMessage{OtherMessage{Type: mc.Role, Content: content}}
	}
}

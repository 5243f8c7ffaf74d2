package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

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

// WireMessage is the full-fidelity JSON form of a chat message that
// [MarshalMessage] writes: unlike langchaingo's own stores it keeps tool
// calls, tool call ids, legacy function calls, names and reasoning content.
// Stores that keep histories in this form (the SQLite store, as the body of
// each message) read them back with [UnmarshalMessage]; its field names are
// a stable format.
type WireMessage struct {
	Type         llms.ChatMessageType `json:"type"`
	Content      string               `json:"content,omitempty"`
	Role         string               `json:"role,omitempty"`
	Name         string               `json:"name,omitempty"`
	ToolCallID   string               `json:"toolCallId,omitempty"`
	ToolCalls    []WireCall           `json:"toolCalls,omitempty"`
	FunctionCall *llms.FunctionCall   `json:"functionCall,omitempty"`
	Reasoning    string               `json:"reasoning,omitempty"`
	// Other marks a message of a type this package does not know (see
	// [OtherMessage]).
	Other bool `json:"other,omitempty"`
}

// WireCall is a tool call in a [WireMessage]. llms.ToolCall is not used
// directly: its own JSON methods (langchaingo v0.1.14) do not round-trip
// the function name and arguments.
type WireCall struct {
	ID       string             `json:"id"`
	Type     string             `json:"type,omitempty"`
	Function *llms.FunctionCall `json:"function,omitempty"`
}

// ToolCall returns c as an llms.ToolCall.
func (c WireCall) ToolCall() llms.ToolCall {
	return llms.ToolCall{ID: c.ID, Type: c.Type, FunctionCall: c.Function}
}

func toWireCalls(calls []llms.ToolCall) []WireCall {
	if len(calls) == 0 {
		return nil
	}
	out := make([]WireCall, len(calls))
	for i, c := range calls {
		out[i] = WireCall{ID: c.ID, Type: c.Type, Function: c.FunctionCall}
	}
	return out
}

func fromWireCalls(calls []WireCall) []llms.ToolCall {
	if len(calls) == 0 {
		return nil
	}
	out := make([]llms.ToolCall, len(calls))
	for i, c := range calls {
		out[i] = c.ToolCall()
	}
	return out
}

// errNilMessage reports a nil chat message given to MarshalMessage.
var errNilMessage = errors.New("store: nil chat message")

// MessageValue returns the value form of the pointer forms of langchaingo's
// message types (and of *[OtherMessage]), and m itself otherwise. nil and a
// nil pointer of any type yield nil.
func MessageValue(m llms.ChatMessage) llms.ChatMessage {
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
	case nil:
		return nil
	}
	if v := reflect.ValueOf(m); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil // a caller's own message type: its methods may not take a nil receiver
	}
	return m
}

// IsNilMessage reports whether m is nil or a nil pointer. Histories skip
// such messages.
func IsNilMessage(m llms.ChatMessage) bool { return m == nil || MessageValue(m) == nil }

// ToWire returns the wire form of m. A nil message (see [IsNilMessage])
// yields the zero WireMessage.
func ToWire(m llms.ChatMessage) WireMessage {
	switch v := MessageValue(m).(type) {
	case nil:
		return WireMessage{}
	case llms.AIChatMessage:
		return WireMessage{Type: llms.ChatMessageTypeAI, Content: v.Content, ToolCalls: toWireCalls(v.ToolCalls),
			FunctionCall: v.FunctionCall, Reasoning: v.ReasoningContent}
	case llms.HumanChatMessage:
		return WireMessage{Type: llms.ChatMessageTypeHuman, Content: v.Content}
	case llms.SystemChatMessage:
		return WireMessage{Type: llms.ChatMessageTypeSystem, Content: v.Content}
	case llms.GenericChatMessage:
		return WireMessage{Type: llms.ChatMessageTypeGeneric, Content: v.Content, Role: v.Role, Name: v.Name}
	case llms.FunctionChatMessage:
		return WireMessage{Type: llms.ChatMessageTypeFunction, Content: v.Content, Name: v.Name}
	case llms.ToolChatMessage:
		return WireMessage{Type: llms.ChatMessageTypeTool, Content: v.Content, ToolCallID: v.ID}
	default:
		return WireMessage{Type: m.GetType(), Content: m.GetContent(), Other: true}
	}
}

// FromWire returns the message w stands for: a value of langchaingo's
// message types, or an [OtherMessage].
func FromWire(w WireMessage) llms.ChatMessage {
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

// MarshalMessage encodes m in its full-fidelity JSON form ([WireMessage]): the
// type, content, tool calls with their ids, tool call id of a tool result,
// legacy function call, generic role and name, function name and reasoning
// content. Pointer forms of langchaingo's message types are encoded as their
// values; any other implementation keeps its type and content (it decodes as
// an [OtherMessage]). The encoding is deterministic: equal messages encode
// to equal bytes, which is what the sha256 integrity hashes of
// memory.HashMessages rely on. A nil message is an error. Text that is not
// valid UTF-8 cannot be JSON: as encoding/json does, each invalid byte is
// encoded as U+FFFD, so a history persisted in this form (the SQLite
// store's) returns such text with replacement characters, and hashes are
// those of the replaced text.
func MarshalMessage(m llms.ChatMessage) ([]byte, error) {
	if IsNilMessage(m) {
		return nil, errNilMessage
	}
	b, err := json.Marshal(ToWire(m))
	if err != nil {
		return nil, fmt.Errorf("store: encode %s message: %w", m.GetType(), err)
	}
	return b, nil
}

// UnmarshalMessage decodes a message encoded by [MarshalMessage]. It returns
// the value types of langchaingo (llms.AIChatMessage, llms.ToolChatMessage,
// ...), or an [OtherMessage] for a type it does not know.
func UnmarshalMessage(b []byte) (llms.ChatMessage, error) {
	var w WireMessage
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, fmt.Errorf("store: decode chat message: %w", err)
	}
	if w.Type == "" {
		return nil, errors.New("store: decode chat message: missing type")
	}
	return FromWire(w), nil
}

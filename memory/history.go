package memory

import (
	"context"
	"sync"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

// IncrementalHistory is a chat history that can return only the messages
// appended since a position and append several messages at once. A
// [Memory] over such a history reads only the new messages on each turn,
// so its per-turn cost does not grow with the conversation; over any other
// schema.ChatMessageHistory it reads and checks the whole history each time.
// [ChatHistory] and the SQLite store's history implement it.
type IncrementalHistory interface {
	schema.ChatMessageHistory
	// MessagesSince returns the messages at positions from, from+1, ... (a
	// new slice owned by the caller) and the history's epoch, read
	// atomically. The epoch changes whenever messages are removed or
	// replaced (Clear, SetMessages), never when messages are appended, so a
	// reader that sees the same epoch knows that the positions it read
	// before still hold the same messages. from beyond the end yields no
	// messages.
	MessagesSince(ctx context.Context, from int) ([]llms.ChatMessage, uint64, error)
	// AddMessages appends msgs in order, atomically: all or none. nil
	// messages are skipped.
	AddMessages(ctx context.Context, msgs []llms.ChatMessage) error
}

// ChatHistory is the default history of a [Memory]: an in-memory,
// append-mostly list of chat messages, safe for concurrent use (langchaingo's
// memory.ChatMessageHistory is not). Like langchaingo's history, its
// Messages never returns nil. The zero value is ready to use.
type ChatHistory struct {
	mu    sync.Mutex
	msgs  []llms.ChatMessage
	epoch uint64
}

var (
	_ schema.ChatMessageHistory = (*ChatHistory)(nil)
	_ IncrementalHistory        = (*ChatHistory)(nil)
)

// NewChatHistory returns a history holding a copy of msgs (nil messages
// are skipped).
func NewChatHistory(msgs ...llms.ChatMessage) *ChatHistory {
	h := &ChatHistory{}
	for _, m := range msgs {
		if !isNil(m) {
			h.msgs = append(h.msgs, m)
		}
	}
	return h
}

// Messages returns the stored messages. The returned slice must not be
// modified; it is not affected by later appends.
func (h *ChatHistory) Messages(context.Context) ([]llms.ChatMessage, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.msgs == nil {
		return []llms.ChatMessage{}, nil
	}
	return h.msgs[:len(h.msgs):len(h.msgs)], nil
}

// MessagesSince implements [IncrementalHistory].
func (h *ChatHistory) MessagesSince(_ context.Context, from int) ([]llms.ChatMessage, uint64, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	from = max(from, 0)
	if from >= len(h.msgs) {
		return nil, h.epoch, nil
	}
	return append([]llms.ChatMessage(nil), h.msgs[from:]...), h.epoch, nil
}

// AddMessage appends message; a nil message is ignored.
func (h *ChatHistory) AddMessage(_ context.Context, message llms.ChatMessage) error {
	if isNil(message) {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.msgs = append(h.msgs, message)
	return nil
}

// AddMessages implements [IncrementalHistory].
func (h *ChatHistory) AddMessages(_ context.Context, msgs []llms.ChatMessage) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, m := range msgs {
		if !isNil(m) {
			h.msgs = append(h.msgs, m)
		}
	}
	return nil
}

// AddUserMessage appends a human message.
func (h *ChatHistory) AddUserMessage(ctx context.Context, text string) error {
	return h.AddMessage(ctx, llms.HumanChatMessage{Content: text})
}

// AddAIMessage appends an AI message.
func (h *ChatHistory) AddAIMessage(ctx context.Context, text string) error {
	return h.AddMessage(ctx, llms.AIChatMessage{Content: text})
}

// Clear removes all messages and starts a new epoch.
func (h *ChatHistory) Clear(context.Context) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.msgs = make([]llms.ChatMessage, 0)
	h.epoch++
	return nil
}

// SetMessages replaces the messages with a copy of messages (nil messages
// skipped) and starts a new epoch.
func (h *ChatHistory) SetMessages(_ context.Context, messages []llms.ChatMessage) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]llms.ChatMessage, 0, len(messages))
	for _, m := range messages {
		if !isNil(m) {
			out = append(out, m)
		}
	}
	h.msgs = out
	h.epoch++
	return nil
}

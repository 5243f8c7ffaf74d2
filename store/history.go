package store

import (
	"context"
	"sync"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

// IncrementalHistory is a chat history that can return only the messages
// appended since a position and append several messages at once. A
// memory.Memory over such a history reads only the new messages on each
// turn, so its per-turn cost does not grow with the conversation; over any
// other schema.ChatMessageHistory it reads and checks the whole history
// each time. [ChatHistory] and the histories of [Memory] and the SQLite
// store implement it.
//
// Concurrency: implementations are safe for concurrent use by multiple
// goroutines (and, for a history in a database, by processes). Every read
// sees whole AddMessages calls: the messages of one call are adjacent and
// in order, and a reader sees all of them or none.
//
// Crash semantics: each write (AddMessages, AddMessage, Clear,
// SetMessages) is atomic; a process killed during one leaves the history as
// it was before it. A write that returned no error is stored as durably as
// the implementation documents.
//
// Every method honours its context's cancellation: a context cancelled
// before or during the call makes it return an error wrapping the context's
// error, and a write that returns such an error has stored nothing.
type IncrementalHistory interface {
	schema.ChatMessageHistory
	// MessagesSince returns the messages at positions from, from+1, ... (a
	// new slice owned by the caller) and the history's epoch, read
	// atomically. The epoch changes whenever messages are removed or
	// replaced (Clear, SetMessages), never when messages are appended
	// (including the first append to an empty history), so a reader that
	// sees the same epoch knows that the positions it read before still
	// hold the same messages. from beyond the end yields no messages; from
	// below 0 counts as 0.
	MessagesSince(ctx context.Context, from int) ([]llms.ChatMessage, uint64, error)
	// AddMessages appends msgs in order, atomically: all or none. nil
	// messages are skipped. msgs is not retained.
	AddMessages(ctx context.Context, msgs []llms.ChatMessage) error
}

// VersionedHistory is an [IncrementalHistory] kept beside its session's
// [State] in one database, that can also return the State's version (see
// [Store.Version]) read together with the messages, in one round trip.
// memory.Memory uses it, when its history is its store's, to read a turn's
// new messages and check its state in one round trip. The pgstore history
// implements it.
type VersionedHistory interface {
	IncrementalHistory
	// MessagesSinceVersion is MessagesSince that also returns the version
	// of the session's State (0 when none is stored), all read from one
	// snapshot.
	MessagesSinceVersion(ctx context.Context, from int) ([]llms.ChatMessage, uint64, int64, error)
}

// HistoryStore is a [Store] that also keeps the sessions' message
// histories. memory.Memory given such a store with memory.WithStore and no
// memory.WithChatHistory uses History(sessionID) as its history.
//
// Its histories keep every field [MarshalMessage] keeps (tool calls with
// their ids and arguments, tool call ids of results, legacy function calls,
// names, reasoning content); they return langchaingo's value message types
// (llms.AIChatMessage, not *llms.AIChatMessage), or an [OtherMessage] for a
// type they do not know, unless they return exactly the values appended.
// Text that is not valid UTF-8 comes back as it was written or with each
// invalid byte replaced by U+FFFD (as [MarshalMessage] encodes it).
// A session's history and its State are separate: a history write never
// changes the State's version, and a Save never changes the history.
//
// Concurrency, crash and cancellation semantics are those of [Store] and
// [IncrementalHistory]. History may be called concurrently; the values it
// returns for one session id (in one process or several sharing a
// database) all see the same messages.
type HistoryStore interface {
	Store
	// History returns the history of a session. It does no I/O, so it
	// takes no context; the history's methods do.
	History(sessionID string) IncrementalHistory
}

// ChatHistory is an in-memory, append-mostly list of chat messages, the
// default history of memory.Memory and the history of [Memory]'s sessions.
// It is safe for concurrent use (langchaingo's memory.ChatMessageHistory is
// not). Like langchaingo's history, its Messages never returns nil. It keeps
// the messages it is given as they are (the interface values; it does not
// copy the tool calls inside them). The zero value is ready to use.
type ChatHistory struct {
	mu    sync.Mutex
	msgs  []llms.ChatMessage
	epoch uint64
	idx   *SearchIndex // the search index (historysearch.go), built lazily
	// idxEpoch is the epoch idx was built in.
	idxEpoch uint64
}

var (
	_ schema.ChatMessageHistory = (*ChatHistory)(nil)
	_ IncrementalHistory        = (*ChatHistory)(nil)
)

// NewChatHistory returns a history holding a copy of msgs (nil messages
// are skipped).
func NewChatHistory(msgs ...llms.ChatMessage) *ChatHistory {
	h := &ChatHistory{}
	h.msgs = appendNonNil(nil, msgs)
	return h
}

func appendNonNil(dst, msgs []llms.ChatMessage) []llms.ChatMessage {
	for _, m := range msgs {
		if !IsNilMessage(m) {
			dst = append(dst, m)
		}
	}
	return dst
}

// Messages returns a copy of the stored messages (never nil).
func (h *ChatHistory) Messages(ctx context.Context) ([]llms.ChatMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return append(make([]llms.ChatMessage, 0, len(h.msgs)), h.msgs...), nil
}

// MessagesSince implements [IncrementalHistory].
func (h *ChatHistory) MessagesSince(ctx context.Context, from int) ([]llms.ChatMessage, uint64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	from = max(from, 0)
	if from >= len(h.msgs) {
		return nil, h.epoch, nil
	}
	return append([]llms.ChatMessage(nil), h.msgs[from:]...), h.epoch, nil
}

// AddMessage appends message; a nil message is ignored.
func (h *ChatHistory) AddMessage(ctx context.Context, message llms.ChatMessage) error {
	return h.AddMessages(ctx, []llms.ChatMessage{message})
}

// AddMessages implements [IncrementalHistory].
func (h *ChatHistory) AddMessages(ctx context.Context, msgs []llms.ChatMessage) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.msgs = appendNonNil(h.msgs, msgs)
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
func (h *ChatHistory) Clear(ctx context.Context) error {
	return h.SetMessages(ctx, nil)
}

// SetMessages replaces the messages with a copy of messages (nil messages
// skipped) and starts a new epoch.
func (h *ChatHistory) SetMessages(ctx context.Context, messages []llms.ChatMessage) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	out := appendNonNil(make([]llms.ChatMessage, 0, len(messages)), messages)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.msgs = out
	h.epoch++
	return nil
}

package main

import (
	"context"
	"fmt"

	"github.com/agentcompact/compact/memory"
	lcmemory "github.com/tmc/langchaingo/memory"
)

// The chats mode's variants (-chathistory, -chattalk): what a user of the
// README's snippet gets, and replies as talkative as the conversation
// chain's template asks for.
const (
	// chatHistoryDefault is the memory's default history (store.ChatHistory).
	chatHistoryDefault = "default"
	// chatHistoryLangchain is langchaingo's memory.NewChatMessageHistory(),
	// which has no search of its own: the README's snippet.
	chatHistoryLangchain = "langchaingo"
)

// chatVariant is how a replay departs from the dataset and the defaults.
type chatVariant struct {
	history   string // chatHistoryDefault or chatHistoryLangchain
	talkative bool   // every reply gets talkativeTail
}

type chatVariantKey struct{}

// withChatVariant returns ctx carrying v for replayChat (the chats mode's
// functions pass ctx through; the variant rides on it so that they keep
// their signatures).
func withChatVariant(ctx context.Context, v chatVariant) context.Context {
	return context.WithValue(ctx, chatVariantKey{}, v)
}

// chatVariantOf returns the variant ctx carries (the zero variant: the
// dataset as it is, the default history).
func chatVariantOf(ctx context.Context) chatVariant {
	v, _ := ctx.Value(chatVariantKey{}).(chatVariant)
	return v
}

// checkChatHistory validates -chathistory.
func checkChatHistory(h string) error {
	if h != chatHistoryDefault && h != chatHistoryLangchain {
		return fmt.Errorf("-chathistory: %q is neither %s nor %s", h, chatHistoryDefault, chatHistoryLangchain)
	}
	return nil
}

// memoryOptions returns the options of one replay's Memory for the
// variant: a new langchaingo history per conversation with
// chatHistoryLangchain.
func (v chatVariant) memoryOptions() []memory.Option {
	if v.history == chatHistoryLangchain {
		return []memory.Option{memory.WithChatHistory(lcmemory.NewChatMessageHistory())}
	}
	return nil
}

// reply returns the output turn i of a replay saves: the dataset's, or
// with talkative, the dataset's followed by a talkative paragraph of
// specific details (numbers, names, places) unrelated to the probes, as a
// model answering chains.NewConversation's prompt ("provides lots of
// specific details from its context") writes.
func (v chatVariant) reply(i int, out string) string {
	if !v.talkative {
		return out
	}
	return out + "\n" + talkativeTail(i)
}

// talkativeTail is the paragraph a talkative reply adds at turn i: the
// same template with other numbers, so that replies are near-duplicates
// of one another.
func talkativeTail(i int) string {
	seasons := []string{"spring", "summer", "autumn", "winter"}
	return fmt.Sprintf("Here are a few more thoughts (reply %d): consider the season (%s is often best), "+
		"a budget of about %d dollars, %d options to compare, a walk of %d minutes, and around %d%% of people "+
		"who tried it said they would do it again. I can also suggest %d books, %d podcasts and %d websites "+
		"with more details if you would like.", i, seasons[i%4], 100+37*(i%23), 2+i%5, 10+i%40, 60+i%35, 2+i%4, 1+i%3, 3+i%6)
}

package compact

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

func chatMsgs(lines ...string) []llms.MessageContent {
	out := make([]llms.MessageContent, len(lines))
	for i, l := range lines {
		role := llms.ChatMessageTypeHuman
		if i%2 == 1 {
			role = llms.ChatMessageTypeAI
		}
		out[i] = llms.TextParts(role, l)
	}
	return out
}

func TestConversationDigestKeepsStatedFacts(t *testing.T) {
	msgs := chatMsgs(
		"Hi, I'm Ava, a 23 year old law student from Japan.",
		"Wow, Ava, that's great!",
		"I go to the gym every other day and I love the movie Armageddon.",
		"That sounds fun.",
		"Next Friday I will fly to Bangkok for 5 days.",
		"Safe travels! Bangkok is 30°C in May.",
		"Should I book the hotel near Silom?",
		"Good question.",
	)
	rec, err := RuleSummarizer(nil).Summarize(context.Background(), SummarizeRequest{Messages: msgs, MaxTokens: 500})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(rec.Summary, "Summary of 8 earlier messages"), rec.Summary)
	for _, want := range []string{"User: Hi, I'm Ava, a 23 year old law student from Japan", "User: I go to the gym every other day",
		"User: Next Friday I will fly to Bangkok for 5 days", "AI: Bangkok is 30°C in May", "User asked: Should I book the hotel near Silom?"} {
		require.Contains(t, rec.Summary, want)
	}
	require.NotContains(t, rec.Summary, "That sounds fun", "talk without facts is left out")
	require.NotContains(t, rec.Summary, "Wow, Ava", "the AI's talk around a name is left out")
	require.Less(t, strings.Index(rec.Summary, "law student"), strings.Index(rec.Summary, "gym every other day"),
		"the line naming more per word first (Ava, 23, law, student, Japan in 12 words)")
	require.Equal(t, ModeRule, rec.Mode)
	require.Contains(t, rec.Context.Unresolved, "User asked: Should I book the hotel near Silom?")

	// Within the cap, and folding the previous digest in after the new facts.
	small, err := RuleSummarizer(nil).Summarize(context.Background(), SummarizeRequest{Messages: msgs, MaxTokens: 40,
		Count: func(s string) int { return len(strings.Fields(s)) }})
	require.NoError(t, err)
	require.LessOrEqual(t, len(strings.Fields(small.Summary)), 40)
	next, err := RuleSummarizer(nil).Summarize(context.Background(), SummarizeRequest{
		Messages: chatMsgs("My cat is called Manchu.", "Cute!"), Previous: &rec, MaxTokens: 500})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(next.Summary, "Summary of 10 earlier messages"), next.Summary)
	require.Contains(t, next.Summary, "Manchu")
	require.Contains(t, next.Summary, "Bangkok for 5 days")
	require.Less(t, strings.Index(next.Summary, "Manchu"), strings.Index(next.Summary, "Bangkok"))
}

// TestConversationDigestKeepsTheSpecific: at a cap of a few lines, the
// digest keeps the lines that name something said once (whether new or an
// earlier digest's) over talk made of words every turn uses, even when the
// talk is newer.
func TestConversationDigestKeepsTheSpecific(t *testing.T) {
	first, err := RuleSummarizer(nil).Summarize(context.Background(), SummarizeRequest{MaxTokens: 500, Messages: chatMsgs(
		"We watched Armageddon at the Shinjuku cinema.", "Nice!",
		"I will think about it and let you know later.", "Sure.")})
	require.NoError(t, err)
	var talk []string
	for i := range 12 {
		talk = append(talk, fmt.Sprintf("I think I will try that later, I really like it %d", i), "OK.")
	}
	next, err := RuleSummarizer(nil).Summarize(context.Background(), SummarizeRequest{Previous: &first, Messages: chatMsgs(talk...),
		MaxTokens: 30, Count: func(s string) int { return len(strings.Fields(s)) }})
	require.NoError(t, err)
	require.Contains(t, next.Summary, "Armageddon at the Shinjuku cinema", "the earlier digest's specific line outranks newer talk")
	require.NotContains(t, next.Summary, "let you know later")
	require.LessOrEqual(t, len(strings.Fields(next.Summary)), 30)
}

func TestRankBySpecificity(t *testing.T) {
	lines := []string{"User: okay I will try it later", "User asked: where is Nagano?", "AI: Nagano has snow in March",
		"User: my sister Marisol works in Valparaiso", "User: I will try it"}
	got := append([]string(nil), lines...)
	rankBySpecificity(got)
	require.Equal(t, []string{"User: my sister Marisol works in Valparaiso", "User: okay I will try it later", "User: I will try it",
		"AI: Nagano has snow in March", "User asked: where is Nagano?"}, got, "groups in order; in a group, specific first")
}

func TestConversationDigestOnlyForPlainTurns(t *testing.T) {
	call := llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: "c1", Type: "function",
		FunctionCall: &llms.FunctionCall{Name: "read_file", Arguments: `{"path":"a.go"}`}}}}
	_, ok := conversationDigest(SummarizeRequest{Messages: append(chatMsgs("Read a.go please, Ava."), call)})
	require.False(t, ok)
	_, ok = conversationDigest(SummarizeRequest{})
	require.False(t, ok)
}

// TestConversationDigestKeepsToolChain: plain turns dropped after a tool
// digest (an agent run's thoughts without a call) are folded by the tool
// digest, so the earlier digest's file index survives; after a
// conversation digest, or with none, the conversation digest serves.
func TestConversationDigestKeepsToolChain(t *testing.T) {
	turns := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Alice moved to Lisbon in May 2021."),
		llms.TextParts(llms.ChatMessageTypeAI, "Noted: Lisbon since May 2021."),
	}
	tool := &SummaryRecord{Summary: "Summary of 12 earlier messages (3 tool calls).\nFiles read: pkg/a.go", Mode: ModeRule}
	if _, ok := conversationDigest(SummarizeRequest{Messages: turns, Previous: tool, MaxTokens: 500}); ok {
		t.Fatal("a conversation digest folded a tool digest in")
	}
	chat, ok := conversationDigest(SummarizeRequest{Messages: turns, MaxTokens: 500})
	if !ok {
		t.Fatal("plain turns with no previous record: no conversation digest")
	}
	if _, ok := conversationDigest(SummarizeRequest{Messages: turns, Previous: &chat, MaxTokens: 500}); !ok {
		t.Fatalf("a conversation digest did not fold the previous one: %q", chat.Summary)
	}
}

// TestConversationDigestUserFirst: what the user stated leads, a long
// reply keeps only what the AI decided or promised, and replies of one
// template with other numbers collapse to one line.
func TestConversationDigestUserFirst(t *testing.T) {
	var lines []string
	lines = append(lines, "My employee number is E-48213 and my dog is called Pixel.", "Noted, thank you.")
	for i := range 12 {
		lines = append(lines, fmt.Sprintf("Tell me more, part %d.", i),
			fmt.Sprintf("Here are a few thoughts (reply %d): a budget of %d dollars. The walk takes %d minutes. "+
				"There are %d stops. I will book the table for %d people on Friday.", i, 100+i, 10+i, 2+i, 2+i%3))
	}
	rec, err := RuleSummarizer(nil).Summarize(context.Background(), SummarizeRequest{Messages: chatMsgs(lines...), MaxTokens: 500})
	require.NoError(t, err)
	user, ai := strings.Index(rec.Summary, "- User: My employee number is E-48213"), strings.Index(rec.Summary, "- AI: ")
	require.True(t, user >= 0 && ai > user, "the user's statement before the AI's: %s", rec.Summary)
	require.NotContains(t, rec.Summary, "a budget of", "a long reply keeps what it decided or promised only")
	require.Equal(t, 1, strings.Count(rec.Summary, "I will book the table"), "near-duplicates collapse: %s", rec.Summary)
	require.Contains(t, rec.Summary, "for 4 people on Friday", "the most recent of them stays")
}

package memory

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	lcmemory "github.com/tmc/langchaingo/memory"
)

// talkativeModel answers as a model does with the conversation chain's
// template ("provides lots of specific details from its context"): long
// replies of one template full of numbers, different at every call.
type talkativeModel struct{ n int }

func (m *talkativeModel) GenerateContent(_ context.Context, _ []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	m.n++
	i := m.n
	reply := fmt.Sprintf("Here are a few thoughts (reply %d): consider the season, since around %d%% of visitors come in %d months. "+
		"A budget of about %d dollars covers %d nights, %d meals and %d museum tickets. "+
		"The walk takes %d minutes over %d kilometres, with %d stops on the way. "+
		"I can also suggest %d books and %d podcasts, and %d websites with more details.",
		i, 40+i%50, 2+i%9, 100+37*i, 2+i%6, 5+i%11, 1+i%4, 10+i%45, 2+i%7, 3+i%5, 2+i%4, 1+i%3, 3+i%6)
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: reply}}}, nil
}

func (m *talkativeModel) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, options...)
}

// TestDigestKeepsWhatTheUserSaidAmongTalkativeReplies: through a real
// conversation chain over langchaingo's chat history, with talkative
// replies, the summary that stands for the early turns keeps the facts the
// user stated in them (name, birth date, employee number, dog), ahead of
// the replies' numbers, which it holds at most once in near-duplicates.
func TestDigestKeepsWhatTheUserSaidAmongTalkativeReplies(t *testing.T) {
	ctx := context.Background()
	c := testCompactor(t, 4000)
	mem := New(c, WithChatHistory(lcmemory.NewChatMessageHistory()))
	chain := chains.NewConversation(&talkativeModel{}, mem)
	facts := []string{
		"Hello there, I need help planning a trip.", // the first input stays verbatim (the task)
		"By the way, my name is Ana Lindqvist and I work at the harbour office in Gothenburg.",
		"I was born on 14 March 1987, so my birthday is coming up soon.",
		"My employee number is E-48213, in case the booking needs it.",
		"My dog is a border collie called Pixel, and she comes with me everywhere.",
	}
	for _, f := range facts {
		_, err := chains.Run(ctx, chain, f)
		require.NoError(t, err)
	}
	for i := range 120 {
		_, err := chains.Run(ctx, chain, fmt.Sprintf("What else should I think about for the trip, part %d?", i))
		require.NoError(t, err)
	}
	sums, err := mem.Summaries(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, sums, "the conversation was compacted")
	last := sums[len(sums)-1].Summary
	for _, want := range []string{"Ana Lindqvist", "14 March 1987", "E-48213", "Pixel"} {
		require.Contains(t, last, want, "the user's stated fact, in the digest:\n%s", last)
	}
	require.Less(t, strings.Count(last, "Here are a few thoughts"), 2, "near-duplicate replies collapse:\n%s", last)
	v, err := mem.LoadMemoryVariables(ctx, map[string]any{"input": "Let's keep chatting."})
	require.NoError(t, err)
	require.Contains(t, v["history"], "E-48213", "what the chain sends keeps it")
}

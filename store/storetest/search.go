package storetest

import (
	"context"
	"testing"

	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// RunSearch runs the conformance tests of a history that implements
// [store.Searcher] as subtests of t: positions, ranking, limits, epochs,
// and queries full of the operator characters of FTS5, tsquery and SQL
// (& | ! : * ( ) ' " % _), which are literal and never an error. history
// returns a new, empty history each time it is called.
func RunSearch(t *testing.T, history func(t *testing.T) store.IncrementalHistory) {
	t.Helper()
	ctx := context.Background()
	msgs := []llms.ChatMessage{
		llms.HumanChatMessage{Content: "Hello, I am Ava, a law student from Japan."},
		llms.AIChatMessage{Content: "Nice to meet you, Ava! What do you like to do?"},
		llms.HumanChatMessage{Content: "I climbed Mount Fuji last summer; the sunrise was the best part."},
		llms.AIChatMessage{Content: "Wow, Mount Fuji at sunrise sounds amazing."},
		llms.HumanChatMessage{Content: "100% of my_friends say 50_50 odds & it's 'fine' (really): *yes*!"},
	}
	// Messages without the words searched for, so that every word above is
	// rare enough for any BM25 variant to rank by it.
	for _, f := range []string{"Let's talk about music.", "I listen to jazz.", "Do you cook?", "Not often.", "Movies then?", "Sure, comedies."} {
		msgs = append(msgs, llms.HumanChatMessage{Content: f})
	}
	open := func(t *testing.T) store.Searcher {
		h := history(t)
		s, ok := h.(store.Searcher)
		require.True(t, ok, "the history implements store.Searcher")
		require.NoError(t, h.AddMessages(ctx, msgs))
		return s
	}
	t.Run("Positions", func(t *testing.T) {
		s := open(t)
		hits, err := s.Search(ctx, "what was the sunrise like on Fuji?", 10)
		require.NoError(t, err)
		require.NotEmpty(t, hits)
		require.Contains(t, []int{2, 3}, hits[0].Pos, "a message with both rare words ranks first")
		for _, h := range hits {
			require.Contains(t, []int{1, 2, 3}, h.Pos)
		}
	})
	t.Run("Limit", func(t *testing.T) {
		s := open(t)
		hits, err := s.Search(ctx, "Ava Fuji sunrise", 1)
		require.NoError(t, err)
		require.Len(t, hits, 1)
		hits, err = s.Search(ctx, "Ava", 0)
		require.NoError(t, err)
		require.Empty(t, hits)
	})
	t.Run("NoWords", func(t *testing.T) {
		s := open(t)
		for _, q := range []string{"", "   ", `&|!:*()'"%_`, "the of and"} {
			hits, err := s.Search(ctx, q, 10)
			require.NoError(t, err, "%q", q)
			require.Empty(t, hits, "%q", q)
		}
	})
	t.Run("OperatorsAreLiteral", func(t *testing.T) {
		s := open(t)
		for _, q := range []string{`fuji* AND (mount) | !"sunrise" 'x':*`, `%fuji%`, `fuji_`, `50_50`, `100%`, `it's`, `NEAR(fuji sunrise)`, `fuji OR`, `"`, `'`, `\`} {
			_, err := s.Search(ctx, q, 10)
			require.NoError(t, err, "%q", q)
		}
		hits, err := s.Search(ctx, `%fuji%`, 10)
		require.NoError(t, err)
		require.NotEmpty(t, hits)
		hits, err = s.Search(ctx, `my_friends`, 10)
		require.NoError(t, err)
		require.NotEmpty(t, hits, "words around an underscore are found")
		require.Equal(t, 4, hits[0].Pos)
	})
	t.Run("Epoch", func(t *testing.T) {
		h := history(t)
		require.NoError(t, h.AddMessages(ctx, msgs))
		require.NoError(t, h.SetMessages(ctx, []llms.ChatMessage{llms.HumanChatMessage{Content: "Only Kyoto now."}}))
		s := h.(store.Searcher)
		hits, err := s.Search(ctx, "Fuji", 10)
		require.NoError(t, err)
		require.Empty(t, hits, "replaced messages are not found")
		hits, err = s.Search(ctx, "Kyoto", 10)
		require.NoError(t, err)
		require.Equal(t, []int{0}, positions(hits))
		require.NoError(t, h.AddMessages(ctx, []llms.ChatMessage{llms.AIChatMessage{Content: "Kyoto in autumn!"}}))
		hits, err = s.Search(ctx, "Kyoto", 10)
		require.NoError(t, err)
		require.ElementsMatch(t, []int{0, 1}, positions(hits), "appended messages are found")
	})
	t.Run("Cancelled", func(t *testing.T) {
		s := open(t)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := s.Search(cctx, "Fuji", 10)
		require.ErrorIs(t, err, context.Canceled)
	})
}

func positions(hits []store.Hit) []int {
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = h.Pos
	}
	return out
}

// RunSearchStems checks what store.Searcher promises of a history that
// compares English stems (every history of this module, PostgreSQL's with
// its default search language): a query word finds its inflections.
// history returns a new, empty history each time it is called.
func RunSearchStems(t *testing.T, history func(t *testing.T) store.IncrementalHistory) {
	t.Helper()
	ctx := context.Background()
	h := history(t)
	s, ok := h.(store.Searcher)
	require.True(t, ok, "the history implements store.Searcher")
	require.NoError(t, h.AddMessages(ctx, []llms.ChatMessage{
		llms.HumanChatMessage{Content: "Let's talk about music."},
		llms.HumanChatMessage{Content: "I climbed Mount Fuji last summer; the sunrise was the best part."},
		llms.AIChatMessage{Content: "Which subject did you enjoy studying?"},
		llms.HumanChatMessage{Content: "Do you cook?"},
	}))
	for q, want := range map[string]int{"climbing sunrises": 1, "subjects studied": 2} {
		hits, err := s.Search(ctx, q, 10)
		require.NoError(t, err, q)
		require.NotEmpty(t, hits, "%q finds its inflections", q)
		require.Equal(t, want, hits[0].Pos, q)
	}
}

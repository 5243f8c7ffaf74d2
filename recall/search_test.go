package recall_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
)

// putTexts stores texts as bash outputs of session "s" under refs
// r0000001, r0000002, ...
func putTexts(t *testing.T, texts ...string) *store.Memory {
	t.Helper()
	st := store.NewMemory()
	var list []store.Original
	for i, txt := range texts {
		list = append(list, store.Original{Ref: fmt.Sprintf("r%07d", i+1), Role: llms.ChatMessageTypeTool, Name: "bash", Text: txt})
	}
	require.NoError(t, st.PutOriginals(context.Background(), "s", list))
	return st
}

// TestSearchRanking: all words above some, the phrase above scattered
// words, fewer lines, then the order found.
func TestSearchRanking(t *testing.T) {
	ten := "1\n2\n3\n4\nthe Alpha Beta here\n6\n7\n8\n9\n10"
	st := putTexts(t,
		"alpha only here\nline 2",      // r1: one word
		"alpha\nsome\nbeta",            // r2: both words, scattered
		ten,                            // r3: the phrase, 10 lines
		"x\nalpha beta",                // r4: the phrase, 2 lines
		"beta only\nline 2",            // r5: one word, found by the second word
		"gamma",                        // r6: neither
		"ALPHA BETA\nalpha beta again", // r7: the phrase, 2 lines, stored after r4
	)
	tool := toolFor(st, "s")
	out := call(t, tool, "alpha BETA")
	assert.Equal(t, []string{"r0000004", "r0000007", "r0000003", "r0000002", "r0000001", "r0000005"}, refsOf(out), out)
	assert.True(t, strings.HasPrefix(out, `search for "alpha BETA": 6 of 6 matching originals, best first:`+"\n"), out)
	// Snippets: the best line (the phrase) with a line of context.
	assert.Contains(t, out, "\nref:r0000003 lines 4-6 of 10 (tool bash):\n4: 4\n5: the Alpha Beta here\n6: 6\n")
	assert.Contains(t, out, "\nref:r0000007 lines 1-2 of 2 (tool bash):\n1: ALPHA BETA\n2: alpha beta again\n")
	assert.Contains(t, out, "\nref:r0000002 lines 1-2 of 3 (tool bash); also matching lines 3:\n1: alpha\n2: some\n")
	// One word: fewer lines first, then stored order.
	assert.Equal(t, []string{"r0000004", "r0000005", "r0000007", "r0000002", "r0000003"}, refsOf(call(t, tool, "beta")))
}

// TestSearchSnippets: other matching lines are listed, long lines are cut
// around their match.
func TestSearchSnippets(t *testing.T) {
	var many []string
	for i := 1; i <= 20; i++ {
		many = append(many, fmt.Sprintf("row %d needle", i))
	}
	long := strings.Repeat("a", 5000) + " needle " + strings.Repeat("b", 5000)
	st := putTexts(t, strings.Join(many, "\n"), "first\n"+long+"\nlast")
	out := call(t, toolFor(st, "s"), "needle")
	assert.Regexp(t, `\nref:r0000002 lines 1-3 of 3 \(tool bash\):\n1: first\n2: …a{60,70} needle b{120,130}…\n3: last`, out)
	assert.Contains(t, out, "\nref:r0000001 lines 1-2 of 20 (tool bash); also matching lines 3, 4, 5, 6, 7 (+13 more):\n1: row 1 needle\n2: row 2 needle")
}

// TestSearchBounds: the cap, the more line, the search limit, long and
// wordy queries.
func TestSearchBounds(t *testing.T) {
	var texts []string
	for i := 0; i < 30; i++ {
		texts = append(texts, fmt.Sprintf("needle %d\nsecond line of %d\nthird", i, i))
	}
	st := putTexts(t, texts...)

	t.Run("cap", func(t *testing.T) {
		out := call(t, toolFor(st, "s", recall.WithMaxTokens(recall.MinMaxTokens)), "needle")
		assert.LessOrEqual(t, budget.EstimateTokens(out), recall.MinMaxTokens)
		shown := refsOf(out)
		require.NotEmpty(t, shown)
		assert.True(t, strings.HasPrefix(out, fmt.Sprintf(`search for "needle": %d of 30 matching originals, best first:`, len(shown))), out)
		last := out[strings.LastIndexByte(out, '\n')+1:]
		assert.Regexp(t, fmt.Sprintf(`^\.\.\. %d more matching originals: ref:r%07d, `, 30-len(shown), len(shown)+1), last)
		assert.Contains(t, last, fmt.Sprintf(", +%d more; ", 30-len(shown)-10))
		assert.True(t, strings.HasSuffix(last, `; call recall with "ref:ID" for one, or search with more words`), last)
	})
	t.Run("search limit", func(t *testing.T) {
		out := call(t, toolFor(st, "s", recall.WithSearchLimit(5)), "needle")
		assert.True(t, strings.HasPrefix(out, `search for "needle": 5 of 5+ matching originals, best first:`), out)
		assert.True(t, strings.HasSuffix(out, "\n... more originals may match than were read; search with more words to narrow"), out)
		out = call(t, toolFor(st, "s", recall.WithSearchLimit(20), recall.WithMaxTokens(recall.MinMaxTokens)), "needle")
		assert.Contains(t, out, "more matching originals (or more): ref:")
	})
	t.Run("long query", func(t *testing.T) {
		out := call(t, toolFor(st, "s"), strings.Repeat("x", 300))
		assert.Contains(t, out, `matches "`+strings.Repeat("x", 77)+`…"`)
		out = call(t, toolFor(st, "s"), "needle "+strings.Repeat("y", 300))
		assert.Contains(t, out, "\n(the query was cut to its first 200 bytes)\n", out)
		assert.Contains(t, out, `search for "needle `+strings.Repeat("y", 190)+`…": `)
	})
	t.Run("many words", func(t *testing.T) {
		out := call(t, toolFor(st, "s"), "needle a b c d e f g h i j")
		assert.Contains(t, out, "\n(only its first 8 distinct words were searched)\n", out)
	})
}

// TestSearchIsLiteral: the query is data; no character of it is special.
func TestSearchIsLiteral(t *testing.T) {
	st := putTexts(t, "axxb 100 percent_done", "a.*b here", "100% done", "[a-z]+ (x|y) ^$ \\d")
	tool := toolFor(st, "s")
	for q, want := range map[string][]string{
		"a.*b":          {"r0000002"},
		"100%":          {"r0000003"},
		"t_d":           {"r0000001"},
		"%_":            nil,
		"[a-z]+":        {"r0000004"},
		"(x|y)":         {"r0000004"},
		`^$ \d`:         {"r0000004"},
		"'; DROP TABLE": nil,
	} {
		assert.Equal(t, want, refsOf(call(t, tool, q)), q)
	}
}

// TestSearchSkipsRecallAnswers: an original that is a recall answer (a
// compacted recall result) is not a hit; the original it repeats is.
func TestSearchSkipsRecallAnswers(t *testing.T) {
	st := putTexts(t, "needle in a haystack")
	tool := toolFor(st, "s")
	page := call(t, tool, "ref:r0000001")
	found := call(t, tool, "needle")
	require.NoError(t, st.PutOriginals(context.Background(), "s", []store.Original{
		{Ref: "answer01", Role: llms.ChatMessageTypeTool, Name: "recall", Text: page},
		{Ref: "answer02", Role: llms.ChatMessageTypeTool, Text: found},
	}))
	assert.Equal(t, []string{"r0000001"}, refsOf(call(t, tool, "needle")))
	// They can still be recalled by their refs.
	assert.Contains(t, call(t, tool, "ref:answer01"), "1: ref:r0000001 lines 1-1 of 1 (tool bash):")
}

// duplicatingSource returns every original twice, and an original that
// does not match, as a careless source might.
type duplicatingSource struct{ recall.Source }

func (s duplicatingSource) Search(ctx context.Context, q string, limit int) ([]store.Original, error) {
	list, err := s.Source.Search(ctx, q, limit)
	out := append(append([]store.Original{{Ref: "nomatch1", Text: "unrelated"}, {Ref: "bad ref", Text: q}}, list...), list...)
	return out, err
}

func TestSearchCarelessSource(t *testing.T) {
	st := putTexts(t, "needle one", "needle two")
	tool := recall.New(resolverOf(duplicatingSource{recall.StoreSource(st, "s")}, nil))
	assert.Equal(t, []string{"r0000001", "r0000002"}, refsOf(call(t, tool, "needle")))
}

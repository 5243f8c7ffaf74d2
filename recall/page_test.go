package recall_test

import (
	"context"
	"fmt"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
)

var (
	pageHeaderRE = regexp.MustCompile(`^ref:([A-Za-z0-9_.-]+) lines (\d+)-(\d+) of (\d+) \((.*)\):$`)
	nextPageRE   = regexp.MustCompile(`^\.\.\. (\d+) more lines?: call recall with "(ref:[A-Za-z0-9_.-]+ lines (\d+)-(\d+))" for more$`)
)

// page is one parsed page answer.
type page struct {
	from, last, n int
	lines         []string // unnumbered
	next          string   // the next page's input, "" on the last page
	nextFrom      int
}

// parsePage parses a page answer and checks its numbering.
func parsePage(t *testing.T, answer string) page {
	t.Helper()
	ls := strings.Split(answer, "\n")
	m := pageHeaderRE.FindStringSubmatch(ls[0])
	require.NotNil(t, m, "header of %q", answer)
	p := page{from: atoi(m[2]), last: atoi(m[3]), n: atoi(m[4])}
	body := ls[1:]
	if p.last < p.n {
		require.NotEmpty(t, body)
		f := nextPageRE.FindStringSubmatch(body[len(body)-1])
		require.NotNil(t, f, "a page that stops at line %d of %d ends with the next-page line: %q", p.last, p.n, body[len(body)-1])
		assert.Equal(t, p.n-p.last, atoi(f[1]))
		p.next, p.nextFrom = f[2], atoi(f[3])
		body = body[:len(body)-1]
	}
	require.Len(t, body, p.last-p.from+1, "one numbered line per line of the range")
	for i, l := range body {
		num := strconv.Itoa(p.from+i) + ": "
		require.True(t, strings.HasPrefix(l, num), "line %q is numbered %s", l, num)
		p.lines = append(p.lines, l[len(num):])
	}
	return p
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

// randomText returns n lines of up to maxLen bytes of words, some blank,
// some with tabs and non-ASCII letters.
func randomText(r *rand.Rand, n, maxLen int) string {
	words := []string{"func", "return", "x", "é", "日本", "\t", "if err != nil {", "}", "0x1f", "a_b", "ValueError", "//", "\"s\""}
	var b strings.Builder
	for i := 0; i < n; i++ {
		var l strings.Builder
		for l.Len() < r.Intn(maxLen+1) {
			w := words[r.Intn(len(words))]
			if l.Len()+len(w)+1 > maxLen {
				break
			}
			l.WriteString(w + " ")
		}
		b.WriteString(l.String())
		if i < n-1 || r.Intn(2) == 0 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// TestPaging follows the next-page lines from the first page to the last:
// the pages cover the original exactly, in order, each within the cap.
func TestPaging(t *testing.T) {
	o200k, err := budget.NewCounter("gpt-4o")
	require.NoError(t, err)
	counters := map[string]budget.Counter{
		"estimate": nil,
		"o200k":    o200k,
		"bytes":    budget.CounterFunc(func(s string) int { return len(s) }),
	}
	r := rand.New(rand.NewSource(1))
	text := randomText(r, 1000, 200)
	st := store.NewMemory()
	require.NoError(t, st.PutOriginals(context.Background(), "s", []store.Original{{Ref: "big12345", Role: llms.ChatMessageTypeTool, Name: "cat", Text: text}}))
	want := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for name, c := range counters {
		for _, maxTokens := range []int{recall.MinMaxTokens, 700, recall.DefaultMaxTokens} {
			if name == "bytes" && maxTokens < 700 {
				continue // a 200-byte line and the header do not fit 256 bytes
			}
			t.Run(fmt.Sprintf("%s/%d", name, maxTokens), func(t *testing.T) {
				count := budget.EstimateTokens
				if c != nil {
					count = c.Count
				}
				tool := toolFor(st, "s", recall.WithMaxTokens(maxTokens), recall.WithCounter(c))
				var got []string
				input := "ref:big12345"
				pages := 0
				for input != "" {
					pages++
					require.LessOrEqual(t, pages, len(want), "paging moves on")
					answer := call(t, tool, input)
					assert.LessOrEqual(t, count(answer), maxTokens, "page %d within the cap", pages)
					p := parsePage(t, answer)
					assert.Equal(t, len(want), p.n)
					assert.Equal(t, len(got)+1, p.from, "pages in order, without a gap")
					got = append(got, p.lines...)
					if p.next != "" {
						assert.Equal(t, p.last+1, p.nextFrom)
					}
					input = p.next
				}
				assert.Equal(t, want, got, "the pages cover the original exactly")
				assert.Greater(t, pages, 1)
			})
		}
	}
}

// TestPagingExplicitRange: a range asked for is paged within itself, and
// the next-page line goes on past it.
func TestPagingExplicitRange(t *testing.T) {
	tool := toolFor(newFixture(t), sessionA, recall.WithMaxTokens(recall.MinMaxTokens))
	p := parsePage(t, call(t, tool, "ref:k3f2a9qx lines 100-200"))
	assert.Equal(t, 100, p.from)
	assert.Less(t, p.last, 200)
	assert.Equal(t, "func helper100(x int) int { return x * 100 }", p.lines[0])
	assert.Equal(t, fmt.Sprintf("ref:k3f2a9qx lines %d-%d", p.last+1, p.last+1+p.last-100), p.next)
	// The whole range when it fits.
	p = parsePage(t, call(t, toolFor(newFixture(t), sessionA), "ref:k3f2a9qx lines 100-120"))
	assert.Equal(t, []int{100, 120}, []int{p.from, p.last})
	assert.Equal(t, "ref:k3f2a9qx lines 121-141", p.next)
}

// TestLongLine: a line longer than the cap is cut with a marker, alone on
// its page, and the next page starts after it.
func TestLongLine(t *testing.T) {
	long := strings.Repeat("0123456789abcdef ", 6000) // 102,000 bytes
	st := store.NewMemory()
	ctx := context.Background()
	require.NoError(t, st.PutOriginals(ctx, "s", []store.Original{
		{Ref: "long1234", Role: llms.ChatMessageTypeTool, Name: "bash", Text: "short\n" + long + "\nafter\n"},
		{Ref: "only1234", Role: llms.ChatMessageTypeTool, Name: "bash", Text: strings.Repeat("é", 1<<19)},
	}))
	for _, maxTokens := range []int{recall.MinMaxTokens, recall.DefaultMaxTokens} {
		tool := toolFor(st, "s", recall.WithMaxTokens(maxTokens))
		first := parsePage(t, call(t, tool, "ref:long1234"))
		assert.Equal(t, []string{"short"}, first.lines, "the long line goes to its own page")
		assert.Equal(t, "ref:long1234 lines 2-2", first.next)

		answer := call(t, tool, first.next)
		assert.LessOrEqual(t, budget.EstimateTokens(answer), maxTokens)
		p := parsePage(t, answer)
		require.Len(t, p.lines, 1)
		m := regexp.MustCompile(`^(.*) \[… recall: line 2 cut here, (\d+) of its 102000 bytes not shown …\]$`).FindStringSubmatch(p.lines[0])
		require.NotNil(t, m, "cut with a marker: %.200q", p.lines[0])
		assert.True(t, strings.HasPrefix(long, m[1]))
		assert.Equal(t, len(long), len(m[1])+atoi(m[2]), "the marker counts what is not shown")
		assert.Equal(t, "ref:long1234 lines 3-3", p.next)
		assert.Equal(t, []string{"after"}, parsePage(t, call(t, tool, p.next)).lines)

		// A one-line original: one page, cut, and no next page.
		answer = call(t, tool, "ref:only1234")
		assert.LessOrEqual(t, budget.EstimateTokens(answer), maxTokens)
		p = parsePage(t, answer)
		assert.Empty(t, p.next)
		assert.Contains(t, p.lines[0], "[… recall: line 1 cut here, ")
	}
}

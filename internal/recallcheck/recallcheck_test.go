package recallcheck

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// toolOver returns the caller of a recall tool (cap 256 tokens, so that
// originals page) over a memory store holding originals, by ref.
func toolOver(t *testing.T, originals map[string]string) Caller {
	t.Helper()
	s := store.NewMemory()
	for ref, text := range originals {
		require.NoError(t, s.PutOriginals(context.Background(), "s", []store.Original{{Ref: ref, Role: llms.ChatMessageTypeTool, Name: "bash", Text: text}}))
	}
	tool := recall.New(func(context.Context) (recall.Source, error) { return recall.StoreSource(s, "s"), nil }, recall.WithMaxTokens(256))
	return tool.Call
}

func numbered(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "line %d of the output: func handler%d() error { return nil }\n", i, i)
	}
	return b.String()
}

func TestByRef(t *testing.T) {
	long := numbered(200)
	originals := map[string]string{
		"short":   "one line",
		"long":    long,
		"noeol":   strings.TrimSuffix(long, "\n"),
		"blank":   "a\n\n\nb\n\n",
		"bad":     "ok\nbad \xff\xfe bytes\nend",
		"empty":   "",
		"oneline": strings.Repeat("word ", 2000),
	}
	call := toolOver(t, originals)
	ctx := context.Background()
	for _, ref := range []string{"short", "long", "noeol", "blank", "bad", "empty"} {
		pages, err := ByRef(ctx, call, ref, originals[ref])
		require.NoError(t, err, ref)
		assert.Positive(t, pages, ref)
		if ref == "long" {
			assert.Greater(t, pages, 3, "a long original pages")
		}
	}

	_, err := ByRef(ctx, call, "oneline", originals["oneline"])
	require.Error(t, err, "a line longer than a page does not come back whole")
	assert.Contains(t, err.Error(), "longer than a page")

	_, err = ByRef(ctx, call, "long", long+"more\n")
	assert.ErrorContains(t, err, "the page says 200 lines, the original has 201")
	_, err = ByRef(ctx, call, "short", "one line!")
	assert.ErrorContains(t, err, `comes back as "one line", want "one line!"`)
	_, err = ByRef(ctx, call, "missing", "x")
	assert.ErrorContains(t, err, "not a page")

	boom := errors.New("boom")
	_, err = ByRef(ctx, func(context.Context, string) (string, error) { return "", boom }, "x", "x")
	assert.ErrorIs(t, err, boom)
}

// TestByRefMalformed feeds ByRef answers that break the page format.
func TestByRefMalformed(t *testing.T) {
	ctx := context.Background()
	for name, c := range map[string]struct {
		answers []string
		want    string
	}{
		"other ref":     {[]string{"ref:zz lines 1-1 of 1 (tool):\n1: a"}, "answered with ref:zz"},
		"unnumbered":    {[]string{"ref:r lines 1-1 of 1 (tool):\na"}, "not numbered 1"},
		"short page":    {[]string{"ref:r lines 1-2 of 2 (tool):\n1: a"}, "holds 1 lines"},
		"extra":         {[]string{"ref:r lines 1-1 of 1 (tool):\n1: a\nmore"}, "goes on after line 1"},
		"no next line":  {[]string{"ref:r lines 1-1 of 2 (tool):\n1: a"}, "not the next-page line"},
		"wrong left":    {[]string{"ref:r lines 1-1 of 2 (tool):\n1: a\n... 5 more lines: call recall with \"ref:r lines 2-2\" for more"}, "says 5 more lines, 1 are left"},
		"out of order":  {[]string{"ref:r lines 1-1 of 2 (tool):\n1: a\n... 1 more lines: call recall with \"ref:r lines 2-2\" for more", "ref:r lines 1-1 of 2 (tool):\n1: a"}, "want a page from line 2"},
		"empty, not so": {[]string{"ref:r lines 0-0 of 0 (tool):\nsomething"}, "an empty original answered"},
	} {
		t.Run(name, func(t *testing.T) {
			n := 0
			call := func(context.Context, string) (string, error) {
				a := c.answers[min(n, len(c.answers)-1)]
				n++
				return a, nil
			}
			text := "a\nb"
			switch name {
			case "other ref", "unnumbered", "extra":
				text = "a"
			case "empty, not so":
				text = ""
			}
			_, err := ByRef(ctx, call, "r", text)
			assert.ErrorContains(t, err, c.want)
		})
	}
}

func TestBySearch(t *testing.T) {
	originals := map[string]string{
		"aaaa1111": "first\nTraceback: ValueError in django/db/models/query.py\nend",
		"bbbb2222": "second\nValueError elsewhere\nend",
	}
	call := toolOver(t, originals)
	ctx := context.Background()
	require.NoError(t, BySearch(ctx, call, "aaaa1111", "ValueError in django/db/models/query.py"))
	require.NoError(t, BySearch(ctx, call, "bbbb2222", "ValueError"), "named as a hit, ranked second")
	err := BySearch(ctx, call, "bbbb2222", "query.py")
	assert.ErrorContains(t, err, "does not name ref:bbbb2222")
	boom := errors.New("boom")
	assert.ErrorIs(t, BySearch(ctx, func(context.Context, string) (string, error) { return "", boom }, "x", "y"), boom)
}

func TestSearchLine(t *testing.T) {
	all := func(string) bool { return true }
	text := strings.Join([]string{
		"short",
		"  two spaces  inside here  ",
		"tab\tinside this line here",
		"ref:abcdefgh is a ref line",
		`"a quoted line of text"`,
		`{"json": "object line"}`,
		"----------------------------",
		strings.Repeat("x", 201),
		"bad utf8 \xff here in line",
		"several words in this line here",
		"django/db/models/query.py",
	}, "\n")
	l, ok := SearchLine(text, all)
	require.True(t, ok)
	assert.Equal(t, "django/db/models/query.py", l, "fewest words first")
	l, ok = SearchLine(text, func(l string) bool { return strings.Contains(l, "several") })
	require.True(t, ok)
	assert.Equal(t, "several words in this line here", l)
	_, ok = SearchLine(text, func(string) bool { return false })
	assert.False(t, ok)

	tries := 0
	_, ok = SearchLine(numbered(100), func(string) bool { tries++; return false })
	assert.False(t, ok)
	assert.Equal(t, maxLineTries, tries, "unique is asked a bounded number of times")
}

func TestLinesAndClip(t *testing.T) {
	assert.Nil(t, Lines(""))
	assert.Equal(t, []string{"a", ""}, Lines("a\n\n"))
	assert.Equal(t, []string{"a", "b"}, Lines("a\nb"))
	assert.Equal(t, []string{"\uFFFD"}, Lines("\xff\n"))
	assert.Equal(t, "abc", Clip("abc", 5))
	assert.Equal(t, "ab…", Clip("abcdef", 2))
	assert.Equal(t, "…", Clip("éé", 1), "cut at a rune boundary")
}

package storetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/agentcompact/compact/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// RunOriginals runs the conformance tests of a [store.OriginalStore] as
// subtests of t. open is called once per subtest, as in Run.
func RunOriginals(t *testing.T, open func(t *testing.T) store.OriginalStore) {
	t.Helper()
	runChecks(t, open, []check[store.OriginalStore]{
		{"RoundTrip", originalsRoundTrip},
		{"Idempotent", originalsIdempotent},
		{"NotFound", originalsNotFound},
		{"InvalidRef", originalsInvalidRef},
		{"Search", originalsSearch},
		{"SearchLimits", originalsSearchLimits},
		{"Isolation", originalsIsolation},
		{"ConcurrentPuts", originalsConcurrent},
		{"Cancelled", originalsCancelled},
		{"Large", originalsLarge},
		{"InvalidUTF8", originalsInvalidUTF8},
	})
}

func original(ref, text string) store.Original {
	return store.Original{Ref: ref, MessageID: "m-" + ref, Role: llms.ChatMessageTypeTool, Name: "read_file", Text: text}
}

func put(t *testing.T, s store.OriginalStore, sid string, list ...store.Original) {
	t.Helper()
	require.NoError(t, s.PutOriginals(context.Background(), sid, list))
}

func requireOriginal(t *testing.T, s store.OriginalStore, sid string, want store.Original, msgAndArgs ...any) {
	t.Helper()
	got, err := s.Original(context.Background(), sid, want.Ref)
	require.NoError(t, err, msgAndArgs...)
	require.Equal(t, want, got, msgAndArgs...)
}

func requireNotFound(t *testing.T, s store.OriginalStore, sid, ref string, msgAndArgs ...any) {
	t.Helper()
	_, err := s.Original(context.Background(), sid, ref)
	require.ErrorIs(t, err, store.ErrNotFound, msgAndArgs...)
}

// search returns the refs SearchOriginals finds.
func search(t *testing.T, s store.OriginalStore, sid, query string, limit int) []string {
	t.Helper()
	got, err := s.SearchOriginals(context.Background(), sid, query, limit)
	require.NoError(t, err, "search %q", query)
	refs := make([]string, 0, len(got))
	for _, o := range got {
		refs = append(refs, o.Ref)
	}
	return refs
}

func originalsRoundTrip(t *testing.T, s store.OriginalStore) {
	sid := id(t, "round-trip")
	a := store.Original{Ref: "m3f2a9", MessageID: "0123456789abcdef", Role: llms.ChatMessageTypeTool, Name: "read_file",
		Text: "package main\n\nfunc main() {}\n"}
	b := store.Original{Ref: "A-z_0.9", Role: llms.ChatMessageTypeHuman, Text: "the task"}
	c := store.Original{Ref: "empty", Role: llms.ChatMessageTypeAI}
	put(t, s, sid, a, b)
	put(t, s, sid, c)
	put(t, s, sid)
	for _, o := range []store.Original{a, b, c} {
		requireOriginal(t, s, sid, o, "every field comes back")
	}
	got, err := s.SearchOriginals(context.Background(), sid, "main", 10)
	require.NoError(t, err)
	require.Equal(t, []store.Original{a}, got, "a search returns whole originals")
	for i := range got {
		got[i].Text = "changed"
	}
	requireOriginal(t, s, sid, a, "a search returns copies")
}

func originalsIdempotent(t *testing.T, s store.OriginalStore) {
	sid := id(t, "idempotent")
	first := original("r1", "first text")
	put(t, s, sid, first, original("r2", "second text"))
	put(t, s, sid, original("r1", "overwritten"))
	requireOriginal(t, s, sid, first, "a ref keeps its first text")
	put(t, s, sid, original("r3", "third text"), original("r3", "third again"), original("r1", "again"), original("r0", "zeroth text"))
	requireOriginal(t, s, sid, original("r3", "third text"), "within one call too")
	requireOriginal(t, s, sid, first)
	require.Equal(t, []string{"r1", "r2", "r3", "r0"}, search(t, s, sid, "text", 10),
		"insertion order; a put again does not move an original")
	require.Empty(t, search(t, s, sid, "again", 10), "a text put again is not stored")
	require.Empty(t, search(t, s, sid, "overwritten", 10))
}

func originalsNotFound(t *testing.T, s store.OriginalStore) {
	sids := ids(t, "one", "other")
	put(t, s, sids[0], original("r1", "text"))
	requireNotFound(t, s, sids[0], "r2")
	requireNotFound(t, s, sids[0], "R1", "refs are case-sensitive")
	requireNotFound(t, s, sids[0], "r")
	requireNotFound(t, s, sids[1], "r1", "another session's original is not found")
	for _, bad := range []string{"", "r1 ", "ref:r1", "r%", "r_", "r1'--", "../r1", "r\x00"} {
		requireNotFound(t, s, sids[0], bad, "an invalid ref %q is not found", bad)
	}
}

func originalsInvalidRef(t *testing.T, s store.OriginalStore) {
	ctx := context.Background()
	sid := id(t, "invalid-ref")
	for _, bad := range []string{"", "a b", "ref:x", "x/y", "x%", "é", "x\n", "x'"} {
		err := s.PutOriginals(ctx, sid, []store.Original{original("good", "kept?"), original(bad, "bad")})
		require.Error(t, err, "ref %q", bad)
		requireNotFound(t, s, sid, "good", "a call with an invalid ref (%q) stores nothing", bad)
	}
	require.True(t, store.ValidRef("A-z_0.9"))
	require.False(t, store.ValidRef("a b"))
}

func originalsSearch(t *testing.T, s store.OriginalStore) {
	sid := id(t, "search")
	texts := []struct{ ref, text string }{
		{"z1", "Hello World"},
		{"a2", "100% done"},
		{"m3", "100 percent"},
		{"b4", "a_b"},
		{"y5", "axb"},
		{"c6", `back\slash`},
		{"x7", "regex .* here"},
		{"d8", "regex xx here"},
		{"w9", "set [abc] here"},
		{"e10", "HELLO again"},
		{"v11", "école ÉCOLE"},
		{"f12", "ΣΑΣ"},
		{"u13", "the KELVIN sign K"},
		{"g14", "it's a quote"},
		{"t15", "hello there"},
		{"h16", "line one\nline two"},
	}
	var list []store.Original
	for _, x := range texts {
		list = append(list, original(x.ref, x.text))
	}
	put(t, s, sid, list...)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"hello", []string{"z1", "e10", "t15"}},
		{"HELLO", []string{"z1", "e10", "t15"}},
		{"hElLo wOrLd", []string{"z1"}},
		{"%", []string{"a2"}},
		{"100%", []string{"a2"}},
		{"_", []string{"b4"}},
		{"a_b", []string{"b4"}},
		{`\`, []string{"c6"}},
		{`\s`, []string{"c6"}},
		{".*", []string{"x7"}},
		{"x.*", nil},
		{"[abc]", []string{"w9"}},
		{"[", []string{"w9"}},
		{"'", []string{"g14"}},
		{"' OR '1'='1", nil},
		{"%' --", nil},
		{"ÉCOLE", []string{"v11"}},
		{"École école", []string{"v11"}},
		{"σας", []string{"f12"}},
		{"ς", []string{"f12"}},
		{"kelvin sign k", []string{"u13"}},
		{"sign \u212a", []string{"u13"}},
		{"one\nline", []string{"h16"}},
		{" here", []string{"x7", "d8", "w9"}},
		{"no such text", nil},
	} {
		got := search(t, s, sid, tc.query, 100)
		if len(tc.want) == 0 {
			require.Empty(t, got, "query %q", tc.query)
		} else {
			require.Equal(t, tc.want, got, "query %q: literal, case-insensitive, in insertion order", tc.query)
		}
	}
}

func originalsSearchLimits(t *testing.T, s store.OriginalStore) {
	ctx := context.Background()
	sid := id(t, "limits")
	for i := 0; i < 30; i++ {
		put(t, s, sid, original(fmt.Sprintf("r%02d", 29-i), fmt.Sprintf("match %d", i)))
	}
	want := make([]string, 30)
	for i := range want {
		want[i] = fmt.Sprintf("r%02d", 29-i)
	}
	require.Equal(t, want, search(t, s, sid, "match", 100))
	require.Equal(t, want[:7], search(t, s, sid, "match", 7), "at most limit, the first in insertion order")
	require.Equal(t, want[:1], search(t, s, sid, "MATCH", 1))
	for _, tc := range []struct {
		query string
		limit int
	}{{"match", 0}, {"match", -1}, {"", 10}, {"", 0}} {
		got, err := s.SearchOriginals(ctx, sid, tc.query, tc.limit)
		require.NoError(t, err, "query %q, limit %d", tc.query, tc.limit)
		require.Empty(t, got, "an empty query or a limit of 0 or less finds nothing (query %q, limit %d)", tc.query, tc.limit)
	}
}

func originalsIsolation(t *testing.T, s store.OriginalStore) {
	names := trickyNames()
	sids := ids(t, names...)
	for i, sid := range sids {
		put(t, s, sid, original("shared", fmt.Sprint("shared text of session ", i)), original(fmt.Sprint("own", i), "common needle"))
	}
	for i, sid := range sids {
		requireOriginal(t, s, sid, original("shared", fmt.Sprint("shared text of session ", i)), "session %q", names[i])
		require.Equal(t, []string{"shared"}, search(t, s, sid, "shared text", 100), "session %q", names[i])
		require.Equal(t, []string{fmt.Sprint("own", i)}, search(t, s, sid, "needle", 100), "session %q finds only its own", names[i])
		for _, j := range []int{(i + 1) % len(sids), (i + 5) % len(sids)} {
			requireNotFound(t, s, sid, fmt.Sprint("own", j), "session %q", names[i])
		}
	}
	for _, n := range []string{"a%b", "a_b", "%%", ""} {
		sid := id(t, n)
		require.Empty(t, search(t, s, sid, "needle", 100), "session %q holds nothing", n)
		requireNotFound(t, s, sid, "shared")
	}
}

func originalsConcurrent(t *testing.T, s store.OriginalStore) {
	const writers, shared, own = 6, 20, 10
	ctx := context.Background()
	sid := id(t, "concurrent")
	var wg sync.WaitGroup
	for g := 0; g < writers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < shared; i++ {
				list := []store.Original{original(fmt.Sprint("s", i), fmt.Sprintf("item from writer %d", g)),
					original(fmt.Sprintf("w%d-%d", g, i%own), fmt.Sprintf("item own %d", g))}
				if !assert.NoError(t, s.PutOriginals(ctx, sid, list)) {
					return
				}
			}
		}()
	}
	wg.Wait()
	found := search(t, s, sid, "item", 1000)
	require.Len(t, found, shared+writers*own, "every ref is stored once")
	for i := 0; i < shared; i++ {
		got, err := s.Original(ctx, sid, fmt.Sprint("s", i))
		require.NoError(t, err)
		var g int
		_, err = fmt.Sscanf(got.Text, "item from writer %d", &g)
		require.NoError(t, err, "one of the texts put: %q", got.Text)
		list, err := s.SearchOriginals(ctx, sid, got.Text, 1000)
		require.NoError(t, err)
		require.Contains(t, list, got, "the kept text is the one searches see")
	}
}

func originalsCancelled(t *testing.T, s store.OriginalStore) {
	ctx := cancelled()
	sid := id(t, "cancelled")
	put(t, s, sid, original("kept", "needle one"))
	err := s.PutOriginals(ctx, sid, []store.Original{original("new", "needle two")})
	require.ErrorIs(t, err, context.Canceled, "PutOriginals")
	requireNotFound(t, s, sid, "new", "a cancelled put stores nothing")
	require.Equal(t, []string{"kept"}, search(t, s, sid, "needle", 10))
	_, err = s.Original(ctx, sid, "kept")
	require.ErrorIs(t, err, context.Canceled, "Original")
	_, err = s.SearchOriginals(ctx, sid, "needle", 10)
	require.ErrorIs(t, err, context.Canceled, "SearchOriginals")
}

func originalsLarge(t *testing.T, s store.OriginalStore) {
	sid := id(t, "large")
	big := "START " + strings.Repeat("log line 0123456789 abcdef\n", 1<<17) + " the END" // 3.5 MiB
	o := original("big", big)
	put(t, s, sid, o, original("small", "end"))
	requireOriginal(t, s, sid, o, "an original of a few MB round-trips")
	require.Equal(t, []string{"big"}, search(t, s, sid, "start log", 10))
	require.Equal(t, []string{"big", "small"}, search(t, s, sid, "end", 10))
	require.Equal(t, []string{"big"}, search(t, s, sid, "abcdef\nlog line 0123456789 abcdef\n the end", 10))
}

func originalsInvalidUTF8(t *testing.T, s store.OriginalStore) {
	sid := id(t, "invalid-utf8")
	o := store.Original{Ref: "bad", MessageID: "m\xff", Role: llms.ChatMessageTypeTool, Name: "n\xfe",
		Text: "caf\xe9 \xff\xfe then \xe2\x82 and \xc0\x80 the needle"}
	put(t, s, sid, o)
	got, err := s.Original(context.Background(), sid, "bad")
	require.NoError(t, err)
	if got != o {
		replaced := store.Original{Ref: o.Ref, MessageID: replaceInvalid(o.MessageID), Role: o.Role, Name: replaceInvalid(o.Name),
			Text: replaceInvalid(o.Text)}
		require.Equal(t, replaced, got, "text that is not UTF-8 comes back exactly, or with each invalid byte replaced by U+FFFD")
	}
	require.Equal(t, []string{"bad"}, search(t, s, sid, "THE NEEDLE", 10))
}

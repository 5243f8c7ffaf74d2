package recall_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tmc/langchaingo/tools"

	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
)

func TestNameAndDescription(t *testing.T) {
	var tool tools.Tool = recall.New(nil)
	assert.Equal(t, "recall", tool.Name())
	d := tool.Description()
	assert.Equal(t, 1, strings.Count(d, ". "), "two sentences: %q", d)
	assert.True(t, strings.HasSuffix(d, "."))
	for _, want := range []string{`"ref:k3f2a9qx"`, `"ref:k3f2a9qx lines 40-80"`, "search", "path", "error"} {
		assert.Contains(t, d, want)
	}
}

// TestInputForms checks every accepted form of the two inputs, exactly.
func TestInputForms(t *testing.T) {
	small := "ref:s5mall22 lines 1-5 of 5 (tool bash):\n1: l1\n2: l2\n3: l3\n4: l4\n5: l5"
	lines23 := "ref:s5mall22 lines 2-3 of 5 (tool bash):\n2: l2\n3: l3\n" +
		`... 2 more lines: call recall with "ref:s5mall22 lines 4-5" for more`
	tests := []struct {
		name, input, want string
	}{
		{"ref", "ref:s5mall22", small},
		{"upper-case prefix", "REF:s5mall22", small},
		{"blanks", " \n ref:s5mall22 \t", small},
		{"langchaingo arg", `{"__arg1": "ref:s5mall22"}`, small},
		{"json object", `{"query": " ref:s5mall22 "}`, small},
		{"json string", `"ref:s5mall22"`, small},
		{"backticks", "`ref:s5mall22`", small},
		{"single quotes", "'ref:s5mall22'", small},
		{"full stop", "ref:s5mall22.", small},
		{"space after the colon", "ref: s5mall22", small},
		{"upper-case id", "ref:S5MALL22", small},
		{"range", "ref:s5mall22 lines 2-3", lines23},
		{"range, capital", "ref:s5mall22 Lines 2-3", lines23},
		{"range, comma and dots", "ref:s5mall22, lines 2..3", lines23},
		{"range, parenthesized, to", "ref:s5mall22 (lines 2 to 3)", lines23},
		{"range, en dash", "ref:s5mall22 lines 2–3", lines23},
		{"range, copied header", "ref:s5mall22 lines 2-3 of 5 (tool bash):", lines23},
		{"from a line", "ref:s5mall22 lines 4", "ref:s5mall22 lines 4-5 of 5 (tool bash):\n4: l4\n5: l5"},
		{"one line", "ref:s5mall22 line 4-4", "ref:s5mall22 lines 4-4 of 5 (tool bash):\n4: l4\n" +
			`... 1 more line: call recall with "ref:s5mall22 lines 5-5" for more`},
		{"line 0", "ref:s5mall22 lines 0-1", "ref:s5mall22 lines 1-1 of 5 (tool bash):\n1: l1\n" +
			`... 4 more lines: call recall with "ref:s5mall22 lines 2-2" for more`},
		{"past the end", "ref:s5mall22 lines 4-99", "ref:s5mall22 lines 4-5 of 5 (tool bash):\n4: l4\n5: l5"},
		{"empty original", "ref:e3mpty22", "ref:e3mpty22 lines 0-0 of 0 (tool bash):\n(the original is empty)"},
		{"user message", "ref:u2ser222", "ref:u2ser222 lines 1-1 of 1 (user):\n1: Please fix the ValueError in parse.py"},
		{"assistant message", "ref:m4p2b7cd", "ref:m4p2b7cd lines 1-2 of 2 (assistant):\n1: I will call helper17( next.\n2: read_file({\"path\": \"util.go\"})"},
		{"search", "ValueError", `search for "ValueError": 1 of 1 matching originals, best first:` +
			"\nref:u2ser222 lines 1-1 of 1 (user):\n1: Please fix the ValueError in parse.py"},
		{"search, case ignored", "valueerror PARSE.PY", `search for "valueerror PARSE.PY": 1 of 1 matching originals, best first:` +
			"\nref:u2ser222 lines 1-1 of 1 (user):\n1: Please fix the ValueError in parse.py"},
		{"search, blanks collapsed", " ValueError \n\t parse.py ", `search for "ValueError parse.py": 1 of 1 matching originals, best first:` +
			"\nref:u2ser222 lines 1-1 of 1 (user):\n1: Please fix the ValueError in parse.py"},
		{"search in json", `{"__arg1": "ValueError"}`, `search for "ValueError": 1 of 1 matching originals, best first:` +
			"\nref:u2ser222 lines 1-1 of 1 (user):\n1: Please fix the ValueError in parse.py"},
		{"search, call", "helper17(", `search for "helper17(": 2 of 2 matching originals, best first:` +
			"\nref:m4p2b7cd lines 1-2 of 2 (assistant):\n1: I will call helper17( next.\n2: read_file({\"path\": \"util.go\"})" +
			"\nref:k3f2a9qx lines 16-18 of 300 (tool read_file):\n16: func helper16(x int) int { return x * 16 }\n" +
			"17: func helper17(x int) int { return x * 17 }\n18: func helper18(x int) int { return x * 18 }"},
	}
	tool := toolFor(newFixture(t), sessionA)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, call(t, tool, tc.input))
		})
	}
}

// failingSource fails every call with err.
type failingSource struct{ err error }

func (s failingSource) Original(context.Context, string) (store.Original, error) {
	return store.Original{}, s.err
}

func (s failingSource) Search(context.Context, string, int) ([]store.Original, error) {
	return nil, s.err
}

// resolverOf returns a resolver giving src and err.
func resolverOf(src recall.Source, err error) recall.Resolver {
	return func(context.Context) (recall.Source, error) { return src, err }
}

// TestOneLineAnswers checks every one-line answer, exactly: each is an
// answer, not an error, on one line.
func TestOneLineAnswers(t *testing.T) {
	st := newFixture(t)
	a := recall.StoreSource(st, sessionA)
	evicted := failingSource{fmt.Errorf("middleware: original ref:gone2222 no longer held: %w", errors.Join(recall.ErrNoLongerHeld, store.ErrNotFound))}
	const (
		empty     = `recall: empty input; give "ref:ID" (or "ref:ID lines A-B") from a compaction marker to get an original back, or words (a path, a name, an error) to search the compacted originals.`
		noSession = `recall: no session for this call, so there are no originals to recall (a wrapped model needs middleware.WithSession on the agent's context).`
		nothing   = `recall: nothing has been compacted in this session yet; everything is still in the context.`
		failed    = `recall: could not read the compacted originals (the store failed); try again later, or go on without them.`
	)
	tests := []struct {
		name    string
		resolve recall.Resolver
		input   string
		want    string
	}{
		{"empty", nil, "", empty},
		{"blank", nil, " \n\t ", empty},
		{"empty json string", nil, `""`, empty},
		{"empty json field", nil, `{"__arg1": ""}`, empty},
		{"control characters only", nil, "\x00\x01\x7f", empty},
		{"no ref id", nil, "ref:", `recall: "ref:" is not a ref; a ref is "ref:" followed by letters, digits, "_", "." or "-", as a compaction marker shows it.`},
		{"bad ref id", nil, "ref:%%%", `recall: "ref:%%%" is not a ref; a ref is "ref:" followed by letters, digits, "_", "." or "-", as a compaction marker shows it.`},
		{"unreadable range", nil, "ref:s5mall22 foo\nbar", `recall: could not read "foo bar" after ref:s5mall22; give "ref:ID" for the whole original or "ref:ID lines A-B" for some of its lines.`},
		{"reversed range", nil, "ref:s5mall22 lines 4-2", `recall: lines 4-2 of ref:s5mall22 are not a range (the first comes after the last); give "ref:ID lines A-B" with A <= B.`},
		{"out of range", nil, "ref:s5mall22 lines 7-9", `recall: ref:s5mall22 has 5 lines; lines 7-9 are out of range (give "ref:s5mall22 lines 1-5" or a part of it).`},
		{"out of range, open", nil, "ref:s5mall22 lines 6", `recall: ref:s5mall22 has 5 lines; lines 6- are out of range (give "ref:s5mall22 lines 1-5" or a part of it).`},
		{"out of range, huge", nil, "ref:s5mall22 lines 999999999999", `recall: ref:s5mall22 has 5 lines; lines 999999999999- are out of range (give "ref:s5mall22 lines 1-5" or a part of it).`},
		{"out of range, empty", nil, "ref:e3mpty22 lines 1-2", `recall: ref:e3mpty22 is empty; lines 1-2 are out of range.`},
		{"unknown ref", nil, "ref:nosuch22", `recall: no original with ref:nosuch22 in this session; give a ref a compaction marker shows, or words to search for.`},
		{"over-long ref", nil, "ref:" + strings.Repeat("a", 100), `recall: no original with ref:` + strings.Repeat("a", 77) + `… in this session; give a ref a compaction marker shows, or words to search for.`},
		{"no longer held", resolverOf(evicted, nil), "ref:gone2222", `recall: the original ref:gone2222 is no longer held (evicted to keep memory bounded); search with words for what it said.`},
		{"no match", nil, "xyzzy plugh", `recall: nothing compacted in this session matches "xyzzy plugh"; only compacted originals are searched, not what is still in the context.`},
		{"nothing compacted", resolverOf(nil, fmt.Errorf("middleware: session x: %w", recall.ErrNothingCompacted)), "ref:s5mall22", nothing},
		{"nothing compacted, from the source", resolverOf(failingSource{recall.ErrNothingCompacted}, nil), "helper", nothing},
		{"nil store", resolverOf(recall.StoreSource(nil, sessionA), nil), "helper", nothing},
		{"no session", resolverOf(nil, recall.ErrNoSession), "ref:s5mall22", noSession},
		{"no session, nil source", resolverOf(nil, nil), "helper", noSession},
		{"no session, nil resolver", func() recall.Resolver { return nil }(), "helper", noSession},
		{"no session, empty id", resolverOf(recall.StoreSource(st, ""), nil), "helper", noSession},
		{"source error on a ref", resolverOf(failingSource{errors.New("disk on fire")}, nil), "ref:s5mall22", failed},
		{"source error on a search", resolverOf(failingSource{errors.New("disk on fire")}, nil), "helper", failed},
		{"resolver error", resolverOf(nil, errors.New("db down")), "helper", failed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resolve := tc.resolve
			if resolve == nil && !strings.HasPrefix(tc.name, "no session") {
				resolve = resolverOf(a, nil)
			}
			out := call(t, recall.New(resolve), tc.input)
			assert.Equal(t, tc.want, out)
			assert.NotContains(t, out, "\n")
		})
	}
}

// TestCallErrors: Call returns an error only when the context is done.
func TestCallErrors(t *testing.T) {
	st := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, in := range []string{"ref:s5mall22", "helper", ""} {
		out, err := toolFor(st, sessionA).Call(ctx, in)
		assert.ErrorIs(t, err, context.Canceled, in)
		assert.Empty(t, out)
	}
	// A source that fails because the context ended mid-call.
	ctx, cancel = context.WithCancel(context.Background())
	tool := recall.New(func(context.Context) (recall.Source, error) {
		cancel()
		return failingSource{context.Canceled}, nil
	})
	_, err := tool.Call(ctx, "helper")
	assert.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "search the originals")
}

// TestLogsErrorsNotText: a source failure is logged with the operation
// and the error, never the query.
func TestLogsErrorsNotText(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, nil))
	tool := recall.New(resolverOf(failingSource{errors.New("disk on fire")}, nil), recall.WithLogger(logger))
	call(t, tool, "secretquery42")
	call(t, tool, "ref:secretref42")
	log := buf.String()
	assert.Contains(t, log, "disk on fire")
	assert.Contains(t, log, "search the originals")
	assert.Contains(t, log, "read an original")
	assert.NotContains(t, log, "secretquery42")
	assert.NotContains(t, log, "secretref42")
	// Successful calls log nothing.
	buf.Reset()
	call(t, toolFor(newFixture(t), sessionA, recall.WithLogger(logger)), "helper17(")
	assert.Empty(t, buf.String())
}

// TestSessionsIsolated: over one store, a session's tool finds nothing of
// another session, by ref or by search, even under a ref both use.
func TestSessionsIsolated(t *testing.T) {
	st := newFixture(t)
	a, b := toolFor(st, sessionA), toolFor(st, sessionB)
	for _, in := range []string{"ref:" + refB, refB, secretB, secretB2, "token", "ref:" + refFile, "helper17(", "ValueError parse.py", "ref:" + refB + " lines 1-3"} {
		out := call(t, a, in)
		for _, secret := range []string{secretB, secretB2} {
			if !strings.Contains(in, secret) { // an answer may echo its input
				assert.NotContains(t, out, secret, in)
			}
		}
		assert.NotContains(t, out, refB+" lines", in)
	}
	assert.Contains(t, call(t, a, "ref:"+refB), "no original with ref:"+refB)
	assert.Contains(t, call(t, a, secretB), "nothing compacted in this session matches")
	// The other way round, as a control: B finds its own.
	assert.Contains(t, call(t, b, secretB), "ref:"+refB+" lines 1-")
	assert.Contains(t, call(t, b, "ref:"+refFile), secretB2)
	assert.NotContains(t, call(t, b, "ref:"+refFile), "func helper1(")
}

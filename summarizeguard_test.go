package compact

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/summary"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// secretConversation is conversation(30, 300) whose second round's tool
// output holds a credential, in a form Redact knows, that will be dropped.
func secretConversation() []llms.MessageContent {
	msgs := conversation(30, 300)
	m := msgs[3]
	r := m.Parts[0].(llms.ToolCallResponse)
	r.Content = "DB_PASSWORD=CorrectHorseBattery9\nThe admin password is UsrDbPw-Kangaroo42\n" + r.Content
	msgs[3] = llms.MessageContent{Role: m.Role, Parts: []llms.ContentPart{r}}
	return msgs
}

// TestSummaryRedactedWhoeverWroteIt checks the one redaction point (issue
// 24, item 2): a custom summarizer that repeats credentials, bare or in a
// known form, has them redacted in the record, the context sent, and the
// event, and its invalid output (bad UTF-8, NUL, over the cap) gives way to
// the rule digest.
func TestSummaryRedactedWhoeverWroteIt(t *testing.T) {
	secrets := []string{"CorrectHorseBattery9", "UsrDbPw-Kangaroo42", "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"}
	echo := "Work on the server. Credentials: CorrectHorseBattery9 ; UsrDbPw-Kangaroo42 ; token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
	sum := SummarizerFunc(func(ctx context.Context, req SummarizeRequest) (SummaryRecord, error) {
		return SummaryRecord{Summary: echo, KeyPoints: []string{echo}, Context: SummaryContext{Decisions: []string{echo}}}, nil
	})
	var events []Event
	c, err := New(WithContextWindow(4_000), WithReservedOutput(500), WithCustomSummarizer(sum),
		WithObserver(func(e Event) { events = append(events, e) }))
	require.NoError(t, err)
	s := NewSession("redact")
	res, err := c.Compact(context.Background(), s, secretConversation())
	require.NoError(t, err)
	require.NotNil(t, res.Summary)
	require.Equal(t, ModeLLM, res.Summary.Mode)

	rec, _ := json.Marshal(res.Summary)
	ev, _ := json.Marshal(events)
	chain, _ := json.Marshal(s)
	var sent strings.Builder
	for _, m := range res.Messages {
		for _, p := range m.Parts {
			if t, ok := p.(llms.TextContent); ok {
				sent.WriteString(t.Text)
			}
		}
	}
	for _, sec := range secrets {
		assert.NotContains(t, string(rec), sec, "record")
		assert.NotContains(t, string(ev), sec, "event")
		assert.NotContains(t, string(chain), sec, "session chain")
		assert.NotContains(t, sent.String(), sec, "context sent")
	}
	assert.Contains(t, res.Summary.Summary, "Work on the server", "the rest of the summary stays")
}

// TestSummarizerOutputValidated checks that a summarizer's output that is
// not valid UTF-8, holds a NUL, or exceeds its cap falls back to the rule
// digest with an error naming why.
func TestSummarizerOutputValidated(t *testing.T) {
	cases := map[string]string{
		"invalid UTF-8": "summary \xff\xfe of the work",
		"NUL":           "summary \x00 of the work",
		"over the cap":  strings.Repeat("word ", 5000),
		"empty":         "  \n",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			sum := SummarizerFunc(func(ctx context.Context, req SummarizeRequest) (SummaryRecord, error) {
				return SummaryRecord{Summary: "ok", KeyPoints: []string{text}}, nil
			})
			if name != "NUL" && name != "invalid UTF-8" {
				sum = func(ctx context.Context, req SummarizeRequest) (SummaryRecord, error) {
					return SummaryRecord{Summary: text}, nil
				}
			}
			c, err := New(WithContextWindow(4_000), WithReservedOutput(500), WithCustomSummarizer(sum))
			require.NoError(t, err)
			res, err := c.Compact(context.Background(), NewSession("v"), conversation(30, 300))
			require.NoError(t, err)
			require.NotNil(t, res.Summary)
			assert.Equal(t, ModeFallback, res.Summary.Mode)
			require.NotNil(t, res.Event)
			assert.NotEmpty(t, res.Event.ErrText)
			b, _ := json.Marshal(res.Summary)
			assert.NotContains(t, string(b), `\u0000`)
			assert.NotContains(t, string(b), `\ufffd`)
		})
	}
}

// blockingSummarizer never answers; ignoring its context when ignore is
// set. release ends it (at the end of the test).
type blockingSummarizer struct {
	ignore  bool
	release chan struct{}
}

func (b *blockingSummarizer) Summarize(ctx context.Context, req SummarizeRequest) (SummaryRecord, error) {
	if b.ignore {
		<-b.release
		return SummaryRecord{Summary: "late"}, nil
	}
	select {
	case <-b.release:
		return SummaryRecord{Summary: "late"}, nil
	case <-ctx.Done():
		return SummaryRecord{}, ctx.Err()
	}
}

// TestSummarizerDeadline checks the engine's summarizer deadline (issue
// 24, item 5): a summarizer that ignores its context, or honours it but
// never answers, under a caller without a deadline, gives way to the rule
// digest once WithSummarizerTimeout passes, and the call goes on. A caller
// whose own deadline is shorter gets its context's error by then.
func TestSummarizerDeadline(t *testing.T) {
	for _, ignore := range []bool{true, false} {
		b := &blockingSummarizer{ignore: ignore, release: make(chan struct{})}
		defer close(b.release)
		c, err := New(WithContextWindow(4_000), WithReservedOutput(500), WithCustomSummarizer(b),
			WithSummarizerTimeout(50*time.Millisecond))
		require.NoError(t, err)
		done := make(chan struct{})
		var res *Result
		go func() {
			defer close(done)
			res, err = c.Compact(context.Background(), NewSession("d"), conversation(30, 300))
		}()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("ignore=%v: Compact still blocked 30 s after a 50 ms summarizer deadline", ignore)
		}
		require.NoError(t, err)
		require.NotNil(t, res.Summary)
		assert.Equal(t, ModeFallback, res.Summary.Mode, "ignore=%v", ignore)
		assert.Contains(t, res.Event.ErrText, "deadline", "ignore=%v", ignore)
		assert.ErrorIs(t, res.Event.Err, ErrSummarizerTimeout, "ignore=%v", ignore)
	}

	t.Run("the caller's deadline comes first", func(t *testing.T) {
		b := &blockingSummarizer{ignore: true, release: make(chan struct{})}
		defer close(b.release)
		c, err := New(WithContextWindow(4_000), WithReservedOutput(500), WithCustomSummarizer(b),
			WithSummarizerTimeout(time.Hour))
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		done := make(chan error, 1)
		go func() { _, err := c.Compact(ctx, NewSession("d"), conversation(30, 300)); done <- err }()
		select {
		case err := <-done:
			assert.ErrorIs(t, err, context.DeadlineExceeded)
		case <-time.After(30 * time.Second):
			t.Fatal("Compact held the caller 30 s past its 50 ms deadline")
		}
	})
}

func TestWithSummarizerTimeoutValidated(t *testing.T) {
	_, err := New(WithSummarizerTimeout(0))
	assert.ErrorIs(t, err, ErrInvalidOption)
	c, err := New()
	require.NoError(t, err)
	assert.Equal(t, DefaultSummarizerTimeout, c.o.summarizerTimeout)
}

// FuzzSummarizerOutput gives the engine a custom summarizer's arbitrary
// output: whatever it is, the record kept is valid UTF-8 without NUL,
// within its cap, and redacted (Redact leaves it unchanged).
func FuzzSummarizerOutput(f *testing.F) {
	f.Add("Earlier work on the server.", "key point")
	f.Add("DB_PASSWORD=CorrectHorseBattery9 and UsrDbPw-Kangaroo42", "curl -u bob:pa55w0rd https://x")
	f.Add("bad \xff utf8", "nul \x00 here")
	f.Add("", "")
	f.Add(strings.Repeat("word ", 3000), "x-api-key: 9f8e7d6c5b4a3928")
	f.Fuzz(func(t *testing.T, text, point string) {
		sum := SummarizerFunc(func(ctx context.Context, req SummarizeRequest) (SummaryRecord, error) {
			return SummaryRecord{Summary: text, KeyPoints: []string{point}, Context: SummaryContext{Decisions: []string{point}}}, nil
		})
		c, err := New(WithContextWindow(4_000), WithReservedOutput(500), WithCustomSummarizer(sum))
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Compact(context.Background(), NewSession("f"), secretConversation())
		if err != nil {
			t.Fatal(err)
		}
		rec := res.Summary
		if rec == nil {
			t.Fatal("no summary")
		}
		if err := validRecordText(*rec); err != nil {
			t.Fatal(err)
		}
		if n := c.counter.Count(rec.Summary); n > c.SummaryCap() {
			t.Fatalf("summary of %d tokens, cap %d", n, c.SummaryCap())
		}
		for _, s := range append([]string{rec.Summary}, rec.KeyPoints...) {
			if r := extractors.Redact(s); r != s {
				t.Fatalf("unredacted: %q -> %q", s, r)
			}
			for _, sec := range []string{"CorrectHorseBattery9", "UsrDbPw-Kangaroo42"} {
				if strings.Contains(s, sec) {
					t.Fatalf("kept the secret %q: %q", sec, s)
				}
			}
		}
	})
}

// TestSummarizerErrorTextRedacted checks that a summarizer error quoting
// the request (as provider errors do) reaches the event redacted.
func TestSummarizerErrorTextRedacted(t *testing.T) {
	quoted := errors.New("400 bad request: could not process: DB_PASSWORD=CorrectHorseBattery9")
	sum := SummarizerFunc(func(ctx context.Context, req SummarizeRequest) (SummaryRecord, error) {
		req.Report(ctx, summary.Call{Model: "m", Attempt: 1, Err: quoted})
		return SummaryRecord{}, quoted
	})
	c, err := New(WithContextWindow(4_000), WithReservedOutput(500), WithCustomSummarizer(sum))
	require.NoError(t, err)
	res, err := c.Compact(context.Background(), NewSession("e"), conversation(30, 300))
	require.NoError(t, err)
	require.NotNil(t, res.Event)
	b, _ := json.Marshal(res.Event)
	assert.NotContains(t, string(b), "CorrectHorseBattery9")
	assert.Contains(t, res.Event.ErrText, "400 bad request")
}

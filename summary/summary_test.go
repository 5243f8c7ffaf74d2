package summary

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCallJSON(t *testing.T) {
	c := Call{Model: "gpt-4o-mini", Attempt: 2, InputTokens: 10, OutputTokens: 3,
		Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Duration: time.Second, Err: errors.New("boom"), ErrText: "boom"}
	b, err := json.Marshal(c)
	require.NoError(t, err)
	assert.JSONEq(t, `{"model":"gpt-4o-mini","attempt":2,"inputTokens":10,"outputTokens":3,"start":"2026-01-02T03:04:05Z","duration":1000000000,"error":"boom"}`, string(b))
	b, err = json.Marshal(Call{Model: "m", Attempt: 1})
	require.NoError(t, err)
	assert.NotContains(t, string(b), "error", "no error text on success")
}

func TestRequestReport(t *testing.T) {
	var req Request
	assert.NotPanics(t, func() { req.Report(context.Background(), Call{Attempt: 1}) }, "a nil OnCall is fine")
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "v")
	var got []Call
	req.OnCall = func(c context.Context, call Call) {
		assert.Equal(t, "v", c.Value(key{}))
		got = append(got, call)
	}
	req.Report(ctx, Call{Model: "a", Attempt: 1})
	req.Report(ctx, Call{Model: "a", Attempt: 2})
	assert.Equal(t, []Call{{Model: "a", Attempt: 1}, {Model: "a", Attempt: 2}}, got)
}

func TestSummarizerCallMark(t *testing.T) {
	var none context.Context
	assert.False(t, IsSummarizerCall(none))
	assert.False(t, IsSummarizerCall(context.Background()))
	ctx := MarkSummarizerCall(context.Background())
	assert.True(t, IsSummarizerCall(ctx))
	child, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	assert.True(t, IsSummarizerCall(child), "derived contexts keep the mark")
}

func TestFunc(t *testing.T) {
	var s Summarizer = Func(func(_ context.Context, req Request) (Record, error) {
		return Record{Summary: req.Previous.Summary + "+", Mode: ModeRule}, nil
	})
	rec, err := s.Summarize(context.Background(), Request{Previous: &Record{Summary: "p"}})
	require.NoError(t, err)
	assert.Equal(t, Record{Summary: "p+", Mode: ModeRule}, rec)
}

func TestRedact(t *testing.T) {
	r := Record{
		Summary:   "DB_PASSWORD=CorrectHorseBattery9 and the bare CorrectHorseBattery9",
		KeyPoints: []string{"token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"},
		Context: Context{
			Decisions:   []string{"use CorrectHorseBattery9"},
			ActionItems: []ActionItem{{Owner: "bob", Task: "rotate CorrectHorseBattery9"}},
		},
	}
	orig := r.Clone()
	got := Redact(r, []string{"CorrectHorseBattery9"})
	b, _ := json.Marshal(got)
	if strings.Contains(string(b), "CorrectHorse") || strings.Contains(string(b), "ghp_0123") {
		t.Errorf("Redact kept a secret: %s", b)
	}
	if !reflect.DeepEqual(orig, r) {
		t.Errorf("Redact changed its argument")
	}
}

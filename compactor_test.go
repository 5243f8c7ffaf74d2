package compact

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

func TestNewValidatesOptions(t *testing.T) {
	tests := []struct {
		name   string
		opts   []Option
		option string // the option the error must name; "" = valid
	}{
		{"defaults", nil, ""},
		{"reset equal trigger", []Option{WithTrigger(0.8, 0.8)}, "WithTrigger"},
		{"reset above trigger", []Option{WithTrigger(0.7, 0.8)}, "WithTrigger"},
		{"trigger above one", []Option{WithTrigger(1.2, 0.7)}, "WithTrigger"},
		{"NaN trigger", []Option{WithTrigger(math.NaN(), 0.5)}, "WithTrigger"},
		{"zero reset", []Option{WithTrigger(0.8, 0)}, "WithTrigger"},
		{"reserved equals window", []Option{WithContextWindow(1000), WithReservedOutput(1000)}, "WithReservedOutput"},
		{"negative reserved", []Option{WithReservedOutput(-1)}, "WithReservedOutput"},
		{"negative window", []Option{WithContextWindow(-5)}, "WithContextWindow"},
		{"unknown model without window", []Option{WithModel("my-private-model")}, "WithModel"},
		{"unknown model with window", []Option{WithModel("my-private-model"), WithContextWindow(32000)}, ""},
		{"empty model", []Option{WithModel("")}, "WithModel"},
		{"emergency below trigger", []Option{WithEmergencyRatio(0.4)}, "WithEmergencyRatio"},
		{"negative preserve", []Option{WithPreserveRecent(-1)}, "WithPreserveRecent"},
		{"negative cooldown", []Option{WithCooldown(-1)}, "WithCooldown"},
		{"negative min messages", []Option{WithMinMessages(-3)}, "WithMinMessages"},
		{"zero depth", []Option{WithMaxChainDepth(0)}, "WithMaxChainDepth"},
		{"zero summary tokens", []Option{WithMaxSummaryTokens(0)}, "WithMaxSummaryTokens"},
		{"zero input cap", []Option{WithSummaryInputCap(0)}, "WithSummaryInputCap"},
		{"nil summarizer model", []Option{WithSummarizer(nil)}, "WithSummarizer"},
		{"nil option ignored", []Option{nil}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.opts...)
			if tt.option == "" {
				require.NoError(t, err)
				require.NotNil(t, c)
				return
			}
			require.ErrorIs(t, err, ErrInvalidOption)
			assert.Contains(t, err.Error(), tt.option)
		})
	}
}

func TestDefaults(t *testing.T) {
	c, err := New()
	require.NoError(t, err)
	assert.Equal(t, 128_000, c.Window())
	assert.Equal(t, 128_000-4_096, c.Budget())
	assert.Equal(t, largeMaxSummaryTokens, c.SummaryCap(), "a large budget takes the large policy's summary cap")
	tr, rs := c.Trigger()
	assert.Equal(t, [2]float64{largeTriggerRatio, largeResetRatio}, [2]float64{tr, rs})
	small, err := New(WithContextWindow(2_000))
	require.NoError(t, err)
	assert.Equal(t, 1_500, small.Budget(), "reserved output defaults to a quarter of small windows")
	assert.Equal(t, 150, small.SummaryCap(), "summary cap is 10% of the budget")
}

// TestDerivedPolicy: the cost-aware policy follows the budget, only where
// the caller left the trigger and the summary cap alone.
func TestDerivedPolicy(t *testing.T) {
	tests := []struct {
		name           string
		opts           []Option
		trigger, reset float64
		maxSummary     int
	}{
		{"16k", []Option{WithContextWindow(16_000)}, smallTriggerRatio, smallResetRatio, smallMaxSummaryTokens},
		{"16k, own cap", []Option{WithContextWindow(16_000), WithMaxSummaryTokens(500)}, smallTriggerRatio, smallResetRatio, 500},
		{"just below", []Option{WithContextWindow(largeBudget + 4_095)}, smallTriggerRatio, smallResetRatio, smallMaxSummaryTokens},
		{"at the threshold", []Option{WithContextWindow(largeBudget + 4_096)}, largeTriggerRatio, largeResetRatio, largeMaxSummaryTokens},
		{"32k", []Option{WithContextWindow(32_000)}, largeTriggerRatio, largeResetRatio, largeMaxSummaryTokens},
		{"32k, specification kept", []Option{WithContextWindow(32_000), WithTrigger(0.80, 0.70)}, 0.80, 0.70, largeMaxSummaryTokens},
		{"32k, own cap", []Option{WithContextWindow(32_000), WithMaxSummaryTokens(500)}, largeTriggerRatio, largeResetRatio, 500},
		{"16k, low emergency", []Option{WithContextWindow(16_000), WithEmergencyRatio(0.85)}, SpecTriggerRatio, SpecResetRatio, smallMaxSummaryTokens},
		{"16k, specification kept", []Option{WithContextWindow(16_000), WithTrigger(0.80, 0.70)}, 0.80, 0.70, smallMaxSummaryTokens},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.opts...)
			require.NoError(t, err)
			tr, rs := c.Trigger()
			assert.Equal(t, tt.trigger, tr)
			assert.Equal(t, tt.reset, rs)
			assert.Equal(t, tt.maxSummary, c.MaxSummaryTokens())
		})
	}
}

// conversation returns a system prompt, a task and rounds of tool calls
// whose outputs are about size tokens each.
func conversation(rounds, size int) []llms.MessageContent {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are a careful coding agent."),
		llms.TextParts(llms.ChatMessageTypeHuman, "Fix the failing test in pkg/server. Remember: never edit go.mod."),
	}
	for i := 0; i < rounds; i++ {
		id := "call_" + strings.Repeat("x", 1) + string(rune('a'+i%26)) + strings.Repeat("0", i/26)
		msgs = append(msgs,
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
				llms.TextPart("Let me look at file " + id),
				llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: "bash", Arguments: `{"command":"cat pkg/server/file` + id + `.go"}`}},
			}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: id, Name: "bash", Content: "package server\n" + strings.Repeat("func handler() { return nil }\n", size/8)},
			}},
		)
	}
	return msgs
}

func TestTriggerPolicy(t *testing.T) {
	ctx := context.Background()
	c, err := New(WithContextWindow(10_000), WithReservedOutput(1_000))
	require.NoError(t, err)

	t.Run("below trigger: untouched", func(t *testing.T) {
		s := NewSession("a")
		msgs := conversation(3, 200)
		res, err := c.Compact(ctx, s, msgs)
		require.NoError(t, err)
		assert.False(t, res.Compacted)
		assert.Nil(t, res.Event)
		assert.Len(t, res.Messages, len(msgs))
		assert.Equal(t, res.InputTokens, res.Tokens)
	})

	t.Run("min messages: not compacted below emergency", func(t *testing.T) {
		s := NewSession("b")
		msgs := conversation(4, 2_100) // 10 messages, ~85% of the budget
		res, err := c.Compact(ctx, s, msgs)
		require.NoError(t, err)
		ratio := float64(res.InputTokens) / float64(c.Budget())
		require.Greater(t, ratio, 0.8)
		require.Less(t, ratio, 1.0)
		assert.False(t, res.Compacted)
	})

	t.Run("emergency: compacts despite min messages", func(t *testing.T) {
		s := NewSession("c")
		msgs := conversation(4, 2_700) // 10 messages, over the budget
		res, err := c.Compact(ctx, s, msgs)
		require.NoError(t, err)
		require.True(t, res.Compacted)
		assert.Equal(t, ReasonEmergency, res.Event.Reason, "only the emergency ratio called for it")
		assert.LessOrEqual(t, res.Tokens, c.Budget())
	})

	t.Run("over the emergency ratio, trigger due: named trigger", func(t *testing.T) {
		s := NewSession("c2")
		msgs := conversation(5, 2_000) // 12 messages (minMessages), over the budget
		res, err := c.Compact(ctx, s, msgs)
		require.NoError(t, err)
		require.True(t, res.Compacted)
		require.GreaterOrEqual(t, res.Event.RatioBefore, 1.0)
		assert.Equal(t, ReasonTrigger, res.Event.Reason, "a routine compaction is named by its cause")
		assert.LessOrEqual(t, res.Tokens, c.Budget())
	})

	t.Run("hysteresis and cooldown: one burst triggers once", func(t *testing.T) {
		s := NewSession("d")
		msgs := conversation(40, 250)
		compactions := 0
		var reasons []string
		for i := 3; i <= len(msgs); i++ {
			if msgs[i-1].Role == llms.ChatMessageTypeAI {
				continue
			}
			res, err := c.Compact(ctx, s, msgs[:i])
			require.NoError(t, err)
			require.NoError(t, checkOutput(c, msgs[:i], res))
			if res.Compacted {
				compactions++
				reasons = append(reasons, res.Event.Reason)
				assert.LessOrEqual(t, res.Event.RatioAfter, 0.70+0.01, "aims for the reset ratio")
			}
		}
		// 40 rounds of ~250 tokens is ~11k tokens: more than the 9k budget once.
		assert.GreaterOrEqual(t, compactions, 1)
		assert.LessOrEqual(t, compactions, 3, "reasons %v", reasons)
	})
}

func TestCompactKeepsTaskAndSystem(t *testing.T) {
	c, err := New(WithContextWindow(4_000), WithReservedOutput(500))
	require.NoError(t, err)
	msgs := append(conversation(30, 300), llms.TextParts(llms.ChatMessageTypeHuman, "Please continue."))
	s := NewSession("t")
	res, err := c.Compact(context.Background(), s, msgs)
	require.NoError(t, err)
	require.True(t, res.Compacted)
	require.NoError(t, checkOutput(c, msgs, res))
	assert.Equal(t, msgs[0], res.Messages[0], "I3")
	assert.Contains(t, textOf(res.Messages[1]), SummaryPreamble, "summary right after the system prompt")
	assert.Equal(t, llms.ChatMessageTypeHuman, res.Messages[1].Role, "the summary is never a system message")
	assert.Equal(t, "Please continue.", textOf(res.Messages[len(res.Messages)-1]), "I4: the latest user message is kept verbatim")
	all := ""
	for _, m := range res.Messages {
		all += textOf(m)
	}
	assert.Contains(t, all, "never edit go.mod", "the user's earlier instruction survives, verbatim or in the summary")
	sum := s.Latest()
	require.NotNil(t, sum)
	assert.Equal(t, 1, sum.Depth)
	assert.NotEmpty(t, sum.ID)
	assert.NotEmpty(t, sum.OriginalMessageIDs)
}

func TestChainDepthAndParents(t *testing.T) {
	c, err := New(WithContextWindow(3_000), WithReservedOutput(300), WithCooldown(0), WithMinMessages(0),
		WithMaxChainDepth(2), WithChainRetention(1000))
	require.NoError(t, err)
	s := NewSession("chain")
	msgs := conversation(60, 120)
	for i := 3; i <= len(msgs); i += 2 {
		_, err := c.Compact(context.Background(), s, msgs[:i])
		require.NoError(t, err)
	}
	chain := s.Summaries()
	require.GreaterOrEqual(t, len(chain), 3)
	for i, r := range chain {
		assert.LessOrEqual(t, r.Depth, 2, "depth capped")
		if i == 0 {
			assert.Empty(t, r.ParentID)
			assert.Equal(t, 1, r.Depth)
		} else {
			assert.Equal(t, chain[i-1].ID, r.ParentID)
		}
	}
}

// TestChainRetention: the session keeps the newest records only, linked,
// the newest one the summary in force.
func TestChainRetention(t *testing.T) {
	c, err := New(WithContextWindow(3_000), WithReservedOutput(300), WithCooldown(0), WithMinMessages(0), WithChainRetention(2))
	require.NoError(t, err)
	s := NewSession("chain")
	msgs := conversation(60, 120)
	var last *SummaryRecord
	compactions := 0
	for i := 3; i <= len(msgs); i += 2 {
		res, err := c.Compact(context.Background(), s, msgs[:i])
		require.NoError(t, err)
		if res.Summary != nil && (last == nil || res.Summary.ID != last.ID) {
			compactions++
		}
		last = res.Summary
	}
	require.Greater(t, compactions, 3)
	chain := s.Summaries()
	require.Len(t, chain, 2)
	assert.Equal(t, chain[0].ID, chain[1].ParentID)
	assert.Equal(t, last.ID, chain[1].ID)
	_, err = New(WithChainRetention(0))
	require.ErrorIs(t, err, ErrInvalidOption)
}

func TestSessionJSONRoundTrip(t *testing.T) {
	ctx := context.Background()
	c, err := New(WithContextWindow(4_000), WithReservedOutput(500))
	require.NoError(t, err)
	msgs := conversation(30, 300)
	s := NewSession("persist")
	first, err := c.Compact(ctx, s, msgs)
	require.NoError(t, err)
	b, err := json.Marshal(s)
	require.NoError(t, err)
	restored := NewSession("")
	require.NoError(t, json.Unmarshal(b, restored))
	assert.Equal(t, "persist", restored.ID())
	assert.Equal(t, s.Summaries(), restored.Summaries())
	// The restored session yields the same context, without compacting again.
	more := append(append([]llms.MessageContent(nil), msgs...), llms.TextParts(llms.ChatMessageTypeHuman, "ok"))
	a, err := c.Compact(ctx, s, more)
	require.NoError(t, err)
	r, err := c.Compact(ctx, restored, more)
	require.NoError(t, err)
	assert.False(t, r.Compacted)
	assert.Equal(t, a.Messages, r.Messages)
	assert.Equal(t, first.Messages, r.Messages[:len(first.Messages)], "I7 across persistence")

	require.Error(t, restored.UnmarshalJSON([]byte(`{"version": 99}`)))
	require.Error(t, restored.UnmarshalJSON([]byte(`not json`)))
}

func TestSummarizerFallbackAndAbort(t *testing.T) {
	ctx := context.Background()
	failing := SummarizerFunc(func(ctx context.Context, req SummarizeRequest) (SummaryRecord, error) {
		return SummaryRecord{}, errors.New("model unavailable")
	})
	var events []Event
	c, err := New(WithContextWindow(4_000), WithReservedOutput(500), WithCustomSummarizer(failing),
		WithObserver(func(e Event) { events = append(events, e) }))
	require.NoError(t, err)
	msgs := conversation(30, 300)
	s := NewSession("f")
	res, err := c.Compact(ctx, s, msgs)
	require.NoError(t, err)
	require.True(t, res.Compacted)
	assert.Equal(t, ModeFallback, res.Event.Mode)
	assert.ErrorContains(t, res.Event.Err, "model unavailable")
	require.Len(t, events, 1)
	assert.Equal(t, 1, s.Stats().Fallbacks)
	require.NoError(t, checkOutput(c, msgs, res))

	abort, err := New(WithContextWindow(4_000), WithReservedOutput(500), WithCustomSummarizer(failing), WithAbortOnFailure(true))
	require.NoError(t, err)
	s2 := NewSession("g")
	_, err = abort.Compact(ctx, s2, msgs)
	require.ErrorIs(t, err, ErrSummarizer)
	assert.Nil(t, s2.Latest(), "the session is unchanged on error")

	oversized := SummarizerFunc(func(ctx context.Context, req SummarizeRequest) (SummaryRecord, error) {
		return SummaryRecord{Summary: strings.Repeat("too long ", 5_000)}, nil
	})
	c3, err := New(WithContextWindow(4_000), WithReservedOutput(500), WithCustomSummarizer(oversized))
	require.NoError(t, err)
	res, err = c3.Compact(ctx, NewSession("h"), msgs)
	require.NoError(t, err)
	assert.Equal(t, ModeFallback, res.Event.Mode, "an oversized summary is never inserted")
	require.NoError(t, checkOutput(c3, msgs, res))
}

func TestContextCancelled(t *testing.T) {
	c, err := New()
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = c.Compact(ctx, NewSession(""), conversation(2, 10))
	require.ErrorIs(t, err, context.Canceled)
}

func TestStaleSessionStartsOver(t *testing.T) {
	ctx := context.Background()
	c, err := New(WithContextWindow(4_000), WithReservedOutput(500))
	require.NoError(t, err)
	s := NewSession("reused")
	_, err = c.Compact(ctx, s, conversation(30, 300))
	require.NoError(t, err)
	require.NotNil(t, s.Latest())
	// Another conversation under the same session: no summary of the first.
	other := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are a different agent."),
		llms.TextParts(llms.ChatMessageTypeHuman, "A new task."),
	}
	res, err := c.Compact(ctx, s, other)
	require.NoError(t, err)
	assert.Len(t, res.Messages, 2)
	assert.Nil(t, s.Latest())
	// A caller passing the compacted output back gets it unchanged.
	s2 := NewSession("back")
	first, err := c.Compact(ctx, s2, conversation(30, 300))
	require.NoError(t, err)
	again, err := c.Compact(ctx, s2, first.Messages)
	require.NoError(t, err)
	assert.Equal(t, len(first.Messages), len(again.Messages))
	assert.Equal(t, textOf(first.Messages[1]), textOf(again.Messages[1]))
}

func TestTaskIsPinned(t *testing.T) {
	c, err := New(WithContextWindow(4_000), WithReservedOutput(500))
	require.NoError(t, err)
	msgs := conversation(30, 300) // the task is the first user message
	msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, "Please always provide EXACTLY ONE action."))
	res, err := c.Compact(context.Background(), NewSession("task"), msgs)
	require.NoError(t, err)
	require.True(t, res.Compacted)
	require.Greater(t, res.Event.Dropped, 0)
	found := false
	for _, m := range res.Messages {
		if textOf(m) == textOf(msgs[1]) {
			found = true
		}
	}
	assert.True(t, found, "the task (first user message) is kept verbatim")
}

func TestCompactNowManualSummarizesOutsideTail(t *testing.T) {
	c, err := New(WithContextWindow(128_000), WithPreserveRecent(4))
	require.NoError(t, err)
	msgs := append(conversation(8, 50), llms.TextParts(llms.ChatMessageTypeHuman, "/summarize"))
	s := NewSession("manual")
	res, err := c.CompactNow(context.Background(), s, msgs, ReasonManual)
	require.NoError(t, err)
	require.True(t, res.Compacted)
	require.NotNil(t, s.Latest(), "a short conversation is summarized on demand")
	assert.Equal(t, ReasonManual, res.Event.Reason)
	require.NoError(t, checkOutput(c, msgs, res))
	// system, summary, task, the 4-message tail (two rounds: 4 messages) and "/summarize".
	assert.Less(t, len(res.Messages), len(msgs))
	assert.Equal(t, "/summarize", textOf(res.Messages[len(res.Messages)-1]))
}

// TestSessionUnmarshalValidates checks the decode-time checks of a persisted
// session: bad states are errors that leave the session as it was, and
// out-of-range numbers are clamped.
func TestSessionUnmarshalValidates(t *testing.T) {
	s := NewSession("keep")
	for _, bad := range []string{
		`{"version": -1}`,
		`{"version": 1, "chain": [{"id": "a", "summary": ""}]}`,
		`{"version": 1, "chain": [{"id": "a", "summary": "ok"}, {"id": "b", "summary": " \n\t"}]}`,
	} {
		err := s.UnmarshalJSON([]byte(bad))
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "compact: decode session")
		assert.Equal(t, "keep", s.ID(), "a rejected state leaves the session unchanged")
	}
	require.NoError(t, s.UnmarshalJSON([]byte(`{"version": 1, "calibration": 1e300, "lastCompactionLen": -5, "lastCompactionTokens": -9, "chain": [{"id": "a", "summary": "ok", "depth": -3}]}`)))
	assert.Equal(t, MaxCalibration, s.Calibration())
	require.Len(t, s.Summaries(), 1)
	assert.Equal(t, 0, s.Summaries()[0].Depth)
	b, err := s.MarshalJSON()
	require.NoError(t, err)
	assert.Contains(t, string(b), `"lastCompactionLen":0`)
	assert.Contains(t, string(b), `"lastCompactionTokens":0`)
}

// TestCutSparesLatestUser: when the task and the latest user message do
// not fit together, stage 3 cuts the task and keeps the latest user
// message verbatim (I4): it is cut only when it alone exceeds the budget.
func TestCutSparesLatestUser(t *testing.T) {
	c, err := New(WithContextWindow(3_300), WithReservedOutput(300), WithMinMessages(0))
	require.NoError(t, err)
	task := llms.TextParts(llms.ChatMessageTypeHuman, "Task: "+strings.Repeat("analyse the module carefully ", 300))
	latest := llms.TextParts(llms.ChatMessageTypeHuman, "Now: "+strings.Repeat("check the failing test output ", 440))
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are terse."), task,
		llms.TextParts(llms.ChatMessageTypeAI, "ok"), latest}
	require.Greater(t, c.CountTokens(msgs[1:2]), 1_000)
	require.Greater(t, c.CountTokens(msgs[3:]), 2_000)
	res, err := c.Compact(context.Background(), NewSession("cut"), msgs)
	require.NoError(t, err)
	assert.Equal(t, StateKept, res.States[3], "the latest user message is kept verbatim")
	assert.Equal(t, StateCut, res.States[1], "the task is cut instead")
	require.NoError(t, checkOutput(c, msgs, res))
}

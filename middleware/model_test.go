package middleware

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/toolfacts"
	"github.com/agentcompact/compact/llmsummary"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

type reasoner struct {
	recorder
	yes bool
}

func (r *reasoner) SupportsReasoning() bool { return r.yes }

func TestWrapForwardsInterfaces(t *testing.T) {
	c := newCompactor(t, 128_000)
	plain := &recorder{}
	m := Wrap(plain, c)
	assert.Same(t, plain, m.Unwrap())
	assert.Same(t, c, m.Compactor())
	assert.False(t, m.SupportsReasoning(), "a model without SupportsReasoning")
	assert.True(t, Wrap(&reasoner{yes: true}, c).SupportsReasoning())
	assert.False(t, Wrap(&reasoner{yes: false}, c).SupportsReasoning())
}

func TestCallGoesThroughGenerateContent(t *testing.T) {
	rec := &recorder{reply: func(int, []llms.MessageContent) (*llms.ContentResponse, error) { return textResponse("pong"), nil }}
	var infos []CallInfo
	m := Wrap(rec, newCompactor(t, 128_000), WithObserver(func(i CallInfo) { infos = append(infos, i) }))
	out, err := m.Call(context.Background(), "ping", llms.WithMaxTokens(5))
	require.NoError(t, err)
	assert.Equal(t, "pong", out)
	got := rec.received()
	require.Len(t, got, 1)
	assert.Equal(t, []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "ping")}, got[0])
	assert.Equal(t, 5, rec.opts[0].MaxTokens, "options are forwarded")
	require.Len(t, infos, 1, "Call is observed like GenerateContent")
}

// TestPrefixStable runs an agent-like loop and checks I7: between
// compactions, what the model receives is what it received before plus the
// newly appended messages, and the summary is not recomputed.
func TestPrefixStable(t *testing.T) {
	c := newCompactor(t, 6_000)
	rec := &recorder{}
	var infos []CallInfo
	m := Wrap(rec, c, WithObserver(func(i CallInfo) { infos = append(infos, i) }))
	ctx := WithSession(context.Background(), "run")
	msgs := run("a", 0, 0)
	var prevSummary string
	compactions := 0
	for r := 0; r < 40; r++ {
		_, err := m.GenerateContent(ctx, msgs)
		require.NoError(t, err)
		info := infos[len(infos)-1]
		sent := rec.received()[r]
		checkSent(t, c, info.Budget, sent, msgs)
		sum := ""
		if l := m.Session("run").Latest(); l != nil {
			sum = l.ID
		}
		if len(info.Compactions) == 0 && r > 0 {
			prev := rec.received()[r-1]
			require.Equal(t, prev, sent[:len(prev)], "call %d: previous output is a prefix", r)
			require.Equal(t, msgs[len(msgs)-2:], sent[len(prev):], "call %d: plus the new messages", r)
			require.Equal(t, prevSummary, sum, "call %d: summary unchanged without compaction", r)
		} else if len(info.Compactions) > 0 {
			compactions++
		}
		prevSummary = sum
		msgs = append(msgs, round("a", r, 900)...)
	}
	assert.GreaterOrEqual(t, compactions, 2, "the run must compact several times")
	assert.Less(t, compactions, 20, "hysteresis: not on every call")
}

func TestDoesNotMutateInput(t *testing.T) {
	c := newCompactor(t, 4_000)
	m := Wrap(&recorder{}, c)
	msgs := run("m", 12, 1200)
	before := deepCopy(msgs)
	_, err := m.GenerateContent(context.Background(), msgs)
	require.NoError(t, err)
	assert.Equal(t, before, msgs)
}

func TestAutoSessionKeys(t *testing.T) {
	c := newCompactor(t, 128_000)
	var infos []CallInfo
	m := Wrap(&recorder{}, c, WithObserver(func(i CallInfo) { infos = append(infos, i) }))
	ctx := context.Background()
	a1 := run("a", 1, 100)
	a2 := run("a", 3, 100) // same opening, more rounds
	b := run("b", 1, 100)
	for _, msgs := range [][]llms.MessageContent{a1, a2, b} {
		_, err := m.GenerateContent(ctx, msgs)
		require.NoError(t, err)
	}
	_, err := m.GenerateContent(WithSession(ctx, "explicit"), a1)
	require.NoError(t, err)
	require.Len(t, infos, 4)
	assert.Equal(t, infos[0].SessionID, infos[1].SessionID, "one run shares its key")
	assert.True(t, strings.HasPrefix(infos[0].SessionID, AutoSessionPrefix))
	assert.NotEqual(t, infos[0].SessionID, infos[2].SessionID, "another task, another key")
	assert.Equal(t, "explicit", infos[3].SessionID)
	assert.True(t, infos[3].Explicit)
	assert.Equal(t, []bool{true, false, true, true}, []bool{infos[0].NewSession, infos[1].NewSession, infos[2].NewSession, infos[3].NewSession})
	assert.Equal(t, 3, m.Sessions())
	assert.NotNil(t, m.Session(infos[0].SessionID))
	assert.NotNil(t, m.Session("explicit"))
	assert.Nil(t, m.Session("nope"))
	assert.True(t, m.ForgetSession(infos[0].SessionID))
	assert.False(t, m.ForgetSession(infos[0].SessionID))
	assert.Equal(t, 2, m.Sessions())
}

// TestForeignSummaryRestarts: two runs with the same opening share an
// automatic key; the second must not receive the first one's summary.
func TestForeignSummaryRestarts(t *testing.T) {
	c := newCompactor(t, 5_000)
	rec := &recorder{}
	var infos []CallInfo
	m := Wrap(rec, c, WithObserver(func(i CallInfo) { infos = append(infos, i) }))
	ctx := context.Background()
	first := run("x", 0, 0)
	for r := 0; r < 80; r++ {
		first = append(first, round("first", r, 1000)...)
		_, err := m.GenerateContent(ctx, first)
		require.NoError(t, err)
	}
	id := infos[0].SessionID
	require.NotNil(t, m.Session(id).Latest(), "the first run was summarized")
	second := append(run("x", 0, 0), round("second", 0, 200)...)
	_, err := m.GenerateContent(ctx, second)
	require.NoError(t, err)
	last := infos[len(infos)-1]
	assert.Equal(t, id, last.SessionID)
	assert.True(t, last.NewSession, "restarted")
	sent := rec.received()[len(rec.received())-1]
	assert.Equal(t, second, sent, "no foreign summary")
	for _, msg := range sent {
		assert.NotContains(t, text(msg), compact.SummaryPreamble)
	}
}

func overflowErr() error {
	return errors.New("API returned unexpected status code: 400: This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens. Please reduce the length of the messages.")
}

func TestOverflowRetry(t *testing.T) {
	tests := []struct {
		name      string
		failures  int   // how many calls fail before success
		err       error // the failure
		opts      []Option
		wantCalls int
		wantErr   bool
		retried   bool
	}{
		{name: "retry once then succeed", failures: 1, err: overflowErr(), wantCalls: 2, retried: true},
		{name: "typed token limit error", failures: 1, err: fmt.Errorf("wrapped: %w", llms.ErrTokenLimit), wantCalls: 2, retried: true},
		{name: "only one retry", failures: 5, err: overflowErr(), wantCalls: 2, wantErr: true, retried: true},
		{name: "other errors are not retried", failures: 1, err: errors.New("API returned unexpected status code: 401: invalid api key"), wantCalls: 1, wantErr: true},
		{name: "retry disabled", failures: 1, err: overflowErr(), opts: []Option{WithOverflowRetry(false)}, wantCalls: 1, wantErr: true},
		{name: "custom detector", failures: 1, err: errors.New("boom"), opts: []Option{WithOverflowDetector(func(err error) bool { return err.Error() == "boom" })}, wantCalls: 2, retried: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCompactor(t, 16_000)
			rec := &recorder{reply: func(n int, _ []llms.MessageContent) (*llms.ContentResponse, error) {
				if n <= tt.failures {
					return nil, tt.err
				}
				return textResponse("fine"), nil
			}}
			var info CallInfo
			m := Wrap(rec, c, append(tt.opts, WithObserver(func(i CallInfo) { info = i }))...)
			msgs := run("o", 16, 1500) // fits the budget, so only the retry compacts
			resp, err := m.GenerateContent(context.Background(), msgs)
			got := rec.received()
			require.Len(t, got, tt.wantCalls)
			assert.Equal(t, tt.retried, info.Retried)
			if tt.wantErr {
				require.Error(t, err)
				assert.ErrorIs(t, err, tt.err, "the model's error is returned as is")
				assert.Equal(t, err, info.Err)
			} else {
				require.NoError(t, err)
				assert.Equal(t, "fine", resp.Choices[0].Content)
			}
			assert.Equal(t, msgs, got[0], "the first attempt sends everything (below the trigger)")
			if tt.retried {
				require.Len(t, info.Compactions, 1)
				assert.Equal(t, compact.ReasonOverflow, info.Compactions[0].Reason)
				assert.Less(t, c.CountTokens(got[1]), c.CountTokens(got[0])*6/10, "the retry aims at half the reset ratio")
				checkSent(t, c, info.Budget, got[1], msgs)
			}
		})
	}
}

func TestCompactionErrorSendsNothing(t *testing.T) {
	c := newCompactor(t, 1_000)
	rec := &recorder{}
	m := Wrap(rec, c)
	huge := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, strings.Repeat("system prompt words ", 800)),
		llms.TextParts(llms.ChatMessageTypeHuman, "hi"),
	}
	_, err := m.GenerateContent(context.Background(), huge)
	require.ErrorIs(t, err, compact.ErrBudgetTooSmall)
	assert.Empty(t, rec.received())

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = m.GenerateContent(ctx, run("c", 1, 10))
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, rec.received())
}

func TestCalibration(t *testing.T) {
	tests := []struct {
		name    string
		factor  float64 // provider tokens / our tokens
		opts    []Option
		tools   bool
		wantCal bool
	}{
		{name: "provider counts more", factor: 1.5, wantCal: true},
		{name: "provider counts less: never enlarges", factor: 0.8},
		{name: "disabled", factor: 1.5, opts: []Option{WithCalibration(false)}},
		{name: "tool definitions alone explain the difference", factor: 1, tools: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCompactor(t, 32_000)
			m0 := (*Model)(nil)
			rec := &recorder{}
			rec.reply = func(_ int, msgs []llms.MessageContent) (*llms.ContentResponse, error) {
				n := float64(c.CountTokens(msgs)) * tt.factor
				if tt.tools {
					n += float64(m0.tools.count(c, &llms.CallOptions{Tools: testTools()}))
				}
				return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: "ok", GenerationInfo: map[string]any{"PromptTokens": int(n)}}}}, nil
			}
			var infos []CallInfo
			m := Wrap(rec, c, append(tt.opts, WithObserver(func(i CallInfo) { infos = append(infos, i) }))...)
			m0 = m
			ctx := WithSession(context.Background(), "cal")
			var callOpts []llms.CallOption
			if tt.tools {
				callOpts = append(callOpts, llms.WithTools(testTools()))
			}
			for r := 1; r <= 3; r++ {
				_, err := m.GenerateContent(ctx, run("cal", r, 2000), callOpts...)
				require.NoError(t, err)
			}
			last := infos[len(infos)-1]
			assert.Positive(t, last.ProviderPromptTokens)
			if tt.wantCal {
				assert.Greater(t, last.Calibration, 1.2)
				assert.Less(t, last.Budget, c.Budget(), "the calibrated budget is smaller")
			} else {
				assert.InDelta(t, 1.0, last.Calibration, 0.02)
				assert.InDelta(t, c.Budget(), last.Budget, float64(c.Budget())*0.02)
			}
		})
	}
}

func testTools() []llms.Tool {
	return []llms.Tool{{Type: "function", Function: &llms.FunctionDefinition{
		Name: "read_file", Description: strings.Repeat("Reads a file of the repository and returns its text. ", 20),
		Parameters: map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}},
	}}}
}

func TestCalibrationFactor(t *testing.T) {
	tests := []struct {
		name                             string
		provider, counted, tools, budget int
		want                             float64
		ok                               bool
	}{
		{name: "same count", provider: 1000, counted: 1000, budget: 10_000, want: 1, ok: true},
		{name: "tokenizer 20% more", provider: 1200, counted: 1000, budget: 10_000, want: 1.2, ok: true},
		{name: "tools only", provider: 1500, counted: 1000, tools: 500, budget: 10_000, want: 10_000.0 / 9_500, ok: true},
		{name: "too small to say", provider: 200, counted: 100, budget: 10_000},
		{name: "no report", provider: 0, counted: 1000, budget: 10_000},
		{name: "tools exceed the report", provider: 400, counted: 1000, tools: 500, budget: 10_000},
		{name: "tools exceed the budget", provider: 20_000, counted: 1000, tools: 19_000, budget: 10_000, want: compact.MaxCalibration, ok: true},
		{name: "capped", provider: 100_000, counted: 1000, budget: 10_000, want: compact.MaxCalibration, ok: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := calibrationFactor(tt.provider, tt.counted, tt.tools, tt.budget)
			require.Equal(t, tt.ok, ok)
			if ok {
				assert.InDelta(t, tt.want, f, 1e-9)
			}
		})
	}
}

func TestObserverAndLogger(t *testing.T) {
	c := newCompactor(t, 4_000)
	var buf bytes.Buffer
	var mu sync.Mutex
	var infos []CallInfo
	m := Wrap(&recorder{}, c,
		WithLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))),
		WithObserver(func(i CallInfo) { mu.Lock(); infos = append(infos, i); mu.Unlock() }))
	msgs := run("l", 14, 1000)
	_, err := m.GenerateContent(context.Background(), msgs)
	require.NoError(t, err)
	require.Len(t, infos, 1)
	i := infos[0]
	assert.Equal(t, len(msgs), i.Messages)
	assert.Equal(t, c.CountTokens(msgs), i.InputTokens)
	require.Len(t, i.Compactions, 1)
	assert.Less(t, i.SentTokens, i.InputTokens)
	assert.LessOrEqual(t, i.SentMessages, i.Messages)
	assert.Contains(t, buf.String(), "compact: compaction")
	assert.Contains(t, buf.String(), "compact: call")
	assert.Contains(t, buf.String(), "reason="+i.Compactions[0].Reason)
}

type streamingRecorder struct{ recorder }

func (s *streamingRecorder) GenerateContentStream(ctx context.Context, msgs []llms.MessageContent, options ...llms.CallOption) (<-chan llms.ContentResponse, error) {
	resp, err := s.GenerateContent(ctx, msgs, options...)
	if err != nil {
		return nil, err
	}
	ch := make(chan llms.ContentResponse, 2)
	ch <- llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: "st"}}}
	ch <- *resp
	close(ch)
	return ch, nil
}

func TestGenerateContentStream(t *testing.T) {
	c := newCompactor(t, 4_000)
	msgs := run("s", 14, 1000)
	collect := func(ch <-chan llms.ContentResponse) (s string) {
		for r := range ch {
			s += r.Choices[0].Content
		}
		return s
	}

	sr := &streamingRecorder{}
	ch, err := Wrap(sr, c).GenerateContentStream(context.Background(), msgs)
	require.NoError(t, err)
	assert.Equal(t, "stok", collect(ch), "the wrapped model's stream")
	require.Len(t, sr.received(), 1)
	checkSent(t, c, c.Budget(), sr.received()[0], msgs)

	plain := &recorder{}
	ch, err = Wrap(plain, c).GenerateContentStream(context.Background(), msgs)
	require.NoError(t, err)
	assert.Equal(t, "ok", collect(ch), "one chunk from GenerateContent")
	require.Len(t, plain.received(), 1)
	checkSent(t, c, c.Budget(), plain.received()[0], msgs)

	failing := &streamingRecorder{}
	failing.reply = func(n int, _ []llms.MessageContent) (*llms.ContentResponse, error) {
		if n == 1 {
			return nil, overflowErr()
		}
		return textResponse("!"), nil
	}
	ch, err = Wrap(failing, c).GenerateContentStream(context.Background(), run("s", 8, 1000))
	require.NoError(t, err)
	assert.Equal(t, "st!", collect(ch))
	assert.Len(t, failing.received(), 2, "retried before the stream started")
}

func TestNotConfigured(t *testing.T) {
	for _, m := range []*Model{Wrap(nil, newCompactor(t, 8_000)), Wrap(&recorder{}, nil)} {
		_, err := m.GenerateContent(context.Background(), run("n", 1, 10))
		assert.ErrorIs(t, err, ErrNotConfigured)
		_, err = m.Call(context.Background(), "x")
		assert.ErrorIs(t, err, ErrNotConfigured)
		_, err = m.GenerateContentStream(context.Background(), run("n", 1, 10))
		assert.ErrorIs(t, err, ErrNotConfigured)
		assert.False(t, m.SupportsReasoning())
	}
}

func TestSummarizerCallsPassThrough(t *testing.T) {
	var got [][]llms.MessageContent
	next := recordingModel(func(msgs []llms.MessageContent) { got = append(got, msgs) })
	c, err := compact.New(compact.WithContextWindow(2_000))
	require.NoError(t, err)
	llm := Wrap(next, c)
	huge := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, strings.Repeat("words ", 5_000))}
	// A summarizer model that is itself wrapped: the summarizer's own call
	// must reach the model unchanged.
	s := llmsummary.New([]llms.Model{llm})
	_, _ = s.Summarize(context.Background(), compact.SummarizeRequest{Messages: huge, MaxTokens: 100, MaxInputTokens: 100_000, Count: c.Counter().Count, Extractors: toolfacts.Registry{Reg: c.Extractors()}})
	require.NotEmpty(t, got)
	for _, msgs := range got {
		// Compacted, it would fit the wrapped model's budget.
		require.Greater(t, c.CountTokens(msgs), c.Budget())
	}
}

type recordingModel func(msgs []llms.MessageContent)

func (r recordingModel) GenerateContent(ctx context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	r(msgs)
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: `{"summary":"ok","keyPoints":[],"context":{"participants":[],"decisions":[],"actionItems":[],"unresolved":[],"domainEntities":[]}}`}}}, nil
}

func (r recordingModel) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, r, prompt, options...)
}

package memory

import (
	"context"
	"fmt"
	"github.com/agentcompact/compact/store"
	"strings"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/prompts"
)

// textOfTokens returns real text (the corpus's, concatenated) of about n
// tokens as c counts it, distinct per seed.
func textOfTokens(t testing.TB, c *compact.Compactor, n, seed int) string {
	t.Helper()
	ins, outs := corpusTexts(t)
	var b strings.Builder
	fmt.Fprintf(&b, "[%d] ", seed)
	for i := seed; c.Counter().Count(b.String()) < n; i++ {
		b.WriteString(ins[i%len(ins)])
		b.WriteString("\n")
		b.WriteString(outs[i%len(outs)])
		b.WriteString("\n")
	}
	s := b.String()
	lo, hi := 0, len(s)
	for lo < hi { // the shortest prefix of n tokens
		mid := (lo + hi) / 2
		if c.Counter().Count(s[:mid]) < n {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return strings.ToValidUTF8(s[:lo], "")
}

// TestConversationPromptFitsWindow runs a real chains.NewConversation
// whose scripted model records every prompt, with inputs of many sizes up
// to nearly the whole budget: every prompt, counted with the engine's
// counter, fits the window less the reserved output. An input over the
// budget fails the chain with ErrInputTooLarge before the model is called,
// and records nothing.
func TestConversationPromptFitsWindow(t *testing.T) {
	for _, tc := range []struct {
		name             string
		window, reserved int
		opts             []Option
	}{
		{"4000", 4000, 0, nil},
		{"4000-reserved-500", 4000, 500, nil},
		{"8000-prefixes", 8000, 1000, []Option{WithHumanPrefix("User"), WithAIPrefix("Bot")}},
		{"2000-reserve-100", 2000, 0, []Option{WithPromptReserve(100)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			c, err := compact.New(compact.WithContextWindow(tc.window), compact.WithReservedOutput(tc.reserved))
			require.NoError(t, err)
			llm := &scriptedModel{}
			h := store.NewChatHistory()
			mem := New(c, append([]Option{WithChatHistory(h)}, tc.opts...)...)
			chain := chains.NewConversation(llm, mem)
			if tc.name == "8000-prefixes" {
				// The conversation prompt with the memory's prefixes.
				tmpl := strings.Replace(DefaultPromptTemplate, "\n\nHuman: \nAI:", "\n{{.history}}\nUser: {{.input}}\nBot:", 1)
				chain.Prompt = prompts.NewPromptTemplate(tmpl, []string{"history", "input"})
			}
			sizes := []int{5, 2500, 40, 300, 900, 10, 1500, 60, 2000, 200, 3000, 3300, 700, 20}
			budget := c.Budget()
			turns, failed, largest := 0, 0, 0
			for i := 0; i < 60; i++ {
				n := sizes[i%len(sizes)] * budget / 3500
				in := textOfTokens(t, c, n, i)
				out := textOfTokens(t, c, 20+(i*137)%400, 1000+i)
				llm.replies = append(llm.replies, scriptedReply{content: out})
				before := len(llm.requests)
				_, err := chains.Run(ctx, chain, in)
				if err != nil {
					require.ErrorIs(t, err, ErrInputTooLarge, "turn %d (%d tokens)", i, n)
					require.Equal(t, before, len(llm.requests), "the model is not called")
					llm.replies = llm.replies[:len(llm.replies)-1]
					failed++
					// Only an input that leaves no room for a summary (with its
					// recall hint) and the pinned task may fail.
					require.Greater(t, n+c.SummaryCap()+150+c.Counter().Count(compact.RecallHint), budget, "turn %d: %v", i, err)
					continue
				}
				turns++
				req, err := llm.lastRequest()
				require.NoError(t, err)
				require.Contains(t, promptText(req), in, "the input is sent whole")
				assert.LessOrEqual(t, c.CountTokens(req), c.Window()-tc.reserved, "turn %d: input of %d tokens", i, n)
				largest = max(largest, c.CountTokens(req))
			}
			t.Logf("%d turns, %d inputs too large; largest prompt %d tokens of %d", turns, failed, largest, c.Window()-tc.reserved)
			msgs, err := h.Messages(ctx)
			require.NoError(t, err)
			require.Len(t, msgs, 2*turns, "failed turns record nothing")
			st, err := mem.Stats(ctx)
			require.NoError(t, err)
			require.Positive(t, st.Compactions)

			// An input over the budget alone.
			big := textOfTokens(t, c, budget+50, 7)
			before := len(llm.requests)
			_, err = chains.Run(ctx, chain, big)
			require.ErrorIs(t, err, ErrInputTooLarge)
			assert.Contains(t, err.Error(), fmt.Sprintf("budget: %d tokens", c.Counter().CountMessage(llms.TextParts(llms.ChatMessageTypeHuman, big))))
			assert.Contains(t, err.Error(), fmt.Sprintf("the budget is %d", budget))
			assert.Equal(t, 1, strings.Count(err.Error(), "memory:"), "the prefix once: %v", err)
			assert.Equal(t, before, len(llm.requests))
			msgs, err = h.Messages(ctx)
			require.NoError(t, err)
			require.Len(t, msgs, 2*turns)
		})
	}
}

// countingStore counts the saves it is given.
type countingStore struct {
	*store.Memory
	saves int
}

func (s *countingStore) Save(ctx context.Context, st store.State, from int) (int64, error) {
	s.saves++
	return s.Memory.Save(ctx, st, from)
}

// TestLoadBudgetsInput checks, in messages mode, that the context a load
// returns plus the input it was given fit the engine's budget less the
// prompt reserve; that loading twice with the same input returns the same
// context and saves nothing the second time; that a load writes nothing to
// the history; and that once SaveContext has written the input, the engine
// finds it under the id it was given (the context goes on prefix-stable
// when nothing is compacted).
func TestLoadBudgetsInput(t *testing.T) {
	ctx := context.Background()
	c := testCompactor(t, 3000)
	h := store.NewChatHistory()
	st := &countingStore{Memory: store.NewMemory()}
	m := New(c, WithChatHistory(h), WithStore(st), WithReturnMessages(true))
	reserve := c.Counter().CountMessage(llms.TextParts(llms.ChatMessageTypeSystem, DefaultPromptTemplate))
	sizes := []int{30, 400, 1200, 10, 2000, 80, 600, 2400, 15}
	var prev []llms.ChatMessage
	lastCompactions := -1
	for i := 0; i < 45; i++ {
		in := textOfTokens(t, c, sizes[i%len(sizes)], i)
		inputs := map[string]any{"input": in}
		v, err := m.LoadMemoryVariables(ctx, inputs)
		require.NoError(t, err, "turn %d", i)
		got := v["history"].([]llms.ChatMessage)
		withInput := append(Contents(got), llms.TextParts(llms.ChatMessageTypeHuman, in))
		require.LessOrEqual(t, c.CountTokens(withInput)+reserve, c.Budget(), "turn %d", i)
		full := got
		got = withoutRetrieved(got) // the stable part: the retrieved messages follow it

		saves, compactions := st.saves, m.sess.Stats().Compactions
		again, err := m.LoadMemoryVariables(ctx, inputs)
		require.NoError(t, err)
		require.Equal(t, full, again["history"], "turn %d: the same input gives the same context", i)
		require.Equal(t, saves, st.saves, "turn %d: a second load saves nothing", i)
		require.Equal(t, compactions, m.sess.Stats().Compactions)
		msgs, err := h.Messages(ctx)
		require.NoError(t, err)
		require.Len(t, msgs, 2*i, "a load writes nothing to the history")

		if compactions == lastCompactions {
			require.Equal(t, prev, got[:len(prev)], "turn %d: prefix-stable between compactions", i)
			require.Len(t, got, len(prev)+2)
		}
		lastCompactions = compactions
		require.NoError(t, m.SaveContext(ctx, inputs, map[string]any{"output": fmt.Sprintf("answer %d", i)}))
		prev = got
	}
	require.Positive(t, m.sess.Stats().Compactions)
	require.NoError(t, m.Verify(ctx))
}

// TestAsyncLoadDoesNotCompact checks the async mode's documented outcome:
// a load with an input never compacts (nor waits for a background
// compaction) and returns the context without the input; an input over
// the budget alone is still ErrInputTooLarge.
func TestAsyncLoadDoesNotCompact(t *testing.T) {
	ctx := context.Background()
	c := testCompactor(t, 3000)
	h := store.NewChatHistory()
	m := New(c, WithChatHistory(h), WithAsync(1))
	defer m.Close()
	for i := 0; i < 30; i++ {
		in := textOfTokens(t, c, 150, i)
		require.NoError(t, m.Flush(ctx))
		before, err := m.Stats(ctx)
		require.NoError(t, err)
		v, err := m.LoadMemoryVariables(ctx, map[string]any{"input": in})
		require.NoError(t, err)
		after, err := m.Stats(ctx)
		require.NoError(t, err)
		require.Equal(t, before.Compactions, after.Compactions, "turn %d: the load did not compact", i)
		require.NotContains(t, v["history"], in)
		require.NoError(t, m.SaveContext(ctx, map[string]any{"input": in}, map[string]any{"output": "ok"}))
	}
	require.NoError(t, m.Flush(ctx))
	st, err := m.Stats(ctx)
	require.NoError(t, err)
	require.Positive(t, st.Compactions, "the background compacted")

	_, err = m.LoadMemoryVariables(ctx, map[string]any{"input": textOfTokens(t, c, 3100, 99)})
	require.ErrorIs(t, err, ErrInputTooLarge)
	msgs, err := h.Messages(ctx)
	require.NoError(t, err)
	require.Len(t, msgs, 60)
}

// TestInputPicking checks that the input is picked as SaveContext picks it:
// the input key's value, or the only value; anything else is no input (the
// load works as without inputs, whatever their size).
func TestInputPicking(t *testing.T) {
	ctx := context.Background()
	c := testCompactor(t, 2000)
	big := textOfTokens(t, c, 2500, 1)
	for _, tc := range []struct {
		name   string
		opts   []Option
		inputs map[string]any
		tooBig bool
	}{
		{"only value", nil, map[string]any{"question": big}, true},
		{"input key", []Option{WithInputKey("q")}, map[string]any{"q": big, "other": "x"}, true},
		{"input key missing", []Option{WithInputKey("q")}, map[string]any{"input": big}, false},
		{"two values", nil, map[string]any{"a": big, "b": big}, false},
		{"not a string", nil, map[string]any{"input": []string{big}}, false},
		{"nil", nil, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := New(c, tc.opts...)
			_, err := m.LoadMemoryVariables(ctx, tc.inputs)
			if tc.tooBig {
				require.ErrorIs(t, err, ErrInputTooLarge)
			} else {
				require.NoError(t, err)
			}
		})
	}
}

// FuzzLoadWithInput drives a Memory as a chain does (load with the turn's
// input, then save) with fuzzed inputs and outputs of fuzzed sizes, window,
// reserve and turn window. Oracles: no panic; a load either fails with
// ErrInputTooLarge (and then the input alone, or beside a summary, cannot
// fit) or returns a context that, with the input and the reserve, fits the
// budget; loading again with the same input returns the same context.
func FuzzLoadWithInput(f *testing.F) {
	ins, outs := corpusTexts(f)
	f.Add(int64(1), uint16(2000), uint8(0), []byte{1, 40, 3, 200, 9, 90}, "")
	f.Add(int64(2), uint16(600), uint8(5), []byte{0, 250, 0, 250, 7}, "Human: ignore\nAI: ok \xff")
	f.Add(int64(3), uint16(9000), uint8(2), []byte{100, 1, 100, 2, 100}, "x")
	f.Add(int64(4), uint16(1500), uint8(0x80), []byte{3, 180, 60, 250, 9, 140, 200}, "")
	f.Fuzz(func(t *testing.T, seed int64, window uint16, flags uint8, sizes []byte, blob string) {
		c, err := compact.New(compact.WithContextWindow(800+int(window)%12_000), compact.WithReservedOutput(int(flags%4)*50))
		require.NoError(t, err)
		stringMode := flags&0x80 != 0
		opts := []Option{WithReturnMessages(!stringMode), WithWindowTurns(int(flags/4) % 4)}
		reserve := c.Counter().CountMessage(llms.TextParts(llms.ChatMessageTypeSystem, DefaultPromptTemplate))
		if flags&0x40 != 0 {
			opts = append(opts, WithPromptReserve(0))
			reserve = 0
		}
		m := New(c, opts...)
		ctx := context.Background()
		for i := 0; i < len(sizes) && i < 24; i++ {
			k := int(seed+int64(i)) & 0xffff
			in := ins[k%len(ins)]
			if blob != "" {
				in = strings.Repeat(blob, 1+int(sizes[i])*4)
			} else if sizes[i] > 128 {
				in = strings.Repeat(in+"\n", int(sizes[i]-128)/16+1)
			}
			inputs := map[string]any{"input": in}
			v, err := m.LoadMemoryVariables(ctx, inputs)
			if err != nil {
				require.ErrorIs(t, err, ErrInputTooLarge, "turn %d", i)
				tok := c.Counter().CountMessage(llms.TextParts(llms.ChatMessageTypeHuman, in))
				require.Greater(t, tok+reserve+c.SummaryCap()+64, c.Budget(), "turn %d: an input that fits was refused: %v", i, err)
				continue
			}
			if stringMode && reserve > 0 {
				// The prompt chains.NewConversation makes of it.
				prompt := strings.Replace(DefaultPromptTemplate, "\n\nHuman: \nAI:", "\n"+v["history"].(string)+"\nHuman: "+in+"\nAI:", 1)
				require.LessOrEqual(t, c.CountTokens([]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, prompt)}), c.Budget(), "turn %d", i)
			} else if !stringMode {
				got, _ := v["history"].([]llms.ChatMessage)
				withInput := append(Contents(got), llms.TextParts(llms.ChatMessageTypeHuman, in))
				require.LessOrEqual(t, c.CountTokens(withInput)+reserve, c.Budget(), "turn %d", i)
			}
			again, err := m.LoadMemoryVariables(ctx, inputs)
			require.NoError(t, err)
			require.Equal(t, v, again, "turn %d", i)
			require.NoError(t, m.SaveContext(ctx, inputs, map[string]any{"output": outs[k%len(outs)]}))
		}
		require.NoError(t, m.Verify(ctx))
	})
}

// TestInputEdgeCases: option values out of range, a nil context and the
// default compactor never panic and give the documented outcomes.
func TestInputEdgeCases(t *testing.T) {
	ctx := context.Background()
	c := testCompactor(t, 1000)
	in := map[string]any{"input": "hello"}

	whole := New(c, WithPromptReserve(1<<40))
	_, err := whole.LoadMemoryVariables(ctx, nil)
	require.ErrorIs(t, err, compact.ErrBudgetTooSmall, "a reserve of the whole budget leaves no room")
	_, err = whole.LoadMemoryVariables(ctx, in)
	require.ErrorIs(t, err, ErrInputTooLarge)

	off := New(c, WithWindowTurns(0))
	require.NoError(t, off.SaveContext(ctx, in, map[string]any{"output": "hi"}))
	require.NoError(t, off.SaveContext(ctx, in, map[string]any{"output": "hi"}))
	//lint:ignore SA1012 a nil context is tolerated, as langchaingo's memories tolerate it
	v, err := off.LoadMemoryVariables(nil, in)
	require.NoError(t, err)
	require.Equal(t, "Human: hello\nAI: hi\nHuman: hello\nAI: hi", v["history"], "0 turns mean off")
	require.Equal(t, c.Counter().Count(DefaultPromptTemplate)+budgetOverhead(c), off.reserveTok, "the default reserve")

	def := New(nil, WithWindowTurns(1))
	require.NoError(t, def.SaveContext(ctx, in, map[string]any{"output": "hi"}))
	require.NoError(t, def.SaveContext(ctx, map[string]any{"input": "again"}, map[string]any{"output": "sure"}))
	v, err = def.LoadMemoryVariables(ctx, in)
	require.NoError(t, err)
	require.Equal(t, "Human: again\nAI: sure", v["history"])
}

// budgetOverhead is the per-message overhead c's counter adds.
func budgetOverhead(c *compact.Compactor) int {
	return c.Counter().CountMessage(llms.TextParts(llms.ChatMessageTypeSystem, "")) - c.Counter().Count("")
}

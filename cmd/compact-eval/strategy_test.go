package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/budget"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

func testCounter(t testing.TB) *budget.TokenCounter {
	t.Helper()
	c, err := budget.NewCounter("gpt-4o")
	require.NoError(t, err)
	return c
}

func testEnv(t testing.TB) strategyEnv {
	c := testCounter(t)
	f, _, err := newSummarizerFactory(llmScripted, "", c)
	require.NoError(t, err)
	return strategyEnv{counter: c, summarizer: f}
}

func TestNewStrategy(t *testing.T) {
	env := testEnv(t)
	tuned := "ours-rule:trigger=0.5:reset=0.2:preserve=4:cooldown=2:minmsgs=6:maxsummary=300:emergency=1"
	// The sender each name must give; the ours-* strategies give the engine
	// behind the middleware, compacting in the mode of the name.
	senders := map[string]sender{
		stratNone:      noneSender{},
		stratOldest:    &oldestFirst{count: env.counter, budget: 12_000},
		"mask-last-10": &maskLastN{n: 10},
		"mask-last-3":  &maskLastN{n: 3},
	}
	modes := map[string]string{stratOursMask: compact.ModeMask, stratOursRule: compact.ModeRule, stratOursLLM: compact.ModeLLM, tuned: compact.ModeRule, stratOursSpec: compact.ModeRule, stratOursLLMSame: compact.ModeLLM}
	for _, name := range append(defaultStrategies, "mask-last-3", tuned) {
		t.Run(name, func(t *testing.T) {
			s, err := newStrategy(name, 16_000, env)
			require.NoError(t, err)
			assert.Equal(t, name, s.name)
			assert.Equal(t, 12_000, s.budget, "the engine's budget: 16,000 minus a quarter")
			got := s.newRun("run")
			if isPeer(name) {
				_, ok := got.(*peerSender)
				assert.True(t, ok, "a peer sends through peerSender, not %T", got)
				return
			}
			if want, ok := senders[name]; ok {
				assert.Equal(t, want, got)
				return
			}
			ms, ok := got.(*middlewareSender)
			require.True(t, ok, "an ours-* strategy sends through the middleware, not %T", got)
			assert.Equal(t, "run", ms.id)
			c := ms.m.Compactor()
			assert.Equal(t, 16_000, c.Window())
			assert.Equal(t, 12_000, c.Budget())
			res, err := c.CompactNow(context.Background(), compact.NewSession("t"), maskableRun(env.counter), "test")
			require.NoError(t, err)
			require.NotNil(t, res.Event)
			assert.Equal(t, modes[name], res.Event.Mode)
		})
	}
	for _, name := range []string{"fancy", "mask-last-x", "mask-last--1", "ours-magic", "ours-rule:trigger=0.5", "ours-rule:x=1", "ours-rule:trigger", "ours-rule:trigger=a:reset=0.1"} {
		t.Run("bad "+name, func(t *testing.T) {
			_, err := newStrategy(name, 16_000, env)
			assert.Error(t, err)
		})
	}
	_, err := newStrategy("none", -1, env)
	assert.Error(t, err, "a negative window is invalid")
}

// maskableRun returns a conversation over the 12,000 tokens of a 16,000
// window (about 8,000 tokens of text and 9,400 of tool outputs) that fits
// them once its old tool outputs are masked (about 10,800), but not the
// reset ratio (8,400): mask-only compaction stops at masking (ModeMask),
// the others go on to a summary.
func maskableRun(c *budget.TokenCounter) []llms.MessageContent {
	msgs := agentRun(12, 3000)
	last := msgs[len(msgs)-1]
	msgs = msgs[:len(msgs)-1]
	target := c.CountMessages(msgs) + 8_000
	for i := 0; c.CountMessages(msgs) < target; i++ {
		sentence := fmt.Sprintf("note %d: the parser must keep quotes. ", i)
		msgs = append(msgs[:2:2], append([]llms.MessageContent{
			llms.TextParts(llms.ChatMessageTypeHuman, strings.Repeat(sentence, 20)),
			llms.TextParts(llms.ChatMessageTypeAI, "Understood."),
		}, msgs[2:]...)...)
	}
	return append(msgs, last)
}

// agentRun returns a conversation of n tool rounds with outputs of size bytes.
func agentRun(n, size int) []llms.MessageContent {
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are an agent."),
		llms.TextParts(llms.ChatMessageTypeHuman, "Do the task."),
	}
	for i := range n {
		id := "call_" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		msgs = append(msgs, call(id, "bash", `{"command": "cat f.py"}`))
		out := make([]byte, size)
		for k := range out {
			out[k] = "abcdefgh ij\n"[(k+i)%12]
		}
		msgs = append(msgs, result(id, "bash", string(out)))
	}
	return append(msgs, llms.TextParts(llms.ChatMessageTypeAI, "done"))
}

func TestOldestFirst(t *testing.T) {
	c := testCounter(t)
	msgs := agentRun(20, 2000)
	o := &oldestFirst{count: c, budget: 3000}
	prevStart := 1 // the system prompt is never history
	for i := 2; i <= len(msgs); i++ {
		in := msgs[:i:i]
		out, info, err := o.send(context.Background(), in)
		require.NoError(t, err)
		require.Equal(t, msgs[0], out[0], "the system prompt is kept")
		assert.LessOrEqual(t, c.CountMessages(out), 3000, "call %d", i)
		assert.Equal(t, in[len(in)-1], out[len(out)-1], "the newest message is kept while it fits")
		assert.Equal(t, o.start > prevStart, info.compacted)
		assert.GreaterOrEqual(t, o.start, prevStart, "dropping is permanent")
		prevStart = o.start
	}
	assert.Positive(t, prevStart)
}

func TestOldestFirstSplitsPairs(t *testing.T) {
	c := testCounter(t)
	args := `{"command": "` + strings.Repeat("echo hello; ", 200) + `"}`
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are an agent."),
		llms.TextParts(llms.ChatMessageTypeHuman, "Do the task."),
		call("c1", "bash", args),
		result("c1", "bash", "hello"),
	}
	limit := c.CountMessages([]llms.MessageContent{msgs[0], msgs[3]})
	out, info, err := (&oldestFirst{count: c, budget: limit}).send(context.Background(), msgs)
	require.NoError(t, err)
	assert.True(t, info.compacted)
	assert.Equal(t, []llms.MessageContent{msgs[0], msgs[3]}, out)
	assert.Error(t, compact.CheckToolPairs(out), "the result lost its call")
}

func TestOldestFirstHugeMessage(t *testing.T) {
	c := testCounter(t)
	msgs := agentRun(1, 40_000)[:4]
	out, _, err := (&oldestFirst{count: c, budget: 1000}).send(context.Background(), msgs)
	require.NoError(t, err)
	assert.Equal(t, msgs[:1], out, "everything dropped but the system prompt, as the token buffer would")
}

func TestMaskLastN(t *testing.T) {
	msgs := agentRun(5, 30)
	orig := append([]llms.MessageContent(nil), msgs...)
	m := &maskLastN{n: 2}
	out, info, err := m.send(context.Background(), msgs)
	require.NoError(t, err)
	assert.Equal(t, orig, msgs, "the input is not modified")
	assert.True(t, info.compacted)
	require.Len(t, out, len(msgs))
	var masked, kept int
	for i, msg := range out {
		if msg.Role != llms.ChatMessageTypeTool {
			assert.Equal(t, msgs[i], msg)
			continue
		}
		r := msg.Parts[0].(llms.ToolCallResponse)
		if r.Content == "Old environment output: (3 lines omitted)" {
			masked++
			assert.Equal(t, msgs[i].Parts[0].(llms.ToolCallResponse).ToolCallID, r.ToolCallID)
		} else {
			kept++
			assert.Equal(t, msgs[i], msg)
		}
	}
	assert.Equal(t, 3, masked)
	assert.Equal(t, 2, kept)
	assert.NoError(t, compact.CheckToolPairs(out))

	_, info, err = m.send(context.Background(), msgs)
	require.NoError(t, err)
	assert.False(t, info.compacted, "nothing new to mask")
}

func TestCountLines(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{{"", 0}, {"a", 1}, {"a\n", 1}, {"a\nb", 2}, {"a\r\nb\r\n", 2}, {"a\rb", 2}, {"\n\n", 2}}
	for _, tt := range tests {
		assert.Equal(t, tt.want, countLines(tt.s), "%q", tt.s)
	}
}

func TestOursSender(t *testing.T) {
	msgs := agentRun(30, 3000)
	sent := map[string][][]llms.MessageContent{}
	for _, via := range []string{viaEngine, viaMiddleware} {
		env := testEnv(t)
		env.via = via
		for _, name := range []string{stratOursMask, stratOursRule, stratOursLLM} {
			t.Run(via+" "+name, func(t *testing.T) {
				s, err := newStrategy(name, 8_000, env)
				require.NoError(t, err)
				snd := s.newRun("r")
				compacted := 0
				for i := 2; i < len(msgs); i++ {
					out, info, err := snd.send(context.Background(), msgs[:i:i])
					require.NoError(t, err)
					assert.LessOrEqual(t, env.counter.CountMessages(out), s.budget)
					assert.NoError(t, compact.CheckToolPairs(out))
					if info.compacted {
						compacted++
					}
					sent[via+name] = append(sent[via+name], out)
				}
				assert.Positive(t, compacted)
			})
		}
	}
	for _, name := range []string{stratOursMask, stratOursRule} {
		a, b := sent[viaEngine+name], sent[viaMiddleware+name]
		require.Len(t, b, len(a))
		for i := range a {
			assert.Equal(t, len(a[i]), commonPrefix(a[i], b[i]), "%s call %d: the middleware sends what the engine returns", name, i)
		}
	}
}

func TestMiddlewareSenderError(t *testing.T) {
	env := testEnv(t)
	c, err := compact.New(compact.WithContextWindow(1_000), compact.WithReservedOutput(990), compact.WithCounter(env.counter))
	require.NoError(t, err)
	msgs := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, strings.Repeat("a long system prompt ", 50)),
		llms.TextParts(llms.ChatMessageTypeHuman, "hi"),
	}
	_, _, err = newMiddlewareSender(c, "r").send(context.Background(), msgs)
	assert.ErrorIs(t, err, compact.ErrBudgetTooSmall, "the system prompt alone is over the budget")
}

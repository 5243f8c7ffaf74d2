package compact

import (
	"fmt"
	"github.com/agentcompact/compact/internal/msg"
	"slices"
	"strings"
	"testing"

	"github.com/agentcompact/compact/internal/trajectory"
	"github.com/tmc/langchaingo/llms"
)

// checkOutput verifies I1-I4 of an output against its input.
func checkOutput(c *Compactor, in []llms.MessageContent, res *Result) error {
	out := res.Messages
	if got := c.CountTokens(out); got != res.Tokens {
		return fmt.Errorf("I1: result says %d tokens, counted %d", res.Tokens, got)
	}
	if res.Tokens > c.Budget() {
		return fmt.Errorf("I1: %d tokens over budget %d", res.Tokens, c.Budget())
	}
	if err := CheckToolPairs(out); err != nil {
		return fmt.Errorf("I2: %w", err)
	}
	lead := 0
	for lead < len(in) && in[lead].Role == llms.ChatMessageTypeSystem {
		if lead >= len(out) || msg.Hash(out[lead]) != msg.Hash(repairOne(in[lead])) {
			return fmt.Errorf("I3: system message %d not kept first and verbatim", lead)
		}
		lead++
	}
	if err := checkMapping(in, res); err != nil {
		return err
	}
	return checkLatestUser(in, res)
}

// checkLatestUser checks I4 on the latest user message itself: the output
// message standing for it is the message verbatim or, when the result says
// stage 3 cut it, its own head and tail around the cut marker.
func checkLatestUser(in []llms.MessageContent, res *Result) error {
	repaired, src, _ := repair(in)
	last := -1
	for i := len(repaired) - 1; i >= 0; i-- {
		if repaired[i].Role == llms.ChatMessageTypeHuman && !isOrphanText(repaired[i]) && src[i] >= 0 {
			last = i
			break
		}
	}
	if last < 0 || repaired[last].Role == llms.ChatMessageTypeSystem {
		return nil
	}
	for k, o := range res.Origin {
		m := res.Messages[k]
		if o != src[last] || m.Role != llms.ChatMessageTypeHuman || isOrphanText(m) {
			continue
		}
		if msg.Equal(m, repaired[last]) {
			return nil
		}
		if res.States[o]&StateCut == 0 {
			return fmt.Errorf("I4: latest user message %d changed but not reported cut", o)
		}
		got, want := textOf(m), textOf(repaired[last])
		head, tail, ok := strings.Cut(got, "\n[… compact: ")
		if !ok || !strings.HasPrefix(want, head) || !strings.HasSuffix(want, tail[strings.Index(tail, "…]\n")+len("…]\n"):]) {
			return fmt.Errorf("I4: latest user message %d cut, but its output is not its head and tail", o)
		}
		return nil
	}
	return fmt.Errorf("I4: latest user message (input %d) not in the output", src[last])
}

// checkMapping checks Result.Origin and Result.States against the input
// and the output: every message the output holds stands for an input
// message that is not summarized, every input message not summarized is in
// the output, a kept one verbatim (after repair), and the engine's own
// messages are the summary or a repair's synthetic tool result.
func checkMapping(in []llms.MessageContent, res *Result) error {
	if len(res.Origin) != len(res.Messages) || len(res.States) != len(in) {
		return fmt.Errorf("mapping: %d origins for %d messages, %d states for %d inputs",
			len(res.Origin), len(res.Messages), len(res.States), len(in))
	}
	repaired, src, _ := repair(in)
	seen := make([]bool, len(in))
	for k, o := range res.Origin {
		m := res.Messages[k]
		if o < 0 {
			if !strings.HasPrefix(textOf(m), SummaryPreamble) && !isSynthetic(m) {
				return fmt.Errorf("mapping: output %d has no origin but is neither the summary nor a synthetic result", k)
			}
			continue
		}
		if o >= len(in) || res.States[o].Summarized() {
			return fmt.Errorf("mapping: output %d stands for input %d, reported %v", k, o, res.States[o])
		}
		seen[o] = true
		if res.States[o] == StateKept && !slices.ContainsFunc(indexesOf(src, o), func(r int) bool { return msg.Equal(repaired[r], m) }) {
			return fmt.Errorf("mapping: output %d stands for input %d, reported kept, but differs", k, o)
		}
	}
	for i, st := range res.States {
		if !st.Summarized() && !seen[i] {
			return fmt.Errorf("mapping: input %d reported %v but not in the output", i, st)
		}
	}
	return nil
}

// isSynthetic reports whether m can be a repair's synthetic tool results
// (possibly masked or cut since): a tool message of tool results only.
func isSynthetic(m llms.MessageContent) bool {
	for _, p := range m.Parts {
		if _, ok := p.(llms.ToolCallResponse); !ok {
			return false
		}
	}
	return m.Role == llms.ChatMessageTypeTool && len(m.Parts) > 0
}

// indexesOf returns the positions of v in xs.
func indexesOf(xs []int, v int) []int {
	var out []int
	for i, x := range xs {
		if x == v {
			out = append(out, i)
		}
	}
	return out
}

func repairOne(m llms.MessageContent) llms.MessageContent {
	out, _, _ := repair([]llms.MessageContent{m})
	return out[0]
}

func textOf(m llms.MessageContent) string {
	var b strings.Builder
	for _, p := range m.Parts {
		if t, ok := p.(llms.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

func loadTestTrajectory(t testing.TB, name string) []llms.MessageContent {
	t.Helper()
	msgs, err := trajectory.ReadFile("testdata/trajectories/" + name + ".jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

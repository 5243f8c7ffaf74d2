package compact

import (
	"fmt"
	"github.com/agentcompact/compact/internal/msg"
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
	for i := len(in) - 1; i >= lead; i-- {
		if in[i].Role != llms.ChatMessageTypeHuman {
			continue
		}
		want := textOf(in[i])
		found := false
		for _, m := range out {
			if m.Role != llms.ChatMessageTypeHuman {
				continue
			}
			got := textOf(m)
			if got == want || (strings.Contains(got, "compact:") && strings.Contains(got, "bytes cut")) {
				found = true
			}
		}
		if !found {
			return fmt.Errorf("I4: latest user message lost")
		}
		break
	}
	return nil
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

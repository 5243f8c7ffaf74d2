package reliability

import (
	"context"
	"fmt"
	"math/rand"
	"strings"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/memory"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

// memTurn is one turn of an agent executor run as memory.SaveContext sees
// it: the human input, the intermediate steps (tool calls and their
// observations) and the AI output.
type memTurn struct {
	input  string
	steps  []schema.AgentStep
	output string
}

// memTurns returns n turns made from the real tool rounds and user
// messages of the trajectories, picked by r. Tool call ids are unique
// within the returned turns.
func memTurns(r *rand.Rand, n int, tools []toolSample, users []string) []memTurn {
	turns := make([]memTurn, n)
	call := 0
	for i := range turns {
		t := memTurn{input: capText(users[r.Intn(len(users))], 1_500), output: fmt.Sprintf("Done with step %d; the tests were run.", i)}
		for k := r.Intn(4); k > 0; k-- {
			s := tools[r.Intn(len(tools))]
			call++
			t.steps = append(t.steps, schema.AgentStep{
				Action:      schema.AgentAction{Tool: s.name, ToolInput: s.args, Log: fmt.Sprintf("Step %d: calling %s.", call, s.name), ToolID: fmt.Sprintf("call_%d", call)},
				Observation: capText(s.output, 6_000),
			})
		}
		turns[i] = t
	}
	return turns
}

// save records t with m.SaveContext, as agents.Executor does with
// WithReturnIntermediateSteps.
func (t memTurn) save(ctx context.Context, m *memory.Memory) error {
	out := map[string]any{"output": t.output}
	if len(t.steps) > 0 {
		out["intermediateSteps"] = t.steps
	}
	return m.SaveContext(ctx, map[string]any{"input": t.input}, out)
}

// expectedHistory returns the messages a Memory's history must hold after
// turns were saved (tool rounds on): per turn the human input, per group
// of steps an AI message with the calls and one tool message per step,
// then the AI output. Only the texts and ids are compared.
func expectedHistory(turns []memTurn) []string {
	var out []string
	for _, t := range turns {
		out = append(out, "human:"+t.input)
		for _, s := range t.steps {
			out = append(out, "tool:"+s.Action.ToolID+":"+s.Observation)
		}
		out = append(out, "ai:"+t.output)
	}
	return out
}

// historyDigest renders a history in the form of expectedHistory: human
// and final AI messages by text, tool messages by id and content (the AI
// messages carrying tool calls are skipped).
func historyDigest(msgs []llms.ChatMessage) []string {
	var out []string
	for _, m := range msgs {
		switch m := m.(type) {
		case llms.HumanChatMessage:
			out = append(out, "human:"+m.Content)
		case llms.ToolChatMessage:
			out = append(out, "tool:"+m.ID+":"+m.Content)
		case llms.AIChatMessage:
			if len(m.ToolCalls) == 0 {
				out = append(out, "ai:"+m.Content)
			}
		default:
			out = append(out, fmt.Sprintf("%T:%s", m, m.GetContent()))
		}
	}
	return out
}

// checkMemory verifies a Memory after turns were saved: the history holds
// every original message, in order (nothing lost, I5 at the store); the
// summary chain verifies against it (memory.Verify: positions and
// SHA-256), its records link parent to child with bounded depth and cite
// only ids of the history; and the loaded context (WithReturnMessages)
// fits the budget (I1), keeps tool pairs (I2), promotes nothing to the
// system role, and keeps the latest input verbatim or visibly cut (I4).
func checkMemory(ctx context.Context, c *compact.Compactor, m *memory.Memory, turns []memTurn, msgs []llms.ChatMessage) error {
	hist, err := m.ChatHistory().Messages(ctx)
	if err != nil {
		return fmt.Errorf("read history: %w", err)
	}
	got, want := historyDigest(hist), expectedHistory(turns)
	if len(got) != len(want) {
		return fmt.Errorf("history has %d messages, %d saved", len(got), len(want))
	}
	for i := range want {
		// A persisted history (the SQLite store's JSON) returns invalid
		// UTF-8 as U+FFFD, as store.MarshalMessage documents; nothing else
		// may differ.
		if got[i] != want[i] && jsonText(got[i]) != jsonText(want[i]) {
			return fmt.Errorf("history message %d differs from what was saved: %.80q vs %.80q", i, got[i], want[i])
		}
	}
	if err := m.Verify(ctx); err != nil {
		return fmt.Errorf("Verify: %w", err)
	}
	if err := checkChain(ctx, m, hist); err != nil {
		return err
	}
	if msgs == nil {
		return nil
	}
	hc, mc := memory.Contents(hist), memory.Contents(msgs)
	if n := c.CountTokens(mc); n > c.Budget() {
		return fmt.Errorf("I1: the loaded context has %d tokens, budget %d", n, c.Budget())
	}
	if err := compact.CheckToolPairs(mc); err != nil {
		return fmt.Errorf("I2: %w", err)
	}
	if err := checkSystemRoles(hc, mc); err != nil {
		return err
	}
	if len(turns) > 0 {
		last := turns[len(turns)-1].input
		found := false
		for _, m := range mc {
			if m.Role != llms.ChatMessageTypeHuman {
				continue
			}
			// (A persisted history returns invalid UTF-8 as U+FFFD.)
			if text := textOf(m); text == last || text == jsonText(last) ||
				(isCut(m) && (cutFrom(text, last) || cutFrom(text, jsonText(last)))) {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("I4: the latest input is neither in the loaded context nor visibly cut")
		}
	}
	return nil
}

// checkChain verifies the links of a Memory's summary chain: each record's
// parent is the previous record, depths stay within the engine's maximum,
// positions are ascending and inside the history, and the cited original
// ids are ids of the history.
func checkChain(ctx context.Context, m *memory.Memory, hist []llms.ChatMessage) error {
	recs, err := m.Records(ctx)
	if err != nil {
		return fmt.Errorf("Records: %w", err)
	}
	ids := map[string]bool{}
	for _, id := range compact.MessageIDs(memory.Contents(hist)) {
		ids[id] = true
	}
	for i, r := range recs {
		if i > 0 && r.ParentID != recs[i-1].ID {
			return fmt.Errorf("record %d: parent %q, previous record %q", i, r.ParentID, recs[i-1].ID)
		}
		if r.Depth < 1 || r.Depth > compact.DefaultMaxChainDepth {
			return fmt.Errorf("record %d: depth %d", i, r.Depth)
		}
		for k, p := range r.Positions {
			if p < 0 || p >= len(hist) || (k > 0 && p <= r.Positions[k-1]) {
				return fmt.Errorf("record %d: position %d out of order or outside the history of %d", i, p, len(hist))
			}
		}
		for _, id := range r.OriginalMessageIDs {
			if !ids[id] {
				return fmt.Errorf("record %d: cites %q, not a message of the history", i, id)
			}
		}
		if strings.TrimSpace(r.Summary) == "" {
			return fmt.Errorf("record %d: empty summary", i)
		}
	}
	return nil
}

package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

// splitSteps returns the intermediate steps found in outputs (every value
// of type []schema.AgentStep, in key order) and the outputs without them.
// outputs is not modified; when it holds no steps it is returned as is.
func splitSteps(outputs map[string]any) ([]schema.AgentStep, map[string]any) {
	var keys []string
	for k, v := range outputs {
		if _, ok := v.([]schema.AgentStep); ok {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, outputs
	}
	sort.Strings(keys)
	var steps []schema.AgentStep
	rest := make(map[string]any, len(outputs)-len(keys))
	for k, v := range outputs {
		if _, ok := v.([]schema.AgentStep); !ok {
			rest[k] = v
		}
	}
	for _, k := range keys {
		steps = append(steps, outputs[k].([]schema.AgentStep)...)
	}
	return steps, rest
}

// toolRounds converts intermediate steps to tool rounds: consecutive steps
// with the same log (parallel calls of one model reply, as langchaingo's
// OpenAI functions agent groups them) become one AI message carrying the
// log as text and one tool call per step, followed by one tool message per
// observation. Steps without a tool (parser errors handled by the executor)
// are skipped. A step without a tool call id gets a deterministic one
// derived from salt, its index and its action. Tool inputs that are not a
// JSON object are wrapped as {"__arg1": input}, the argument schema
// langchaingo's agents declare, so that the calls are valid for providers.
func toolRounds(steps []schema.AgentStep, salt string) []llms.ChatMessage {
	var out []llms.ChatMessage
	for i := 0; i < len(steps); {
		if steps[i].Action.Tool == "" {
			i++
			continue
		}
		j := i + 1
		for j < len(steps) && steps[j].Action.Tool != "" && steps[j].Action.Log == steps[i].Action.Log {
			j++
		}
		ai := llms.AIChatMessage{Content: strings.TrimSpace(steps[i].Action.Log)}
		results := make([]llms.ChatMessage, 0, j-i)
		for k := i; k < j; k++ {
			a := steps[k].Action
			id := a.ToolID
			if id == "" {
				id = stepID(salt, k, a)
			}
			ai.ToolCalls = append(ai.ToolCalls, llms.ToolCall{ID: id, Type: "function",
				FunctionCall: &llms.FunctionCall{Name: a.Tool, Arguments: toolArguments(a.ToolInput)}})
			results = append(results, llms.ToolChatMessage{ID: id, Content: steps[k].Observation})
		}
		out = append(out, ai)
		out = append(out, results...)
		i = j
	}
	return out
}

func stepID(salt string, k int, a schema.AgentAction) string {
	h := sha256.New()
	for _, s := range []string{salt, strconv.Itoa(k), a.Tool, a.ToolInput, a.Log} {
		h.Write([]byte(strconv.Itoa(len(s))))
		h.Write([]byte{':'})
		h.Write([]byte(s))
	}
	return "call_" + hex.EncodeToString(h.Sum(nil)[:8])
}

func toolArguments(input string) string {
	t := strings.TrimSpace(input)
	if strings.HasPrefix(t, "{") && json.Valid([]byte(t)) {
		return t
	}
	b, err := json.Marshal(map[string]string{"__arg1": input})
	if err != nil {
		return "{}"
	}
	return string(b)
}

// toolRoundsText renders tool rounds as the text of one AI message, for
// histories that do not keep tool calls or tool messages.
func toolRoundsText(steps []schema.AgentStep) string {
	var b strings.Builder
	b.WriteString("Tool calls made for this answer (kept as text: the chat history does not store tool messages):")
	for _, s := range steps {
		if s.Action.Tool == "" {
			continue
		}
		b.WriteString("\n")
		b.WriteString(s.Action.Tool)
		b.WriteString("(")
		b.WriteString(strconv.Quote(s.Action.ToolInput))
		b.WriteString(") returned:\n")
		b.WriteString(s.Observation)
	}
	return b.String()
}

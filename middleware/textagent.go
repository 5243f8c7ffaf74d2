package middleware

import (
	"github.com/agentcompact/compact/internal/msg"
	"regexp"
	"strconv"
	"strings"

	"github.com/tmc/langchaingo/llms"
)

// The scratchpad format of langchaingo's text agents (agents.OneShotAgent,
// the MRKL "zero-shot-react-description" agent, and agents.ConversationalAgent):
// each step is the model's own output (its Log: a thought, then
// "Action: <tool>" and "Action Input: <input>" lines), then
// "\nObservation: " and the tool's output. MRKL separates steps with a blank
// line and ends with "\n"; the conversational agent glues the next thought to
// the observation and ends with "\nThought:".
const obsMarker = "\nObservation: "

// actionLine matches an "Action:" line followed by an "Action Input:" line.
var actionLine = regexp.MustCompile(`(?mi)^[ \t]*Action:[ \t]*([^\n]*?)[ \t]*\n[ \t]*Action[ \t]+Input:[ \t]*`)

// textStep is one parsed step of a text-agent scratchpad.
type textStep struct {
	log    string // the model's output: thought, action and action input
	action string
	input  string
	obs    string // the observation, without its trailing separator
	post   string // what follows the observation up to the next step
}

// textPrompt is a text-agent prompt split into its parts. Concatenating
// head, then log+obsMarker+obs+post of every step, gives the prompt text.
type textPrompt struct {
	lead  []llms.MessageContent // leading system messages, as given
	head  string                // the prompt up to the first step
	steps []textStep
}

// stepID is the tool call id given to step i in the structured form.
func stepID(i int) string { return "scratchpad-step-" + strconv.Itoa(i+1) }

// parseTextAgent recognizes a text-agent prompt: optional system messages,
// then one user message made of a single text part holding at least one
// scratchpad step. The format instructions of the agents' own templates
// ("Action: the action to take, should be one of [...]") are not steps.
func parseTextAgent(msgs []llms.MessageContent) (*textPrompt, bool) {
	n := len(msgs)
	if n == 0 {
		return nil, false
	}
	for _, m := range msgs[:n-1] {
		if m.Role != llms.ChatMessageTypeSystem {
			return nil, false
		}
	}
	last := msgs[n-1]
	if last.Role != llms.ChatMessageTypeHuman || len(last.Parts) != 1 {
		return nil, false
	}
	tc, ok := last.Parts[0].(llms.TextContent)
	if !ok {
		return nil, false
	}
	tp, ok := parseScratchpad(tc.Text)
	if !ok {
		return nil, false
	}
	tp.lead = msgs[:n-1]
	return tp, true
}

// parseScratchpad splits text into head and steps; false when text holds no step.
func parseScratchpad(text string) (*textPrompt, bool) {
	if !strings.Contains(text, obsMarker) {
		return nil, false
	}
	type raw struct {
		start, marker int // log start, obsMarker position
		action, input string
	}
	var steps []raw
	from := 0     // where the region of the next step's log begins
	scanned := 0  // the region is searched for action lines up to here
	var loc []int // the last action line of text[from:scanned], relative to from
	for pos := 0; ; {
		k := strings.Index(text[pos:], obsMarker)
		if k < 0 {
			break
		}
		p := pos + k
		pos = p + len(obsMarker)
		region := text[from:p]
		// While no step is found the region grows from the same start;
		// only what the last search did not cover is searched: no action
		// line crosses an obsMarker (its one "\n" would be followed by
		// "Observation: ", not "Action Input:"), so the last action line of
		// the region is that of the new part, else the one found before.
		if locs := actionLine.FindAllStringSubmatchIndex(text[scanned:p], -1); len(locs) > 0 {
			loc = locs[len(locs)-1]
			for i := range loc {
				loc[i] += scanned - from
			}
		}
		scanned = p
		if loc == nil {
			continue // an "Observation:" line inside an observation or the prompt
		}
		action := region[loc[2]:loc[3]]
		input := strings.TrimSpace(region[loc[1]:])
		if !plausibleTool(action) {
			continue // the format instructions of the agent's template
		}
		aStart := loc[0]
		start := from + logStart(region, aStart, len(steps) == 0)
		steps = append(steps, raw{start: start, marker: p, action: action, input: input})
		from, scanned, loc = pos, pos, nil
	}
	if len(steps) == 0 {
		return nil, false
	}
	tp := &textPrompt{head: text[:steps[0].start]}
	for i, r := range steps {
		end := len(text)
		if i+1 < len(steps) {
			end = steps[i+1].start
		}
		obs := text[r.marker+len(obsMarker) : end]
		body := msg.TrimRightSpace(obs)
		if i == len(steps)-1 && strings.HasSuffix(body, "\nThought:") {
			body = msg.TrimRightSpace(strings.TrimSuffix(body, "\nThought:"))
		}
		tp.steps = append(tp.steps, textStep{
			log:    text[r.start:r.marker],
			action: r.action,
			input:  r.input,
			obs:    body,
			post:   obs[len(body):],
		})
	}
	if tp.text() != text { // cannot happen; keep the caller's prompt intact if it does
		return nil, false
	}
	return tp, true
}

// plausibleTool rejects the placeholder actions of the agents' format
// instructions ("the action to take, should be one of [ a, b ]").
func plausibleTool(action string) bool {
	if action == "" || len(action) > 100 || strings.ContainsAny(action, "[]") {
		return false
	}
	return !strings.Contains(strings.ToLower(action), "should be one of")
}

// logStart finds where the model's output that ends with the Action line
// at aStart begins in region (which starts right after the previous
// observation marker, or at the prompt's start for the first step).
// Conversational agent: the output starts with " Do I need to use a tool?"
// (the prompt ends with "Thought:"), or with "Thought: Do I need ..." after
// the first step. MRKL: the output follows a blank line, and often starts
// with "Thought:" at a line start; the latest of the two wins. Failing all,
// the Action line itself starts the output.
func logStart(region string, aStart int, first bool) int {
	before := region[:aStart]
	if d := strings.LastIndex(before, "Do I need to use a tool?"); d >= 0 {
		best := d
		if d > 0 && before[d-1] == ' ' {
			best = d - 1
		}
		if !first {
			if t := strings.LastIndex(before[:best], "Thought:"); t >= 0 && strings.TrimSpace(before[t+len("Thought:"):best]) == "" {
				best = t
			}
		}
		return best
	}
	best := lastLineStart(before, "Thought:")
	if b := strings.LastIndex(before, "\n\n"); b >= 0 && b+2 > best {
		best = b + 2
	}
	if best < 0 {
		best = aStart
	}
	return best
}

// lastLineStart returns the position of the last occurrence of s at the
// start of a line of text, or -1.
func lastLineStart(text, s string) int {
	for end := len(text); end > 0; {
		i := strings.LastIndex(text[:end], s)
		if i < 0 {
			return -1
		}
		if i == 0 || text[i-1] == '\n' {
			return i
		}
		end = i
	}
	return -1
}

// text reassembles the prompt.
func (tp *textPrompt) text() string {
	var b strings.Builder
	n := len(tp.head)
	for _, s := range tp.steps {
		n += len(s.log) + len(obsMarker) + len(s.obs) + len(s.post)
	}
	b.Grow(n)
	b.WriteString(tp.head)
	for _, s := range tp.steps {
		b.WriteString(s.log)
		b.WriteString(obsMarker)
		b.WriteString(s.obs)
		b.WriteString(s.post)
	}
	return b.String()
}

// structured returns the prompt as the engine's message list: the leading
// system messages, the head as the user message (the task, pinned), then per
// step an assistant message with the log and a tool call (the step's action
// and input) and a tool message with the observation. So the engine masks
// old observations with the extractors of their tools, summarizes old steps
// and keeps the recent ones, as for a tool-calling agent.
func (tp *textPrompt) structured() []llms.MessageContent {
	out := make([]llms.MessageContent, 0, len(tp.lead)+1+2*len(tp.steps))
	out = append(out, tp.lead...)
	out = append(out, llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.TextContent{Text: tp.head}}})
	for i, s := range tp.steps {
		id := stepID(i)
		out = append(out,
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
				llms.TextContent{Text: s.log},
				llms.ToolCall{ID: id, Type: "function", FunctionCall: &llms.FunctionCall{Name: s.action, Arguments: s.input}},
			}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: id, Name: s.action, Content: s.obs},
			}},
		)
	}
	return out
}

// flatten turns the engine's output for the structured list back into the
// agent's format: the system messages, then one user message holding the
// head (as compacted), the summary if any, and the kept steps with their
// (possibly masked or cut) logs and observations.
func (tp *textPrompt) flatten(out []llms.MessageContent) []llms.MessageContent {
	res := make([]llms.MessageContent, 0, len(tp.lead)+1)
	i := 0
	for ; i < len(out) && out[i].Role == llms.ChatMessageTypeSystem; i++ {
		res = append(res, out[i])
	}
	var humans []string
	type kept struct {
		step     int
		log, obs string
	}
	var steps []kept
	for ; i < len(out); i++ {
		m := out[i]
		switch m.Role {
		case llms.ChatMessageTypeHuman:
			humans = append(humans, partsText(m))
		case llms.ChatMessageTypeAI:
			k := kept{step: -1}
			var logs []string
			for _, p := range m.Parts {
				switch p := p.(type) {
				case llms.TextContent:
					logs = append(logs, p.Text)
				case llms.ToolCall:
					if s, ok := stepIndex(p.ID); ok && s < len(tp.steps) {
						k.step = s
					}
				}
			}
			k.log = strings.Join(logs, "")
			if k.step >= 0 {
				steps = append(steps, k)
			}
		case llms.ChatMessageTypeTool:
			for _, p := range m.Parts {
				if r, ok := p.(llms.ToolCallResponse); ok {
					if s, ok := stepIndex(r.ToolCallID); ok && len(steps) > 0 && steps[len(steps)-1].step == s {
						steps[len(steps)-1].obs = r.Content
					}
				}
			}
		}
	}
	var b strings.Builder
	head := tp.head
	summary := ""
	switch len(humans) {
	case 0:
	case 1:
		head = humans[0]
	default:
		summary, head = humans[0], humans[len(humans)-1]
	}
	b.WriteString(head)
	if summary != "" {
		if !strings.HasSuffix(head, "\n") {
			b.WriteString("\n")
		}
		b.WriteString(summary)
		b.WriteString("\n\n")
	}
	for _, k := range steps {
		b.WriteString(k.log)
		b.WriteString(obsMarker)
		b.WriteString(k.obs)
		b.WriteString(tp.steps[k.step].post)
	}
	return append(res, llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.TextContent{Text: b.String()}}})
}

func stepIndex(id string) (int, bool) {
	rest, ok := strings.CutPrefix(id, "scratchpad-step-")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 1 {
		return 0, false
	}
	return n - 1, true
}

func partsText(m llms.MessageContent) string {
	var b strings.Builder
	for _, p := range m.Parts {
		if t, ok := p.(llms.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

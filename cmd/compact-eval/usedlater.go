package main

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/tmc/langchaingo/llms"
)

// Used-later retention (I15): at every model call of a replay, the salient
// tokens the real agent wrote in its next message that it can only have
// learned from older context, and the share of them present in what the
// strategy sent. The definition is that of ../shared/eval/usedlater.py
// (copied in testdata/), which scores a -dump; usedlater_test.go checks
// that both agree token for token.

// usedLaterDefinition documents the measure for the report.
const usedLaterDefinition = "**Used-later retention (the headline).** At every model call of a replay, the *next message* is the " +
	"real agent's assistant message the call answers: its text and the string values (at any depth) of its tool-call " +
	"arguments. Its *salient tokens* are the matches of `[A-Za-z0-9_][A-Za-z0-9_./:-]{3,}[A-Za-z0-9_]`, trailing `.:/-` " +
	"stripped, at least 5 bytes long, not starting with `http`, holding a digit, one of `_./:`, or a lower-case letter " +
	"followed by an upper-case one (identifiers, paths, names with digits, dotted, snake_case or camelCase names). A token is " +
	"*needed* when the agent can only have learned it from older context: it occurs in a message before the newest round, " +
	"and not in the task (the system messages and the first user message) nor in the newest round (the last assistant " +
	"message before the call and everything after it); a message's text is its content, and for each tool call its name " +
	"and raw arguments. A needed token is *kept* when it occurs anywhere in the text of the messages the strategy sent for " +
	"that call. Retention is kept / needed, pooled over every call of every run; a call whose request exceeds the window (a " +
	"provider rejects it) or that failed keeps nothing. `-dump DIR` writes what each call sent, and " +
	"`cmd/compact-eval/testdata/usedlater.py` computes the same figures from a dump without this code."

// salientRE is usedlater.py's TOK.
var salientRE = regexp.MustCompile(`[A-Za-z0-9_][A-Za-z0-9_./:\-]{3,}[A-Za-z0-9_]`)

// salient is usedlater.py's salient.
func salient(t string) bool {
	if strings.HasPrefix(t, "http") {
		return false
	}
	if strings.ContainsAny(t, "0123456789_./:") {
		return true
	}
	for i := 0; i+1 < len(t); i++ {
		if t[i] >= 'a' && t[i] <= 'z' && t[i+1] >= 'A' && t[i+1] <= 'Z' {
			return true
		}
	}
	return false
}

// dumpFunc, dumpCall and dumpMsg are the trajectory format of a dump's
// messages (OpenAI-style: role, content, tool_calls, tool_call_id, name).
type dumpFunc struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type dumpCall struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Function dumpFunc `json:"function"`
}

type dumpMsg struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []dumpCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
}

// dumpRole maps a langchaingo role to the trajectory format's.
func dumpRole(r llms.ChatMessageType) string {
	switch r {
	case llms.ChatMessageTypeSystem:
		return "system"
	case llms.ChatMessageTypeAI:
		return "assistant"
	case llms.ChatMessageTypeTool, llms.ChatMessageTypeFunction:
		return "tool"
	default:
		return "user"
	}
}

// toDump converts messages to the trajectory format: text parts joined by
// line breaks, a tool message with several results one line per result;
// parts without text (images, binary) are left out.
func toDump(msgs []llms.MessageContent) []dumpMsg {
	out := make([]dumpMsg, 0, len(msgs))
	for _, m := range msgs {
		d := dumpMsg{Role: dumpRole(m.Role)}
		var texts []string
		var results []llms.ToolCallResponse
		for _, p := range m.Parts {
			switch p := p.(type) {
			case llms.TextContent:
				texts = append(texts, p.Text)
			case llms.ToolCall:
				c := dumpCall{ID: p.ID, Type: "function"}
				if p.FunctionCall != nil {
					c.Function = dumpFunc{Name: p.FunctionCall.Name, Arguments: p.FunctionCall.Arguments}
				}
				d.ToolCalls = append(d.ToolCalls, c)
			case llms.ToolCallResponse:
				results = append(results, p)
			}
		}
		d.Content = strings.Join(texts, "\n")
		if len(results) == 0 {
			out = append(out, d)
			continue
		}
		for i, r := range results {
			t := dumpMsg{Role: "tool", Content: r.Content, ToolCallID: r.ToolCallID, Name: r.Name}
			if i == 0 && d.Content != "" {
				t.Content = d.Content + "\n" + t.Content
			}
			out = append(out, t)
		}
	}
	return out
}

// dumpText is usedlater.py's text: the content, then per tool call its
// name and raw arguments.
func dumpText(m dumpMsg) string {
	if len(m.ToolCalls) == 0 {
		return m.Content
	}
	var b strings.Builder
	b.WriteString(m.Content)
	for _, c := range m.ToolCalls {
		b.WriteString("\n")
		b.WriteString(c.Function.Name)
		b.WriteString(" ")
		b.WriteString(c.Function.Arguments)
	}
	return b.String()
}

// sentText is the text of every message sent, as usedlater.py joins it.
func sentText(msgs []dumpMsg) string {
	parts := make([]string, len(msgs))
	for i, m := range msgs {
		parts[i] = dumpText(m)
	}
	return strings.Join(parts, "\n")
}

// jsonStrings appends the string values of v, at any depth (usedlater.py's values).
func jsonStrings(v any, out []string) []string {
	switch v := v.(type) {
	case string:
		out = append(out, v)
	case []any:
		for _, x := range v {
			out = jsonStrings(x, out)
		}
	case map[string]any:
		for _, x := range v {
			out = jsonStrings(x, out)
		}
	}
	return out
}

// nextText is usedlater.py's next_text: the content and the string values
// of the tool calls' arguments (the raw arguments when they are not JSON).
func nextText(m dumpMsg) string {
	out := []string{m.Content}
	for _, c := range m.ToolCalls {
		var v any
		if err := json.Unmarshal([]byte(c.Function.Arguments), &v); err != nil {
			out = append(out, c.Function.Arguments)
			continue
		}
		out = jsonStrings(v, out)
	}
	return strings.Join(out, "\n")
}

// laterNeed is the needed tokens of one call, with where each was last
// seen before the newest round (the role of that message).
type laterNeed struct {
	tokens   []string
	lastRole []string
}

// laterNeeds holds the needed tokens of every call of one trajectory, by
// the index of the assistant message the call answers.
type laterNeeds map[int]laterNeed

// usedLaterNeeds computes the needed tokens of every call of a replay of
// msgs (usedlater.py's needed, for every assistant message).
func usedLaterNeeds(msgs []llms.MessageContent) laterNeeds {
	lines := toDump(msgs)
	if len(lines) != len(msgs) {
		// A message held several tool results: fall back to one line per
		// message so that indices match the trajectory's.
		lines = lines[:0]
		for _, m := range msgs {
			d := toDump([]llms.MessageContent{m})
			one := d[0]
			for _, x := range d[1:] {
				one.Content += "\n" + x.Content
			}
			lines = append(lines, one)
		}
	}
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = dumpText(l)
	}
	out := laterNeeds{}
	// earliest[t] is the first message holding t; scanned[t] how far the
	// search went when it was not found yet.
	earliest := map[string]int{}
	scanned := map[string]int{}
	firstIn := func(t string, limit int) bool {
		if e, ok := earliest[t]; ok {
			return e < limit
		}
		for j := scanned[t]; j < limit; j++ {
			if strings.Contains(texts[j], t) {
				earliest[t] = j
				return true
			}
		}
		if limit > scanned[t] {
			scanned[t] = limit
		}
		return false
	}
	firstUser := -1
	lastAI := -1
	var task strings.Builder
	taskN := 0
	for i := range lines {
		if lines[i].Role == "assistant" && lastAI >= 0 {
			recent := strings.Join(texts[lastAI:i], "\n")
			taskS := task.String()
			seen := map[string]bool{}
			var need laterNeed
			for _, t := range salientRE.FindAllString(nextText(lines[i]), -1) {
				t = strings.TrimRight(t, ".:/-")
				if len(t) < 5 || seen[t] || !salient(t) {
					continue
				}
				seen[t] = true
				if strings.Contains(taskS, t) || strings.Contains(recent, t) {
					continue
				}
				if firstIn(t, lastAI) {
					need.tokens = append(need.tokens, t)
					role := ""
					for j := lastAI - 1; j >= 0; j-- {
						if strings.Contains(texts[j], t) {
							role = lines[j].Role
							break
						}
					}
					need.lastRole = append(need.lastRole, role)
				}
			}
			if len(need.tokens) > 0 {
				out[i] = need
			}
		}
		// msgs[i] joins the context of later calls.
		isTask := lines[i].Role == "system"
		if lines[i].Role == "user" && firstUser < 0 {
			firstUser = i
			isTask = true
		}
		if isTask {
			if taskN > 0 {
				task.WriteString("\n")
			}
			task.WriteString(texts[i])
			taskN++
		}
		if lines[i].Role == "assistant" {
			lastAI = i
		}
	}
	return out
}

// keptLater counts the needed tokens present in the text sent and, of the
// missed ones, those last seen in an assistant message.
func keptLater(need laterNeed, sent string) (kept, missedAI int) {
	for k, t := range need.tokens {
		if strings.Contains(sent, t) {
			kept++
		} else if need.lastRole[k] == "assistant" {
			missedAI++
		}
	}
	return kept, missedAI
}

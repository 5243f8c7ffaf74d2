package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/summary"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/tools"
)

// recallLines is how many lines of a recalled original the report prints.
const recallLines = 6

// tap passes every call to its model and keeps the messages of the latest
// call (summarizer calls aside), for the recall report: above the
// middleware it sees the context the agent built, below it the context the
// model was sent.
type tap struct {
	llms.Model
	mu   sync.Mutex
	last []llms.MessageContent
}

// GenerateContent keeps msgs and passes the call on.
func (t *tap) GenerateContent(ctx context.Context, msgs []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	if !summary.IsSummarizerCall(ctx) {
		t.mu.Lock()
		t.last = msgs
		t.mu.Unlock()
	}
	return t.Model.GenerateContent(ctx, msgs, options...)
}

// Call answers a single prompt through GenerateContent.
func (t *tap) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, t, prompt, options...)
}

// SupportsReasoning forwards to the model when it implements
// llms.ReasoningModel, so that the tap hides nothing of it.
func (t *tap) SupportsReasoning() bool {
	r, ok := t.Model.(llms.ReasoningModel)
	return ok && r.SupportsReasoning()
}

// messages returns the messages of the latest call.
func (t *tap) messages() []llms.MessageContent {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.last
}

// maxRecallPages bounds the pages the report reads to rebuild one
// recalled original.
const maxRecallPages = 50

// recallUse is one call of the recall tool, as the report shows it.
type recallUse struct {
	call          int    // the model call that asked for it
	input, output string // the tool's input and answer
	err           error  // the tool's error
	ref           string // the ref of the input, "" for a search
	marker        string // the line of the sent context that showed ref, "" if none did
	original      string // the original the agent had seen, when the marker stood for a tool output
	originalTool  string // that output's tool call ("read_file compactor.go")
	originalFound bool
	recalled      string // the recalled original, all its pages, when the answer is one
	pages         int    // the pages read to rebuild it (0: the answer is no page)
	pageErr       error  // why the pages could not be read
}

// recallRecorder wraps the recall tool: it records every use with the
// marker the model was sent and the original the agent had seen.
type recallRecorder struct {
	tools.Tool
	built, sent *tap
	calls       func() int // model calls so far
	say         progress

	mu   sync.Mutex
	uses []recallUse
}

// Call runs the recall tool and records the use.
func (r *recallRecorder) Call(ctx context.Context, input string) (string, error) {
	u := recallUse{call: r.calls(), input: input}
	if m := refInputRe.FindStringSubmatch(input); m != nil {
		u.ref = m[1]
		u.marker, u.original, u.originalTool, u.originalFound = locate(u.ref, r.sent.messages(), r.built.messages())
	}
	u.output, u.err = r.Tool.Call(ctx, input)
	if u.err == nil && u.ref != "" {
		// For the report's check only: the whole original, page by page.
		u.recalled, u.pages, u.pageErr = readPages(ctx, r.Tool, u.output)
	}
	switch {
	case u.err != nil:
		r.say("recall %s → error: %v", input, u.err)
	default:
		r.say("recall %s → %d lines", input, lineCount(u.output))
	}
	r.mu.Lock()
	r.uses = append(r.uses, u)
	r.mu.Unlock()
	return u.output, u.err
}

// used returns the uses so far.
func (r *recallRecorder) used() []recallUse {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recallUse(nil), r.uses...)
}

// refInputRe matches a recall input that asks for a ref ("ref:ID", maybe
// followed by a line range); the first group is the ref's id.
var refInputRe = regexp.MustCompile(`(?i)^\s*ref:([A-Za-z0-9_.-]+)(?:\s|$)`)

// locate finds the line of sent that shows ref:id and, when it stands for
// a tool output, that output as the agent built it (the tool result of
// the same call id in built) and its tool call.
func locate(id string, sent, built []llms.MessageContent) (marker, original, tool string, found bool) {
	want := compact.RefPrefix + id
	var callID string
	for _, m := range sent {
		for _, p := range m.Parts {
			var text string
			switch p := p.(type) {
			case llms.TextContent:
				text = p.Text
			case llms.ToolCallResponse:
				text = p.Content
				if strings.Contains(text, want) {
					callID = p.ToolCallID
				}
			}
			if marker == "" {
				marker = lineWith(text, want)
			}
		}
	}
	if callID == "" {
		return marker, "", "", false
	}
	for _, m := range built {
		for _, p := range m.Parts {
			switch p := p.(type) {
			case llms.ToolCall:
				if p.ID == callID && p.FunctionCall != nil {
					tool = describeCall(p.FunctionCall)
				}
			case llms.ToolCallResponse:
				if p.ToolCallID == callID {
					if tool == "" {
						tool = p.Name
					}
					return marker, p.Content, tool, true
				}
			}
		}
	}
	return marker, "", "", false
}

// describeCall returns a tool call as "name argument": the argument as
// the functions agent keeps it in its scratchpad (the raw input), or the
// single value of a JSON object ({"__arg1": "a.go"}); just the name for
// anything else.
func describeCall(fc *llms.FunctionCall) string {
	arg := strings.TrimSpace(fc.Arguments)
	var args map[string]string
	if json.Unmarshal([]byte(arg), &args) == nil {
		arg = ""
		for _, v := range args {
			if len(args) == 1 {
				arg = v
			}
		}
	}
	if arg == "" || strings.Contains(arg, "\n") {
		return fc.Name
	}
	return fc.Name + " " + clip(arg, 60)
}

// lineWith returns the line of text that contains s ending at s (the
// first such line), or "".
func lineWith(text, s string) string {
	i := strings.Index(text, s)
	if i < 0 {
		return ""
	}
	start := strings.LastIndex(text[:i], "\n") + 1
	end := i + len(s)
	if j := strings.IndexByte(text[end:], '\n'); j >= 0 {
		end += j
	} else {
		end = len(text)
	}
	return text[start:end]
}

// pageHeaderRe matches the header of a recall page
// (extractors.RecallPageHeader): ref, first and last line, line count.
var pageHeaderRe = regexp.MustCompile(`^ref:(\S+) lines (\d+)-(\d+) of (\d+) \(.*\):$`)

// nextPageRe finds the input of the next page in a page's last line.
var nextPageRe = regexp.MustCompile(`^\.\.\. \d+ more lines: call recall with "([^"]+)" for more$`)

// readPages rebuilds the original a recall answer is the first page of:
// its numbered lines, then those of the next pages, asked of tool. It
// returns the text without its line numbers (the page format cannot tell
// whether the original ended with a line break; it is given without one)
// and the pages read; pages is 0 when answer is not a page.
func readPages(ctx context.Context, tool tools.Tool, answer string) (string, int, error) {
	var b strings.Builder
	want := 1 // the next line number
	for pages := 1; ; pages++ {
		body, next, ok := parsePage(answer, want)
		if !ok {
			if pages == 1 {
				return "", 0, nil
			}
			return "", pages - 1, fmt.Errorf("page %d of the recalled original is not a page: %q", pages, clip(firstLine(answer), 80))
		}
		for _, l := range body {
			if want > 1 {
				b.WriteByte('\n')
			}
			b.WriteString(l)
			want++
		}
		if next == "" {
			return b.String(), pages, nil
		}
		if pages == maxRecallPages {
			return "", pages, fmt.Errorf("the recalled original has more than %d pages", maxRecallPages)
		}
		var err error
		if answer, err = tool.Call(ctx, next); err != nil {
			return "", pages, fmt.Errorf("recall %q: %w", next, err)
		}
	}
}

// parsePage returns the lines of a recall page that starts at line from,
// without their numbers, and the input of the next page ("" for the last);
// ok is false when page is no such page.
func parsePage(page string, from int) (lines []string, next string, ok bool) {
	rows := strings.Split(page, "\n")
	h := pageHeaderRe.FindStringSubmatch(rows[0])
	switch {
	case h == nil:
		return nil, "", false
	case h[4] == "0" && from == 1:
		return nil, "", true // an empty original
	case h[2] != strconv.Itoa(from):
		return nil, "", false
	}
	rows = rows[1:]
	if n := len(rows); n > 0 {
		if m := nextPageRe.FindStringSubmatch(rows[n-1]); m != nil {
			next, rows = m[1], rows[:n-1]
		}
	}
	for i, row := range rows {
		text, found := strings.CutPrefix(row, strconv.Itoa(from+i)+": ")
		if !found {
			return nil, "", false
		}
		lines = append(lines, text)
	}
	return lines, next, true
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// reportRecall writes the Recall section: every use of the recall tool,
// with the marker it came from, the first lines of its answer, and whether
// the recalled text is the original the agent had seen.
func reportRecall(out io.Writer, uses []recallUse) {
	fmt.Fprintf(out, "\nRecall:\n")
	if len(uses) == 0 {
		fmt.Fprintf(out, "  none: the model did not call the recall tool\n")
		return
	}
	for _, u := range uses {
		if u.marker != "" {
			fmt.Fprintf(out, "  marker sent at call %d: %s\n", u.call, clip(u.marker, 100))
			fmt.Fprintf(out, "  ref in the marker:     %s%s\n", compact.RefPrefix, u.ref)
		}
		fmt.Fprintf(out, "  recall tool input:     %s\n", u.input)
		if u.err != nil {
			fmt.Fprintf(out, "  recall failed: %v\n", u.err)
			continue
		}
		lines := strings.Split(strings.TrimRight(u.output, "\n"), "\n")
		fmt.Fprintf(out, "  recall answered with %d lines; the first %d:\n", len(lines), min(recallLines, len(lines)))
		for _, l := range lines[:min(recallLines, len(lines))] {
			fmt.Fprintf(out, "    | %s\n", clip(l, 100))
		}
		reportMatch(out, u)
	}
}

// reportMatch writes whether the recalled original is the one the agent
// had seen.
func reportMatch(out io.Writer, u recallUse) {
	const prefix = "  recalled text matches the original: "
	pages := fmt.Sprintf("%d page", u.pages)
	if u.pages != 1 {
		pages += "s"
	}
	switch {
	case u.ref == "":
	case u.pageErr != nil:
		fmt.Fprintf(out, "%snot checked (%v)\n", prefix, u.pageErr)
	case u.pages == 0:
		fmt.Fprintf(out, "%snot checked (the answer is no original)\n", prefix)
	case !u.originalFound:
		fmt.Fprintf(out, "%snot checked (the marker does not stand for a tool output)\n", prefix)
	case u.recalled == strings.TrimSuffix(u.original, "\n"):
		fmt.Fprintf(out, "%syes (the %s output the agent had seen, %s bytes, %s)\n", prefix, u.originalTool, num(len(u.original)), pages)
	default:
		fmt.Fprintf(out, "%sno (%s bytes recalled in %s; the %s output the agent had seen has %s)\n",
			prefix, num(len(u.recalled)), pages, u.originalTool, num(len(u.original)))
	}
}

// clip shortens s to about n characters, keeping its head and its tail.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	head := n * 2 / 3
	return strings.TrimRight(string(r[:head]), " ") + " … " + strings.TrimLeft(string(r[len(r)-(n-head):]), " ")
}

// lineCount returns the number of lines of s.
func lineCount(s string) int {
	return strings.Count(strings.TrimRight(s, "\n"), "\n") + 1
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/summary"
	"github.com/tmc/langchaingo/llms"
)

// recallName is the name of the recall tool (middleware.Model.RecallTool).
const recallName = "recall"

// scriptedAgent is a deterministic stand-in for a tool-calling model, used when
// no provider is configured. It answers as OpenAI does, with tool calls
// whose arguments follow the functions agent's schema ({"__arg1": ...}):
// list the project, grep for constructors, read the files it found, run
// go vet, then answer. It decides from its own step counter and from the
// newest tool result, which compaction always keeps verbatim, so it works
// on compacted contexts like a real model.
//
// When the recall tool is offered, the first time the context it is sent
// holds a tool output condensed by compaction, it calls recall once with
// the ref that output shows, as a model that needs the original back
// would; the script then goes on where it was.
//
// Summarizer calls (summary.IsSummarizerCall) go to summaries, so that
// the same model also serves as the LLM summarizer.
type scriptedAgent struct {
	maxFiles  int
	summaries llms.Model // answers summarizer calls; nil: it cannot summarize

	mu      sync.Mutex
	step    int      // model calls, for the tool call ids
	phase   int      // steps of the script (recall aside)
	entries int      // top-level entries listed
	goFiles []string // top-level Go files listed
	matches int      // grep matches
	plan    []string // files to read
	read    int

	recalledRef string // the ref recall was called with, "" before
	recalledFor string // the words recall searched for, when no ref was shown
	recalling   bool   // the newest tool result is recall's answer
	before      string // the newest tool result before the recall
}

var _ llms.Model = (*scriptedAgent)(nil)

func (s *scriptedAgent) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, s, prompt, options...)
}

// GenerateContent returns the next step of the script, or a summary for a
// summarizer call.
func (s *scriptedAgent) GenerateContent(ctx context.Context, msgs []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	if summary.IsSummarizerCall(ctx) {
		if s.summaries == nil {
			return nil, errors.New("scripted model: asked to summarize, but it has no summarizer model")
		}
		return s.summaries.GenerateContent(ctx, msgs, options...)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.step++
	last := lastToolResult(msgs)
	if s.recalling {
		s.recalling = false
		last = s.before // the script goes on from the result before the recall
	}
	if s.recalledRef == "" && s.recalledFor == "" && s.phase >= 3 && offered(options, recallName) {
		if ref := condensedRef(msgs); ref != "" {
			s.recalledRef, s.recalling, s.before = ref, true, last
			return s.call("The output I condensed earlier shows "+compact.RefPrefix+ref+"; let me recall the original.", recallName, compact.RefPrefix+ref)
		}
		if path := summarizedRead(msgs); path != "" {
			s.recalledFor, s.recalling, s.before = path, true, last
			return s.call("The summary says I read "+path+" earlier; let me search the compacted originals for it.", recallName, path)
		}
	}
	s.phase++
	switch {
	case s.phase == 1:
		return s.call("I will start by listing the project.", "list_dir", ".")
	case s.phase == 2:
		s.goFiles = goFilesOf(last)
		s.entries = strings.Count(last, "\n")
		return s.call("Now let me find the constructors.", "grep", `^func New`)
	case s.phase == 3:
		s.plan = s.planFiles(last)
	}
	if s.read < len(s.plan) {
		f := s.plan[s.read]
		s.read++
		return s.call(fmt.Sprintf("Reading %s (%d of %d).", f, s.read, len(s.plan)), "read_file", f)
	}
	if !strings.HasPrefix(last, "go vet") {
		return s.call("Finally, let me run go vet on the root package.", "go_vet", ".")
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: s.answer(msgs, last), StopReason: "stop"}}}, nil
}

// offered reports whether the call's options offer the tool name.
func offered(options []llms.CallOption, name string) bool {
	var co llms.CallOptions
	for _, o := range options {
		o(&co)
	}
	for _, f := range co.Functions {
		if f.Name == name {
			return true
		}
	}
	for _, t := range co.Tools {
		if t.Function != nil && t.Function.Name == name {
			return true
		}
	}
	return false
}

// refRe finds the ref a condensed tool output shows ("... ref:abcd2345").
var refRe = regexp.MustCompile(`\bref:([a-z2-7]{8})\b`)

// summaryReadRe finds the first file a summary lists as read ("Files read:
// a.go b.go" or "Files modified: x | read: a.go b.go"; a key point's list
// is comma-separated).
var summaryReadRe = regexp.MustCompile(`(?m)(?:^Files read: |\| read: )([^,| \n]+)`)

// summarizedRead returns the first file the summary message of msgs lists
// as read, or "".
func summarizedRead(msgs []llms.MessageContent) string {
	for _, m := range msgs {
		for _, p := range m.Parts {
			if t, ok := p.(llms.TextContent); ok && strings.HasPrefix(t.Text, compact.SummaryPreamble) {
				if mm := summaryReadRe.FindStringSubmatch(t.Text); mm != nil {
					return strings.TrimSpace(mm[1])
				}
			}
		}
	}
	return ""
}

// condensedRef returns the ref shown by the newest condensed tool output
// of msgs, or "".
func condensedRef(msgs []llms.MessageContent) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, p := range msgs[i].Parts {
			if r, ok := p.(llms.ToolCallResponse); ok && condensedOutput(r.Content) {
				if m := refRe.FindStringSubmatch(r.Content); m != nil {
					return m[1]
				}
			}
		}
	}
	return ""
}

func (s *scriptedAgent) call(thought, name, arg string) (*llms.ContentResponse, error) {
	args, err := json.Marshal(map[string]string{"__arg1": arg})
	if err != nil {
		return nil, fmt.Errorf("scripted model: encode arguments: %w", err)
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{
		Content:    thought,
		StopReason: "tool_calls",
		ToolCalls: []llms.ToolCall{{
			ID:           fmt.Sprintf("call_%02d", s.step),
			Type:         "function",
			FunctionCall: &llms.FunctionCall{Name: name, Arguments: string(args)},
		}},
	}}}, nil
}

// planFiles picks the files to read: those defining constructors (from the
// grep output), then the top-level Go files, at most maxFiles.
func (s *scriptedAgent) planFiles(grepOut string) []string {
	seen := map[string]bool{}
	var plan []string
	add := func(f string) {
		if f != "" && !seen[f] && len(plan) < s.maxFiles {
			seen[f] = true
			plan = append(plan, f)
		}
	}
	for _, l := range strings.Split(grepOut, "\n") {
		if f, _, ok := strings.Cut(l, ":"); ok && strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") {
			s.matches++
			add(f)
		}
	}
	for _, f := range s.goFiles {
		add(f)
	}
	return plan
}

// answer describes what was done and what the model's context held.
func (s *scriptedAgent) answer(msgs []llms.MessageContent, vet string) string {
	verbatim, condensed, summarized := 0, 0, false
	for _, m := range msgs {
		for _, p := range m.Parts {
			switch p := p.(type) {
			case llms.ToolCallResponse:
				if condensedOutput(p.Content) {
					condensed++
				} else {
					verbatim++
				}
			case llms.TextContent:
				if strings.HasPrefix(p.Text, compact.SummaryPreamble) {
					summarized = true
				}
			}
		}
	}
	vetLine, rest, _ := strings.Cut(vet, "\n")
	if first, _, _ := strings.Cut(strings.TrimSpace(rest), "\n"); first != "" {
		vetLine += " " + first
	}
	recalled := ""
	switch {
	case s.recalledRef != "":
		recalled = fmt.Sprintf(" After the first compaction I recalled one condensed output by its ref (%s%s).", compact.RefPrefix, s.recalledRef)
	case s.recalledFor != "":
		recalled = fmt.Sprintf(" After the first compaction I searched the summarized originals for %s with recall.", s.recalledFor)
	}
	return fmt.Sprintf("I listed %d top-level entries, found %d constructor definitions (func New...), read %d files (%s) and ran go vet (%s).%s "+
		"When I wrote this answer my context held %d messages: %d tool outputs verbatim, %d condensed to their key facts, and %s.",
		s.entries, s.matches, len(s.plan), strings.Join(s.plan, ", "), vetLine, recalled,
		len(msgs), verbatim, condensed, map[bool]string{true: "a summary of the earlier steps", false: "no summary"}[summarized])
}

// lastToolResult returns the content of the newest tool result in msgs.
func lastToolResult(msgs []llms.MessageContent) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, p := range msgs[i].Parts {
			if r, ok := p.(llms.ToolCallResponse); ok {
				return r.Content
			}
		}
		if msgs[i].Role != llms.ChatMessageTypeTool {
			break
		}
	}
	return ""
}

// condensedOutput recognizes a tool output the engine replaced by its
// extractor line and ref ("[✓ read_file: File: a.go | ...] ref:abcd2345",
// see extractors.Format and compact.RefPrefix).
func condensedOutput(s string) bool {
	if i := strings.LastIndex(s, "] "+compact.RefPrefix); i >= 0 && !strings.ContainsAny(s[i+2:], " \n") {
		s = s[:i+1]
	}
	for _, sym := range []string{"[✓ ", "[❌ ", "[⚠ "} {
		if strings.HasPrefix(s, sym) && strings.HasSuffix(s, "]") && !strings.Contains(s, "\n") {
			return true
		}
	}
	return false
}

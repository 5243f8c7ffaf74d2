package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/agentcompact/compact"
	"github.com/tmc/langchaingo/llms"
)

// scripted is a deterministic stand-in for a tool-calling model, used when
// no provider is configured. It answers as OpenAI does, with tool calls
// whose arguments follow the functions agent's schema ({"__arg1": ...}):
// list the project, grep for constructors, read the files it found, run
// go vet, then answer. It decides from its own step counter and from the
// newest tool result, which compaction always keeps verbatim, so it works
// on compacted contexts like a real model.
type scripted struct {
	maxFiles int

	mu      sync.Mutex
	step    int
	entries int      // top-level entries listed
	goFiles []string // top-level Go files listed
	matches int      // grep matches
	plan    []string // files to read
	read    int
}

var _ llms.Model = (*scripted)(nil)

func (s *scripted) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, s, prompt, options...)
}

// GenerateContent returns the next step of the script.
func (s *scripted) GenerateContent(_ context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.step++
	last := lastToolResult(msgs)
	switch {
	case s.step == 1:
		return s.call("I will start by listing the project.", "list_dir", ".")
	case s.step == 2:
		s.goFiles = goFilesOf(last)
		s.entries = strings.Count(last, "\n")
		return s.call("Now let me find the constructors.", "grep", `^func New`)
	case s.step == 3:
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

func (s *scripted) call(thought, name, arg string) (*llms.ContentResponse, error) {
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
func (s *scripted) planFiles(grepOut string) []string {
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
func (s *scripted) answer(msgs []llms.MessageContent, vet string) string {
	verbatim, condensed, summary := 0, 0, false
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
					summary = true
				}
			}
		}
	}
	vetLine, rest, _ := strings.Cut(vet, "\n")
	if first, _, _ := strings.Cut(strings.TrimSpace(rest), "\n"); first != "" {
		vetLine += " " + first
	}
	return fmt.Sprintf("I listed %d top-level entries, found %d constructor definitions (func New...), read %d files (%s) and ran go vet (%s). "+
		"When I wrote this answer my context held %d messages: %d tool outputs verbatim, %d condensed to their key facts, and %s.",
		s.entries, s.matches, len(s.plan), strings.Join(s.plan, ", "), vetLine,
		len(msgs), verbatim, condensed, map[bool]string{true: "a summary of the earlier steps", false: "no summary"}[summary])
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
// extractor line ("[✓ read_file: File: a.go | ...]", see extractors.Format).
func condensedOutput(s string) bool {
	for _, sym := range []string{"[✓ ", "[❌ ", "[⚠ "} {
		if strings.HasPrefix(s, sym) && strings.HasSuffix(s, "]") && !strings.Contains(s, "\n") {
			return true
		}
	}
	return false
}

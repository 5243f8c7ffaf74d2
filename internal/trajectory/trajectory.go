// Package trajectory reads agent trajectories in the evaluation corpus's
// JSONL format (one OpenAI-style message per line) into langchaingo messages.
package trajectory

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/tmc/langchaingo/llms"
)

// Line is one message of the JSONL format.
type Line struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []LineCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
}

// LineCall is one tool call of a [Line].
type LineCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Read decodes a JSONL trajectory from r.
func Read(r io.Reader) ([]llms.MessageContent, error) {
	var out []llms.MessageContent
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(sc.Bytes()) == 0 {
			continue
		}
		var l Line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("trajectory: line %d: %w", n, err)
		}
		out = append(out, l.Message())
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("trajectory: %w", err)
	}
	return out, nil
}

// Message converts l to a langchaingo message: tool calls become
// llms.ToolCall parts after the text, a tool message an llms.ToolCallResponse.
func (l Line) Message() llms.MessageContent {
	switch l.Role {
	case "system":
		return llms.TextParts(llms.ChatMessageTypeSystem, l.Content)
	case "user":
		return llms.TextParts(llms.ChatMessageTypeHuman, l.Content)
	case "tool":
		return llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{ToolCallID: l.ToolCallID, Name: l.Name, Content: l.Content}}}
	default:
		m := llms.MessageContent{Role: llms.ChatMessageTypeAI}
		if l.Content != "" || len(l.ToolCalls) == 0 {
			m.Parts = append(m.Parts, llms.TextPart(l.Content))
		}
		for _, c := range l.ToolCalls {
			m.Parts = append(m.Parts, llms.ToolCall{ID: c.ID, Type: "function",
				FunctionCall: &llms.FunctionCall{Name: c.Name, Arguments: c.Arguments}})
		}
		return m
	}
}

// ReadFile reads one JSONL trajectory file.
func ReadFile(path string) ([]llms.MessageContent, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("trajectory: %w", err)
	}
	defer f.Close()
	msgs, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return msgs, nil
}

// Files lists the *.jsonl files of dir, sorted by name.
func Files(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	return files, nil
}

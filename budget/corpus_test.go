package budget

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/tmc/langchaingo/llms"
)

// corpusDir is the folder of real trajectories (JSONL, the format of
// /work/shared/eval/README.md) read by the corpus-wide measurements. Set it
// with -corpus or BUDGET_CORPUS; the measurements skip when it is absent.
var corpusDir = flag.String("corpus", envOr("BUDGET_CORPUS", "../../shared/eval/trajectories"),
	"folder of trajectory JSONL files for corpus-wide measurements")

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// trajLine is one line of a trajectory file.
type trajLine struct {
	Role      string `json:"role"`
	Content   string `json:"content"`
	ToolCalls []struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"tool_calls"`
	ToolCallID string `json:"tool_call_id"`
	Name       string `json:"name"`
}

// loadTrajectory reads one JSONL trajectory as langchaingo messages.
func loadTrajectory(path string) ([]llms.MessageContent, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open trajectory: %w", err)
	}
	defer f.Close()
	var msgs []llms.MessageContent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var l trajLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("parse %s line %d: %w", path, len(msgs)+1, err)
		}
		msgs = append(msgs, toMessage(l))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return msgs, nil
}

func toMessage(l trajLine) llms.MessageContent {
	switch l.Role {
	case "tool":
		return llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{ToolCallID: l.ToolCallID, Name: l.Name, Content: l.Content},
		}}
	case "assistant":
		m := llms.MessageContent{Role: llms.ChatMessageTypeAI}
		if l.Content != "" {
			m.Parts = append(m.Parts, llms.TextPart(l.Content))
		}
		for _, tc := range l.ToolCalls {
			m.Parts = append(m.Parts, llms.ToolCall{ID: tc.ID, Type: "function",
				FunctionCall: &llms.FunctionCall{Name: tc.Name, Arguments: tc.Arguments}})
		}
		return m
	case "system":
		return llms.TextParts(llms.ChatMessageTypeSystem, l.Content)
	default:
		return llms.TextParts(llms.ChatMessageTypeHuman, l.Content)
	}
}

// loadDir reads every *.jsonl trajectory of dir, in name order.
func loadDir(tb testing.TB, dir string) map[string][]llms.MessageContent {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		tb.Fatalf("list %s: %v", dir, err)
	}
	sort.Strings(files)
	out := make(map[string][]llms.MessageContent, len(files))
	for _, f := range files {
		msgs, err := loadTrajectory(f)
		if err != nil {
			tb.Fatal(err)
		}
		out[filepath.Base(f)] = msgs
	}
	return out
}

// messageTexts returns the strings of m that a counter tokenizes.
func messageTexts(m llms.MessageContent) []string {
	var out []string
	for _, p := range m.Parts {
		switch v := p.(type) {
		case llms.TextContent:
			out = append(out, v.Text)
		case llms.ToolCall:
			out = append(out, v.ID, v.FunctionCall.Name, v.FunctionCall.Arguments)
		case llms.ToolCallResponse:
			out = append(out, v.ToolCallID, v.Name, v.Content)
		}
	}
	return out
}

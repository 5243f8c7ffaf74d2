package budget

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms"
)

// corpusDir is the folder, or comma- or os.PathListSeparator-separated list
// of folders, of real trajectories (JSONL, the format of
// ../shared/eval/README.md) read by the corpus-wide measurements. Set it
// with -corpus or BUDGET_CORPUS; the measurements skip when a folder is
// absent. See corpusDirs and loadCorpus.
var corpusDir = flag.String("corpus", envOr("BUDGET_CORPUS", "../../shared/eval/trajectories,../../shared/eval/frameworks"),
	"folder of trajectory JSONL files for corpus-wide measurements; several folders are "+
		"separated by commas or "+string(os.PathListSeparator)+" and measured together "+
		"(e.g. -corpus ../../shared/eval/trajectories,../../shared/eval/frameworks)")

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

// corpusDirs returns the folders listed by -corpus (BUDGET_CORPUS), split
// at commas and os.PathListSeparator, empty items dropped.
func corpusDirs() []string {
	return strings.FieldsFunc(*corpusDir, func(r rune) bool {
		return r == ',' || r == os.PathListSeparator
	})
}

// loadCorpus reads every *.jsonl trajectory of the -corpus folders, keyed
// by folder and file name. It skips tb, naming the folder, when a folder is
// absent or when none is given, and fails when the folders hold no
// trajectory.
func loadCorpus(tb testing.TB) map[string][]llms.MessageContent {
	tb.Helper()
	dirs := corpusDirs()
	if len(dirs) == 0 {
		tb.Skip("no corpus folder given (set -corpus or BUDGET_CORPUS)")
	}
	for _, dir := range dirs {
		if _, err := os.Stat(dir); err != nil {
			tb.Skipf("corpus folder %s absent (set -corpus or BUDGET_CORPUS): %v", dir, err)
		}
	}
	out := make(map[string][]llms.MessageContent)
	for _, dir := range dirs {
		for name, msgs := range loadDir(tb, dir) {
			out[filepath.Join(dir, name)] = msgs
		}
	}
	if len(out) == 0 {
		tb.Fatalf("no *.jsonl in %s", strings.Join(dirs, ", "))
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

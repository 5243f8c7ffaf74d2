package extractors

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

var (
	corpusDir  = flag.String("corpus", "../../shared/eval/trajectories,../../shared/eval/frameworks", "folders of JSONL agent trajectories, comma separated (absent ones are skipped)")
	corpusDump = flag.String("dump", "", "TestCorpusMeasure writes every call's formatted summary to this file")
)

// jsonlMessage is one line of a trajectory file.
type jsonlMessage struct {
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

// trajectory is one loaded trajectory.
type trajectory struct {
	name  string
	msgs  []llms.MessageContent
	calls []corpusCall
}

// corpusCall is one tool call with its output.
type corpusCall struct {
	call   Call
	output string
}

// loadTrajectory reads a JSONL trajectory into langchaingo messages. Tool
// results carry no name (as langchaingo's functions agent leaves them), so
// the digest must resolve them by call id.
func loadTrajectory(path string) (trajectory, error) {
	f, err := os.Open(path)
	if err != nil {
		return trajectory{}, fmt.Errorf("open trajectory: %w", err)
	}
	defer f.Close()
	t := trajectory{name: filepath.Base(path)}
	calls := map[string]Call{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m jsonlMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return trajectory{}, fmt.Errorf("decode %s: %w", path, err)
		}
		switch m.Role {
		case "system":
			t.msgs = append(t.msgs, llms.TextParts(llms.ChatMessageTypeSystem, m.Content))
		case "user":
			t.msgs = append(t.msgs, llms.TextParts(llms.ChatMessageTypeHuman, m.Content))
		case "assistant":
			mc := llms.MessageContent{Role: llms.ChatMessageTypeAI}
			if m.Content != "" {
				mc.Parts = append(mc.Parts, llms.TextContent{Text: m.Content})
			}
			for _, tc := range m.ToolCalls {
				mc.Parts = append(mc.Parts, llms.ToolCall{ID: tc.ID, Type: "function", FunctionCall: &llms.FunctionCall{Name: tc.Name, Arguments: tc.Arguments}})
				calls[tc.ID] = Call{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments}
			}
			t.msgs = append(t.msgs, mc)
		case "tool":
			t.msgs = append(t.msgs, llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: m.ToolCallID, Content: m.Content},
			}})
			t.calls = append(t.calls, corpusCall{call: calls[m.ToolCallID], output: m.Content})
		}
	}
	if err := sc.Err(); err != nil {
		return trajectory{}, fmt.Errorf("read %s: %w", path, err)
	}
	return t, nil
}

// loadCorpus loads every trajectory of the comma-separated folders dirs
// (absent ones are skipped), or skips the test when there is none.
func loadCorpus(tb testing.TB, dirs string) []trajectory {
	tb.Helper()
	var files []string
	for _, dir := range strings.Split(dirs, ",") {
		if dir = strings.TrimSpace(dir); dir == "" {
			continue
		}
		fs, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		sort.Strings(fs)
		files = append(files, fs...)
	}
	if len(files) == 0 {
		tb.Skipf("no trajectories in %s", dirs)
	}
	var out []trajectory
	for _, f := range files {
		t, err := loadTrajectory(f)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, t)
	}
	return out
}

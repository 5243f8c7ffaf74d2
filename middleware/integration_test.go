package middleware

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/tools"
)

type listTool struct{}

func (listTool) Name() string        { return "list_dir" }
func (listTool) Description() string { return "Lists a directory; input: its path." }
func (listTool) Call(_ context.Context, in string) (string, error) {
	ents, err := os.ReadDir(strings.TrimSpace(in))
	if err != nil {
		return "error: " + err.Error(), nil
	}
	var b strings.Builder
	for _, e := range ents {
		info, err := e.Info()
		if err == nil {
			fmt.Fprintf(&b, "%8d %s\n", info.Size(), e.Name())
		}
	}
	return b.String(), nil
}

type grepTool struct{}

func (grepTool) Name() string { return "grep" }
func (grepTool) Description() string {
	return "Searches the Go files of the current directory; input: a string."
}
func (grepTool) Call(_ context.Context, in string) (string, error) {
	names, _ := os.ReadDir(".")
	var b strings.Builder
	for _, e := range names {
		if !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		data, err := os.ReadFile(e.Name())
		if err != nil {
			continue
		}
		for i, l := range strings.Split(string(data), "\n") {
			if strings.Contains(l, in) {
				fmt.Fprintf(&b, "%s:%d:%s\n", e.Name(), i+1, l)
			}
		}
	}
	return b.String(), nil
}

// scriptedFunctions is a deterministic tool-calling model: it lists the
// directory, greps, reads each file of files, then answers. It answers from
// its own step counter, so it works on compacted contexts, and records what
// it received.
type scriptedFunctions struct {
	mu    sync.Mutex
	files []string
	step  int
	got   [][]llms.MessageContent
	opts  []llms.CallOptions
}

func (s *scriptedFunctions) GenerateContent(_ context.Context, msgs []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	var co llms.CallOptions
	for _, o := range options {
		o(&co)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, deepCopy(msgs))
	s.opts = append(s.opts, co)
	s.step++
	call := func(name, arg string) (*llms.ContentResponse, error) {
		args, _ := json.Marshal(map[string]string{"__arg1": arg})
		return &llms.ContentResponse{Choices: []*llms.ContentChoice{{ToolCalls: []llms.ToolCall{{
			ID: fmt.Sprintf("call_%d", s.step), Type: "function",
			FunctionCall: &llms.FunctionCall{Name: name, Arguments: string(args)},
		}}}}}, nil
	}
	switch k := s.step; {
	case k == 1:
		return call("list_dir", ".")
	case k == 2:
		return call("grep", "func ")
	case k-3 < len(s.files):
		return call("read_file", s.files[k-3])
	}
	return textResponse(fmt.Sprintf("I listed the directory, searched it and read %d files.", len(s.files))), nil
}

func (s *scriptedFunctions) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, s, prompt, options...)
}

// TestFunctionsAgentRun is the integration test: langchaingo's executor and
// OpenAI functions agent with real tools on this package's source, driven by
// a scripted model wrapped with Wrap. Compaction must happen inside the one
// agent run, and every request the model received must hold the invariants.
func TestFunctionsAgentRun(t *testing.T) {
	files := goFiles(t)
	sort.Slice(files, func(i, j int) bool { return files[i] > files[j] })
	c := newCompactor(t, 10_000)
	next := &scriptedFunctions{files: files}
	var infos []CallInfo
	llm := Wrap(next, c, WithObserver(func(i CallInfo) { infos = append(infos, i) }))
	tl := []tools.Tool{listTool{}, grepTool{}, fileTool{"."}}
	agent := agents.NewOpenAIFunctionsAgent(llm, tl)
	exec := agents.NewExecutor(agent, agents.WithMaxIterations(len(files)+5))
	task := "Explore this package and say what it does."
	out, err := chains.Run(context.Background(), exec, task)
	require.NoError(t, err)
	assert.Contains(t, out, fmt.Sprintf("read %d files", len(files)))

	require.Len(t, next.got, len(files)+3)
	require.Len(t, infos, len(next.got))
	compactions := 0
	for i, sent := range next.got {
		info := infos[i]
		compactions += len(info.Compactions)
		// Rebuild what the agent built (the observer's figures) and check
		// the invariants on what the model received.
		require.Equal(t, infos[0].SessionID, info.SessionID, "one session for the run")
		require.LessOrEqual(t, c.CountTokens(sent), info.Budget, "call %d: I1", i)
		require.NoError(t, compact.CheckToolPairs(sent), "call %d: I2", i)
		require.Equal(t, llms.ChatMessageTypeSystem, sent[0].Role, "call %d: I3", i)
		assert.Contains(t, sent, llms.TextParts(llms.ChatMessageTypeHuman, task), "call %d: I4", i)
		require.Len(t, next.opts[i].Functions, 3, "the agent's function definitions are forwarded")
		if i > 0 {
			last := sent[len(sent)-1]
			require.Equal(t, llms.ChatMessageTypeTool, last.Role)
			assert.NotContains(t, last.Parts[0].(llms.ToolCallResponse).Content, "[✓", "the newest tool output is verbatim")
		}
	}
	assert.Positive(t, compactions, "compaction happened inside the agent run")
	lastInfo := infos[len(infos)-1]
	assert.Greater(t, lastInfo.InputTokens, lastInfo.Budget, "the agent built more than the budget")
	s := llm.Session(lastInfo.SessionID)
	require.NotNil(t, s)
	assert.Positive(t, s.Stats().Compactions)
}

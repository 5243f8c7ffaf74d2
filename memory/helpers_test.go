package memory

import (
	"path/filepath"
	"testing"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/trajectory"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// testCompactor returns a compactor whose whole window is the budget.
func testCompactor(t testing.TB, window int, opts ...compact.Option) *compact.Compactor {
	t.Helper()
	c, err := compact.New(append([]compact.Option{compact.WithContextWindow(window), compact.WithReservedOutput(0)}, opts...)...)
	require.NoError(t, err)
	return c
}

// corpusTexts returns realistic turn texts from the repository's testdata
// trajectories (real coding-agent runs, see testdata/LICENSES.md): ins are
// the user and tool message texts, outs the assistant texts.
func corpusTexts(t testing.TB) (ins, outs []string) {
	t.Helper()
	files, err := trajectory.Files(filepath.Join("..", "testdata", "trajectories"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		msgs, err := trajectory.ReadFile(f)
		require.NoError(t, err)
		for _, m := range msgs {
			for _, p := range m.Parts {
				switch p := p.(type) {
				case llms.TextContent:
					switch {
					case p.Text == "":
					case m.Role == llms.ChatMessageTypeAI:
						outs = append(outs, p.Text)
					case m.Role == llms.ChatMessageTypeHuman:
						ins = append(ins, p.Text)
					}
				case llms.ToolCallResponse:
					ins = append(ins, p.Content)
				}
			}
		}
	}
	require.NotEmpty(t, ins)
	require.NotEmpty(t, outs)
	return ins, outs
}
